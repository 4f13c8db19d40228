package calibrate

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
	return schematest.Compile(t, schema.Calibration, "ananke.calibration.schema.json")
}

// goodCriterion, goodJudge and goodFile are a calibration file of one
// judge and one criterion, and its parts.
const (
	goodCriterion = `{
          "criterion": "polite",
          "n": 12, "agreements": 10,
          "accuracy": 0.8333, "accuracy_ci": { "lo": 0.5519, "hi": 0.953 },
          "kappa": 0.6571, "kappa_ci": { "lo": 0.2444, "hi": 1 },
          "confusion": { "judge_met_human_met": 6, "judge_met_human_not": 1, "judge_not_human_met": 1, "judge_not_human_not": 4 },
          "level": 95,
          "made_at": "2026-11-28T09:00:00Z",
          "labels": ["a.json", "b.json"]
        }`
	goodJudge = `{
      "model": "gpt-4o-mini",
      "prompt_hash": "sha256:b6bd1561722272fd",
      "criteria": [` + goodCriterion + `]
    }`
	goodFile = `{
  "schema": "ananke.calibration/v1",
  "judges": [` + goodJudge + `]
}`
)

// judgesFile is a calibration file of these judges.
func judgesFile(judges ...string) string {
	return `{"schema": "ananke.calibration/v1", "judges": [` + strings.Join(judges, ", ") + `]}`
}

// TestWrittenMatchesSchema: what Write writes — two judge identities, an
// undefined kappa, a criterion of no labels files, a judge of no
// criteria, no judges at all — and the calibration file docs/judges.md
// shows validate against the published schema.
func TestWrittenMatchesSchema(t *testing.T) {
	s := compileSchema(t)
	noCriteria := File{Judges: []Judge{{Model: "m", PromptHash: "sha256:c"}}}
	noCriteria.Set("", "sha256:d", Criterion{Criterion: "bare", N: 1, Agreements: 1, Accuracy: 1, AccuracyCI: Interval{0.2, 1},
		Confusion: Confusion{JudgeMetHumanMet: 1}, Level: 90, MadeAt: madeAt})
	files := map[string]*File{"sample": sample(), "no criteria, no labels files, no model": &noCriteria, "empty": {}}
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
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "judges.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, _ := strings.Cut(string(doc), "### The calibration file\n\n```json\n")
	block, _, ok := strings.Cut(block, "```")
	if !ok || !strings.Contains(block, Schema) {
		t.Fatal("docs/judges.md shows no calibration file under The calibration file")
	}
	if _, err := Read(strings.NewReader(block)); err != nil {
		t.Errorf("the example of docs/judges.md does not read: %v", err)
	}
	if err := schematest.Validate(s, []byte(block)); err != nil {
		t.Errorf("the example of docs/judges.md does not match the schema: %v", err)
	}
}

// TestSchemaRefusesWhatReadRefuses: a calibration file changed one way at
// a time, read by Read and validated against the schema. What Read
// refuses, the schema refuses, but for what a JSON Schema cannot say,
// which its description lists: a judge or criterion given twice,
// agreements above n, a confusion that does not add up, an interval
// upside down (and an integer written with a fraction, 1.0: JSON Schema
// sees the number, not how it is written). The schema is stricter in one
// way only: a key Write always writes may not be left out, nor null
// where Write never writes null, where Read takes either as empty.
func TestSchemaRefusesWhatReadRefuses(t *testing.T) {
	s := compileSchema(t)
	schematest.AgreesWithReader(t, s, func(f string) error {
		_, err := Read(strings.NewReader(f))
		return err
	}, goodFile, []schematest.Change{
		{Name: "unknown field", Old: `"judges":`, New: `"extra": 1, "judges":`, Refused: schematest.Both},
		{Name: "unknown field of a judge", Old: `"model":`, New: `"extra": 1, "model":`, Refused: schematest.Both},
		{Name: "unknown field of a criterion", Old: `"n":`, New: `"extra": 1, "n":`, Refused: schematest.Both},
		{Name: "unknown field of the confusion", Old: `"judge_met_human_met":`, New: `"extra": 1, "judge_met_human_met":`, Refused: schematest.Both},
		{Name: "unknown field of an interval", Old: `"lo": 0.5519`, New: `"mid": 0.7, "lo": 0.5519`, Refused: schematest.Both},
		{Name: "wrong schema", Old: `"ananke.calibration/v1"`, New: `"ananke.labels/v1"`, Refused: schematest.Both},
		{Name: "no schema", File: `{"judges": []}`, Refused: schematest.Both},
		{Name: "a second value after it", File: goodFile + ` {}`, Refused: schematest.Both},
		{Name: "a stray brace after it", File: goodFile + `}`, Refused: schematest.Both},
		{Name: "a stray bracket after it", File: goodFile + "\n]", Refused: schematest.Both},
		{Name: "not an object", File: `[]`, Refused: schematest.Both},
		{Name: "judges not a list", File: `{"schema": "ananke.calibration/v1", "judges": {}}`, Refused: schematest.Both},
		{Name: "no prompt hash", Old: `"prompt_hash": "sha256:b6bd1561722272fd",`, Refused: schematest.Both},
		{Name: "blank prompt hash", Old: `"sha256:b6bd1561722272fd"`, New: `"\u00a0 "`, Refused: schematest.Both},
		{Name: "model not text", Old: `"model": "gpt-4o-mini"`, New: `"model": 4`, Refused: schematest.Both},
		{Name: "no criterion", Old: `"criterion": "polite",`, Refused: schematest.Both},
		{Name: "blank criterion", Old: `"polite"`, New: `" "`, Refused: schematest.Both},
		{Name: "no n", Old: `"n": 12, `, Refused: schematest.Both},
		{Name: "n 0", File: strings.NewReplacer(`"n": 12, "agreements": 10`, `"n": 0, "agreements": 0`, `6, "judge_met_human_not": 1, "judge_not_human_met": 1, "judge_not_human_not": 4`,
			`0, "judge_met_human_not": 0, "judge_not_human_met": 0, "judge_not_human_not": 0`).Replace(goodFile), Refused: schematest.Both},
		{Name: "fractional n", Old: `"n": 12`, New: `"n": 12.5`, Refused: schematest.Both},
		{Name: "negative agreements", Old: `"agreements": 10`, New: `"agreements": -1`, Refused: schematest.Both},
		{Name: "accuracy above 1", Old: `"accuracy": 0.8333`, New: `"accuracy": 1.5`, Refused: schematest.Both},
		{Name: "accuracy as text", Old: `"accuracy": 0.8333`, New: `"accuracy": "83%"`, Refused: schematest.Both},
		{Name: "accuracy interval below 0", Old: `"lo": 0.5519`, New: `"lo": -0.1`, Refused: schematest.Both},
		{Name: "kappa above 1", Old: `"kappa": 0.6571`, New: `"kappa": 2`, Refused: schematest.Both},
		{Name: "kappa interval below -1", Old: `"lo": 0.2444`, New: `"lo": -2`, Refused: schematest.Both},
		{Name: "kappa without its interval", Old: `{ "lo": 0.2444, "hi": 1 }`, New: `null`, Refused: schematest.Both},
		{Name: "kappa interval without kappa", Old: `"kappa": 0.6571`, New: `"kappa": null`, Refused: schematest.Both},
		{Name: "undefined kappa", Old: `"kappa": 0.6571, "kappa_ci": { "lo": 0.2444, "hi": 1 }`, New: `"kappa": null, "kappa_ci": null`, Refused: schematest.Neither},
		{Name: "negative kappa", Old: `"kappa": 0.6571, "kappa_ci": { "lo": 0.2444, "hi": 1 }`, New: `"kappa": -1, "kappa_ci": { "lo": -1, "hi": -0.5 }`, Refused: schematest.Neither},
		{Name: "negative count", Old: `"judge_met_human_not": 1, "judge_not_human_met": 1`, New: `"judge_met_human_not": -1, "judge_not_human_met": 3`, Refused: schematest.Both},
		{Name: "no confusion", Old: `"confusion": { "judge_met_human_met": 6, "judge_met_human_not": 1, "judge_not_human_met": 1, "judge_not_human_not": 4 },`, Refused: schematest.Both},
		{Name: "level 0", Old: `"level": 95`, New: `"level": 0`, Refused: schematest.Both},
		{Name: "level 100", Old: `"level": 95`, New: `"level": 100`, Refused: schematest.Both},
		{Name: "level a fraction", Old: `"level": 95`, New: `"level": 0.95`, Refused: schematest.Neither},
		{Name: "no made_at", Old: `"made_at": "2026-11-28T09:00:00Z",`, Refused: schematest.Both},
		{Name: "made_at the zero time", Old: `"2026-11-28T09:00:00Z"`, New: `"0001-01-01T00:00:00Z"`, Refused: schematest.Both},
		{Name: "made_at the zero time elsewhere", Old: `"2026-11-28T09:00:00Z"`, New: `"0001-01-01T02:00:00+02:00"`, Refused: schematest.Both},
		{Name: "made_at not a time", Old: `"2026-11-28T09:00:00Z"`, New: `"yesterday"`, Refused: schematest.Both},
		{Name: "made_at in lower case", Old: `"2026-11-28T09:00:00Z"`, New: `"2026-11-28t09:00:00z"`, Refused: schematest.Both},
		{Name: "made_at a leap second", Old: `"2026-11-28T09:00:00Z"`, New: `"2026-12-31T23:59:60Z"`, Refused: schematest.Both},
		{Name: "made_at no such day", Old: `"2026-11-28T09:00:00Z"`, New: `"2026-02-29T09:00:00Z"`, Refused: schematest.Both},
		{Name: "made_at no zone", Old: `"2026-11-28T09:00:00Z"`, New: `"2026-11-28T09:00:00"`, Refused: schematest.Both},
		{Name: "made_at with an offset and nanoseconds", Old: `"2026-11-28T09:00:00Z"`, New: `"2026-11-28T09:00:00.123456789-05:30"`, Refused: schematest.Neither},
		{Name: "labels files not text", Old: `["a.json", "b.json"]`, New: `[1]`, Refused: schematest.Both},
		{Name: "no labels files", Old: `["a.json", "b.json"]`, New: `[]`, Refused: schematest.Neither},
		{Name: "no judges", File: `{"schema": "ananke.calibration/v1", "judges": []}`, Refused: schematest.Neither},
		{Name: "empty model", Old: `"gpt-4o-mini"`, New: `""`, Refused: schematest.Neither},
		{Name: "two judges", File: judgesFile(goodJudge, strings.Replace(goodJudge, `"gpt-4o-mini"`, `"gpt-4o"`, 1)), Refused: schematest.Neither},
		{Name: "two criteria", Old: goodCriterion, New: goodCriterion + ", " + strings.Replace(goodCriterion, `"polite"`, `"brief"`, 1), Refused: schematest.Neither},

		{Name: "judge twice", File: judgesFile(goodJudge, goodJudge), Refused: schematest.ReaderOnly},
		{Name: "criterion twice", Old: goodCriterion, New: goodCriterion + ", " + goodCriterion, Refused: schematest.ReaderOnly},
		{Name: "agreements above n", Old: `"agreements": 10`, New: `"agreements": 13`, Refused: schematest.ReaderOnly},
		{Name: "confusion does not add up", Old: `"judge_not_human_not": 4`, New: `"judge_not_human_not": 5`, Refused: schematest.ReaderOnly},
		{Name: "interval upside down", Old: `"lo": 0.5519, "hi": 0.953`, New: `"lo": 0.953, "hi": 0.5519`, Refused: schematest.ReaderOnly},
		{Name: "n written 12.0", Old: `"n": 12`, New: `"n": 12.0`, Refused: schematest.ReaderOnly},

		{Name: "judges left out", File: `{"schema": "ananke.calibration/v1"}`, Refused: schematest.SchemaOnly},
		{Name: "judges null", File: `{"schema": "ananke.calibration/v1", "judges": null}`, Refused: schematest.SchemaOnly},
		{Name: "criteria null", File: judgesFile(`{"model": "m", "prompt_hash": "h", "criteria": null}`), Refused: schematest.SchemaOnly},
		{Name: "accuracy interval null", Old: `{ "lo": 0.5519, "hi": 0.953 }`, New: `null`, Refused: schematest.SchemaOnly},
		{Name: "kappa and its interval left out", Old: `"kappa": 0.6571, "kappa_ci": { "lo": 0.2444, "hi": 1 },`, Refused: schematest.SchemaOnly},
		{Name: "labels files left out", Old: `,
          "labels": ["a.json", "b.json"]`, Refused: schematest.SchemaOnly},
		{Name: "model left out", Old: `"model": "gpt-4o-mini",`, Refused: schematest.SchemaOnly},
	})
}
