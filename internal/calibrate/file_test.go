package calibrate

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

var madeAt = time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)

// sample is a file of two judge identities, set out of order.
func sample() *File {
	var f File
	f.Set("m2", "sha256:bbbbbbbbbbbbbbbb", NewCriterion("polite", Confusion{6, 1, 1, 4}, 0.95, madeAt, []string{"b.json", "a.json", "a.json"}))
	f.Set("m1", "sha256:aaaaaaaaaaaaaaaa",
		NewCriterion("terse", Confusion{JudgeMetHumanMet: 12}, 0.95, madeAt, nil),
		NewCriterion("polite", Confusion{3, 3, 3, 3}, 0.95, madeAt, []string{"a.json"}))
	return &f
}

// TestFileRoundTrip: Write orders judges and criteria, rounds and names
// the labels files once; Read reads back the same bytes; an undefined
// kappa is null, never NaN; Set replaces a criterion and keeps the rest.
func TestFileRoundTrip(t *testing.T) {
	f := sample()
	var b bytes.Buffer
	if err := Write(&b, f); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	for _, want := range []string{`"schema": "ananke.calibration/v1"`, `"kappa": null`, `"kappa_ci": null`, `"made_at": "2026-11-28T09:00:00Z"`,
		`"labels": [
            "a.json",
            "b.json"
          ]`, `"accuracy": 0.8333`, `"level": 95`} {
		if !strings.Contains(s, want) {
			t.Errorf("the file lacks %s:\n%s", want, s)
		}
	}
	if strings.Contains(s, "NaN") || strings.Index(s, `"m1"`) > strings.Index(s, `"m2"`) || strings.Index(s, `"polite"`) > strings.Index(s, `"terse"`) {
		t.Errorf("order or NaN:\n%s", s)
	}
	g, err := Read(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	if err := Write(&again, g); err != nil || again.String() != s {
		t.Errorf("round trip differs (%v):\n%s", err, again.String())
	}
	c, ok := g.Find("m2", "sha256:bbbbbbbbbbbbbbbb", "polite")
	if !ok || c.N != 12 || c.Agreements != 10 || *c.Kappa != 0.6571 {
		t.Errorf("Find: %+v %v", c, ok)
	}
	g.Set("m1", "sha256:aaaaaaaaaaaaaaaa", NewCriterion("polite", Confusion{JudgeMetHumanMet: 1, JudgeNotHumanNot: 1}, 0.95, madeAt, nil))
	if c, _ := g.Find("m1", "sha256:aaaaaaaaaaaaaaaa", "polite"); c.N != 2 {
		t.Errorf("Set did not replace: %+v", c)
	}
	if _, ok := g.Find("m1", "sha256:aaaaaaaaaaaaaaaa", "terse"); !ok || len(g.Judges) != 2 {
		t.Errorf("Set lost a calibration: %+v", g.Judges)
	}
}

// TestReadStrict: what Read refuses, each named.
func TestReadStrict(t *testing.T) {
	crit := `{"criterion": "polite", "n": 2, "agreements": 2, "accuracy": 1, "accuracy_ci": {"lo": 0.3, "hi": 1}, "kappa": 1, "kappa_ci": {"lo": 1, "hi": 1},
		"confusion": {"judge_met_human_met": 1, "judge_met_human_not": 0, "judge_not_human_met": 0, "judge_not_human_not": 1}, "level": 95, "made_at": "2026-11-28T09:00:00Z", "labels": []}`
	file := func(judges string) string { return `{"schema": "ananke.calibration/v1", "judges": [` + judges + `]}` }
	judge := func(crits ...string) string {
		return `{"model": "m", "prompt_hash": "sha256:a", "criteria": [` + strings.Join(crits, ",") + `]}`
	}
	if _, err := Read(strings.NewReader(file(judge(crit)))); err != nil {
		t.Fatalf("a valid file: %v", err)
	}
	for _, tc := range []struct{ name, in, want string }{
		{"not json", "nope", "not a calibration file"},
		{"schema", `{"schema": "ananke.labels/v1", "judges": []}`, `schema "ananke.labels/v1"`},
		{"unknown field", `{"schema": "ananke.calibration/v1", "judges": [], "extra": 1}`, "unknown field"},
		{"two values", file("") + "{}", "more than one JSON value"},
		{"judge twice", file(judge(crit) + "," + judge(crit)), "judges[1]: judge m with prompt sha256:a is given twice"},
		{"criterion twice", file(judge(crit, crit)), `judges[0].criteria[1]: criterion "polite" is given twice`},
		{"no prompt hash", file(`{"model": "m", "prompt_hash": "", "criteria": []}`), "judges[0]: no prompt_hash"},
		{"no labels", file(judge(strings.Replace(crit, `"n": 2`, `"n": 0`, 1))), "at least one label"},
		{"confusion", file(judge(strings.Replace(crit, `"judge_not_human_not": 1`, `"judge_not_human_not": 0`, 1))), "does not add up"},
		{"accuracy", file(judge(strings.Replace(crit, `"accuracy": 1`, `"accuracy": 1.5`, 1))), "not a proportion"},
		{"kappa alone", file(judge(strings.Replace(crit, `"kappa_ci": {"lo": 1, "hi": 1}`, `"kappa_ci": null`, 1))), "together"},
		{"kappa range", file(judge(strings.Replace(crit, `"kappa": 1,`, `"kappa": 2,`, 1))), "between -1 and 1"},
		{"level", file(judge(strings.Replace(crit, `"level": 95`, `"level": 100`, 1))), "level 100"},
		{"made at", file(judge(strings.Replace(crit, `"made_at": "2026-11-28T09:00:00Z", `, ``, 1))), "no made_at"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Read(strings.NewReader(tc.in)); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// FuzzRead: Read never panics, and what it accepts it writes as a file
// it reads back to the same bytes.
func FuzzRead(f *testing.F) {
	var b bytes.Buffer
	if err := Write(&b, sample()); err != nil {
		f.Fatal(err)
	}
	f.Add(b.String())
	f.Add(`{"schema": "ananke.calibration/v1", "judges": []}`)
	f.Add(`{"schema": "ananke.calibration/v1", "judges": [{"model": "", "prompt_hash": "x", "criteria": null}]}`)
	f.Fuzz(func(t *testing.T, in string) {
		c, err := Read(strings.NewReader(in))
		if err != nil {
			return
		}
		var once, twice bytes.Buffer
		if err := Write(&once, c); err != nil {
			t.Fatal(err)
		}
		c2, err := Read(bytes.NewReader(once.Bytes()))
		if err != nil {
			t.Fatalf("what Read accepted and Write wrote is refused: %v\n%s", err, once.String())
		}
		if err := Write(&twice, c2); err != nil || twice.String() != once.String() {
			t.Fatalf("written twice differently:\n%s\n%s", once.String(), twice.String())
		}
	})
}
