package labels

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ananke/action/schema"
	"github.com/ananke/action/schema/schematest"
)

func compileSchema(t testing.TB) *jsonschema.Schema {
	return schematest.Compile(t, schema.Labels, "ananke.labels.schema.json")
}

// goodFile is a labels file of two labels, one with every field.
const goodFile = `{
  "schema": "ananke.labels/v1",
  "run": "2026-11-28T08:00:00Z",
  "labels": [
    {"test": "checkout/refund", "attempt": 2, "assertion": "turn[1].judge", "scope": "turn[1]", "criterion": "never promises a refund date",
     "judge_model": "gpt-4o-mini", "prompt_hash": "sha256:b6bd1561722272fd", "verdict": "true", "label": "disagree", "note": "it says 'by Friday'"},
    {"test": "t", "assertion": "test.judge", "scope": "test", "criterion": "polite", "judge_model": "", "prompt_hash": "sha256:0123456789abcdef", "verdict": "inconclusive", "label": "agree"}
  ]
}`

// TestWrittenMatchesSchema: what Write writes — every verdict and label,
// with and without attempt and note, no labels at all — and the labels
// files docs/judges.md and docs/reports.md show validate against the
// published schema.
func TestWrittenMatchesSchema(t *testing.T) {
	s := compileSchema(t)
	var all []Label
	for _, v := range []string{"true", "false", "inconclusive"} {
		for _, l := range []string{Agree, Disagree} {
			all = append(all, Label{Test: "tests/a", Assertion: "turn[0].judge", Scope: "turn[0]", Criterion: "c " + v, JudgeModel: "m", PromptHash: "sha256:x", Verdict: v, Label: l})
		}
	}
	all[0].Attempt, all[1].Note = 3, "why"
	files := map[string]*File{
		"every verdict and label": {Run: "2026-11-28T08:00:00Z", Labels: all},
		"no run, no model":        {Labels: []Label{{Test: "t", Assertion: "test.judge", Scope: "test", Criterion: "c", PromptHash: "h", Verdict: "false", Label: Agree}}},
		"no labels":               {},
		"empty labels":            {Labels: []Label{}},
	}
	for name, f := range files {
		var b bytes.Buffer
		if err := Write(&b, f); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(bytes.NewReader(b.Bytes())); err != nil {
			t.Fatalf("%s: Read refuses what Write wrote: %v", name, err)
		}
		if err := schematest.Validate(s, b.Bytes()); err != nil {
			t.Errorf("%s: the file does not match the schema: %v\n%s", name, err, b.String())
		}
	}
	for _, ex := range []struct{ doc, after string }{
		{"judges.md", "### The labels file\n\n"},
		{"reports.md", "The file is JSON, schema `ananke.labels/v1`"},
	} {
		doc, err := os.ReadFile(filepath.Join("..", "..", "docs", ex.doc))
		if err != nil {
			t.Fatal(err)
		}
		_, block, _ := strings.Cut(string(doc), ex.after)
		_, block, _ = strings.Cut(block, "```json\n")
		block, _, ok := strings.Cut(block, "```")
		if !ok || !strings.Contains(block, Schema) {
			t.Fatalf("docs/%s shows no labels file after %q", ex.doc, ex.after)
		}
		if _, err := Read(strings.NewReader(block)); err != nil {
			t.Errorf("the example of docs/%s does not read: %v", ex.doc, err)
		}
		if err := schematest.Validate(s, []byte(block)); err != nil {
			t.Errorf("the example of docs/%s does not match the schema: %v", ex.doc, err)
		}
	}
}

// TestSchemaRefusesWhatReadRefuses: a labels file changed one way at a
// time, read by Read and validated against the schema. What Read refuses,
// the schema refuses. The schema is stricter in one way only: a key Write
// always writes (labels, judge_model) may not be left out, nor any value
// be null, where Read takes either as empty. And one refusal is Read's
// alone: an integer written with a fraction (1.0) — JSON Schema sees the
// number, not how it is written.
func TestSchemaRefusesWhatReadRefuses(t *testing.T) {
	s := compileSchema(t)
	if _, err := Read(strings.NewReader(goodFile)); err != nil {
		t.Fatalf("the good file does not read: %v", err)
	}
	if err := schematest.Validate(s, []byte(goodFile)); err != nil {
		t.Fatalf("the good file does not match the schema: %v", err)
	}
	const (
		both = iota // Read and the schema refuse it
		none        // both take it
		schemaOnly
		readOnly
	)
	first := `"test": "checkout/refund", "attempt": 2,`
	for _, tc := range []struct {
		name     string
		old, new string // goodFile with old replaced by new
		file     string // or this file
		refused  int
	}{
		{name: "unknown field", old: `"run":`, new: `"extra": 1, "run":`, refused: both},
		{name: "unknown field of a label", old: `"note":`, new: `"extra": 1, "note":`, refused: both},
		{name: "wrong schema", old: `"ananke.labels/v1"`, new: `"ananke.labels/v2"`, refused: both},
		{name: "no schema", file: `{"labels": []}`, refused: both},
		{name: "not an object", file: `[]`, refused: both},
		{name: "null", file: `null`, refused: both},
		{name: "labels not a list", file: `{"schema": "ananke.labels/v1", "labels": {}}`, refused: both},
		{name: "run not text", old: `"run": "2026-11-28T08:00:00Z"`, new: `"run": 1`, refused: both},
		{name: "no test", old: first, new: `"attempt": 2,`, refused: both},
		{name: "blank test", old: first, new: `"test": " \t\n", "attempt": 2,`, refused: both},
		{name: "test of wide spaces", old: first, new: `"test": "\u00a0\u3000\u2028", "attempt": 2,`, refused: both},
		{name: "no assertion", old: `"assertion": "turn[1].judge", `, refused: both},
		{name: "no scope", old: `"scope": "turn[1]", `, refused: both},
		{name: "no criterion", old: `"criterion": "never promises a refund date",`, refused: both},
		{name: "no prompt hash", old: `"prompt_hash": "sha256:b6bd1561722272fd", `, refused: both},
		{name: "empty prompt hash", old: `"sha256:b6bd1561722272fd"`, new: `""`, refused: both},
		{name: "unknown verdict", old: `"verdict": "true"`, new: `"verdict": "yes"`, refused: both},
		{name: "verdict a boolean", old: `"verdict": "true"`, new: `"verdict": true`, refused: both},
		{name: "no verdict", old: `"verdict": "true", `, refused: both},
		{name: "unknown label", old: `"label": "disagree"`, new: `"label": "maybe"`, refused: both},
		{name: "label in capitals", old: `"label": "disagree"`, new: `"label": "Disagree"`, refused: both},
		{name: "no label", old: `"label": "disagree", `, refused: both},
		{name: "negative attempt", old: `"attempt": 2`, new: `"attempt": -1`, refused: both},
		{name: "fractional attempt", old: `"attempt": 2`, new: `"attempt": 1.5`, refused: both},
		{name: "attempt as text", old: `"attempt": 2`, new: `"attempt": "2"`, refused: both},
		{name: "note a number", old: `"note": "it says 'by Friday'"`, new: `"note": 7`, refused: both},
		{name: "attempt 0", old: `"attempt": 2`, new: `"attempt": 0`, refused: none},
		{name: "no run", old: `"run": "2026-11-28T08:00:00Z",`, refused: none},
		{name: "no labels", file: `{"schema": "ananke.labels/v1", "labels": []}`, refused: none},
		{name: "test with a space inside", old: `"checkout/refund"`, new: `" checkout refund "`, refused: none},
		{name: "labels left out", file: `{"schema": "ananke.labels/v1"}`, refused: schemaOnly},
		{name: "labels null", file: `{"schema": "ananke.labels/v1", "labels": null}`, refused: schemaOnly},
		{name: "judge model left out", old: `"judge_model": "gpt-4o-mini", `, refused: schemaOnly},
		{name: "note null", old: `"note": "it says 'by Friday'"`, new: `"note": null`, refused: schemaOnly},
		{name: "attempt written 1.0", old: `"attempt": 2`, new: `"attempt": 1.0`, refused: readOnly},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := tc.file
			if bad == "" {
				bad = strings.Replace(goodFile, tc.old, tc.new, 1)
				if bad == goodFile {
					t.Fatalf("the file has no %s", tc.old)
				}
			}
			_, rerr := Read(strings.NewReader(bad))
			serr := schematest.Validate(s, []byte(bad))
			wantRead := tc.refused == both || tc.refused == readOnly
			wantSchema := tc.refused == both || tc.refused == schemaOnly
			if (rerr != nil) != wantRead {
				t.Errorf("Read: %v; want refused %v", rerr, wantRead)
			}
			if (serr != nil) != wantSchema {
				t.Errorf("the schema: %v; want refused %v", serr, wantSchema)
			}
		})
	}
}
