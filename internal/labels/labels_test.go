package labels

import (
	"bytes"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	good := `{"schema":"ananke.labels/v1","labels":[{"test":"t","assertion":"turn[0].judge","scope":"turn[0]","criterion":"polite","judge_model":"m","prompt_hash":"sha256:0123456789abcdef","verdict":"false","label":"disagree","note":"it was"}]}`
	for _, tc := range []struct {
		name, in, err string
	}{
		{"good", good, ""},
		{"empty list", `{"schema":"ananke.labels/v1","labels":[]}`, ""},
		{"wrong schema", `{"schema":"ananke.report/v1","labels":[]}`, `schema "ananke.report/v1"`},
		{"unknown field", `{"schema":"ananke.labels/v1","labels":[],"x":1}`, `unknown field "x"`},
		{"not json", `agree`, "not a labels file"},
		{"two values", `{"schema":"ananke.labels/v1"} {}`, "more than one JSON value"},
		{"missing keys", `{"schema":"ananke.labels/v1","labels":[{"verdict":"true","label":"agree"}]}`, "labels[0]: no test, assertion, scope, criterion, prompt_hash"},
		{"bad label", strings.Replace(good, `"disagree"`, `"maybe"`, 1), `labels[0]: label "maybe" is not agree or disagree`},
		{"bad verdict", strings.Replace(good, `"false"`, `"yes"`, 1), `verdict "yes" is not true, false or inconclusive`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Read(strings.NewReader(tc.in))
			if tc.err == "" {
				if err != nil || f.Labels == nil {
					t.Fatalf("Read: %v, %+v", err, f)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("Read: %v, want %q", err, tc.err)
			}
		})
	}
}

func TestMet(t *testing.T) {
	for _, tc := range []struct {
		verdict, label string
		met            bool
	}{
		{"true", Agree, true}, {"true", Disagree, false},
		{"false", Agree, false}, {"false", Disagree, true},
		{"inconclusive", Agree, false}, {"inconclusive", Disagree, true},
	} {
		if got := (Label{Verdict: tc.verdict, Label: tc.label}).Met(); got != tc.met {
			t.Errorf("%s/%s: Met %v, want %v", tc.verdict, tc.label, got, tc.met)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	in := &File{Labels: []Label{{Test: "t", Attempt: 2, Assertion: "judge", Scope: "test", Criterion: "c", JudgeModel: "m", PromptHash: "sha256:x", Verdict: "true", Label: Agree}}}
	var b bytes.Buffer
	if err := Write(&b, in); err != nil {
		t.Fatal(err)
	}
	out, err := Read(&b)
	if err != nil || len(out.Labels) != 1 || out.Labels[0] != in.Labels[0] {
		t.Fatalf("round trip: %v %+v", err, out)
	}
}

func FuzzRead(f *testing.F) {
	f.Add(`{"schema":"ananke.labels/v1","labels":[{"test":"t","assertion":"a","scope":"test","criterion":"c","judge_model":"m","prompt_hash":"h","verdict":"true","label":"agree"}]}`)
	f.Add(`{"schema":"ananke.labels/v1","labels":null}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, in string) {
		file, err := Read(strings.NewReader(in))
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := Write(&b, file); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(&b); err != nil {
			t.Fatalf("a file read back does not read again: %v", err)
		}
	})
}
