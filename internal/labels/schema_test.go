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
	first := `"test": "checkout/refund", "attempt": 2,`
	schematest.AgreesWithReader(t, s, func(f string) error {
		_, err := Read(strings.NewReader(f))
		return err
	}, goodFile, []schematest.Change{
		{Name: "unknown field", Old: `"run":`, New: `"extra": 1, "run":`, Refused: schematest.Both},
		{Name: "unknown field of a label", Old: `"note":`, New: `"extra": 1, "note":`, Refused: schematest.Both},
		{Name: "wrong schema", Old: `"ananke.labels/v1"`, New: `"ananke.labels/v2"`, Refused: schematest.Both},
		{Name: "no schema", File: `{"labels": []}`, Refused: schematest.Both},
		{Name: "a second value after it", File: goodFile + ` {}`, Refused: schematest.Both},
		{Name: "a stray brace after it", File: goodFile + `}`, Refused: schematest.Both},
		{Name: "a stray bracket after it", File: goodFile + "\n]", Refused: schematest.Both},
		{Name: "not an object", File: `[]`, Refused: schematest.Both},
		{Name: "null", File: `null`, Refused: schematest.Both},
		{Name: "labels not a list", File: `{"schema": "ananke.labels/v1", "labels": {}}`, Refused: schematest.Both},
		{Name: "run not text", Old: `"run": "2026-11-28T08:00:00Z"`, New: `"run": 1`, Refused: schematest.Both},
		{Name: "no test", Old: first, New: `"attempt": 2,`, Refused: schematest.Both},
		{Name: "blank test", Old: first, New: `"test": " \t\n", "attempt": 2,`, Refused: schematest.Both},
		{Name: "test of wide spaces", Old: first, New: `"test": "\u00a0\u3000\u2028", "attempt": 2,`, Refused: schematest.Both},
		{Name: "no assertion", Old: `"assertion": "turn[1].judge", `, Refused: schematest.Both},
		{Name: "no scope", Old: `"scope": "turn[1]", `, Refused: schematest.Both},
		{Name: "no criterion", Old: `"criterion": "never promises a refund date",`, Refused: schematest.Both},
		{Name: "no prompt hash", Old: `"prompt_hash": "sha256:b6bd1561722272fd", `, Refused: schematest.Both},
		{Name: "empty prompt hash", Old: `"sha256:b6bd1561722272fd"`, New: `""`, Refused: schematest.Both},
		{Name: "unknown verdict", Old: `"verdict": "true"`, New: `"verdict": "yes"`, Refused: schematest.Both},
		{Name: "verdict a boolean", Old: `"verdict": "true"`, New: `"verdict": true`, Refused: schematest.Both},
		{Name: "no verdict", Old: `"verdict": "true", `, Refused: schematest.Both},
		{Name: "unknown label", Old: `"label": "disagree"`, New: `"label": "maybe"`, Refused: schematest.Both},
		{Name: "label in capitals", Old: `"label": "disagree"`, New: `"label": "Disagree"`, Refused: schematest.Both},
		{Name: "no label", Old: `"label": "disagree", `, Refused: schematest.Both},
		{Name: "negative attempt", Old: `"attempt": 2`, New: `"attempt": -1`, Refused: schematest.Both},
		{Name: "fractional attempt", Old: `"attempt": 2`, New: `"attempt": 1.5`, Refused: schematest.Both},
		{Name: "attempt as text", Old: `"attempt": 2`, New: `"attempt": "2"`, Refused: schematest.Both},
		{Name: "note a number", Old: `"note": "it says 'by Friday'"`, New: `"note": 7`, Refused: schematest.Both},
		{Name: "attempt 0", Old: `"attempt": 2`, New: `"attempt": 0`, Refused: schematest.Neither},
		{Name: "no run", Old: `"run": "2026-11-28T08:00:00Z",`, Refused: schematest.Neither},
		{Name: "no labels", File: `{"schema": "ananke.labels/v1", "labels": []}`, Refused: schematest.Neither},
		{Name: "test with a space inside", Old: `"checkout/refund"`, New: `" checkout refund "`, Refused: schematest.Neither},
		{Name: "labels left out", File: `{"schema": "ananke.labels/v1"}`, Refused: schematest.SchemaOnly},
		{Name: "labels null", File: `{"schema": "ananke.labels/v1", "labels": null}`, Refused: schematest.SchemaOnly},
		{Name: "judge model left out", Old: `"judge_model": "gpt-4o-mini", `, Refused: schematest.SchemaOnly},
		{Name: "note null", Old: `"note": "it says 'by Friday'"`, New: `"note": null`, Refused: schematest.SchemaOnly},
		{Name: "attempt written 1.0", Old: `"attempt": 2`, New: `"attempt": 1.0`, Refused: schematest.ReaderOnly},
	})
}
