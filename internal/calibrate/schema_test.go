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
	for _, tc := range []struct {
		name     string
		old, new string // goodFile with old replaced by new
		file     string // or this file
		refused  int
	}{
		{name: "unknown field", old: `"judges":`, new: `"extra": 1, "judges":`, refused: both},
		{name: "unknown field of a judge", old: `"model":`, new: `"extra": 1, "model":`, refused: both},
		{name: "unknown field of a criterion", old: `"n":`, new: `"extra": 1, "n":`, refused: both},
		{name: "unknown field of the confusion", old: `"judge_met_human_met":`, new: `"extra": 1, "judge_met_human_met":`, refused: both},
		{name: "unknown field of an interval", old: `"lo": 0.5519`, new: `"mid": 0.7, "lo": 0.5519`, refused: both},
		{name: "wrong schema", old: `"ananke.calibration/v1"`, new: `"ananke.labels/v1"`, refused: both},
		{name: "no schema", file: `{"judges": []}`, refused: both},
		{name: "not an object", file: `[]`, refused: both},
		{name: "judges not a list", file: `{"schema": "ananke.calibration/v1", "judges": {}}`, refused: both},
		{name: "no prompt hash", old: `"prompt_hash": "sha256:b6bd1561722272fd",`, refused: both},
		{name: "blank prompt hash", old: `"sha256:b6bd1561722272fd"`, new: `"\u00a0 "`, refused: both},
		{name: "model not text", old: `"model": "gpt-4o-mini"`, new: `"model": 4`, refused: both},
		{name: "no criterion", old: `"criterion": "polite",`, refused: both},
		{name: "blank criterion", old: `"polite"`, new: `" "`, refused: both},
		{name: "no n", old: `"n": 12, `, refused: both},
		{name: "n 0", file: strings.NewReplacer(`"n": 12, "agreements": 10`, `"n": 0, "agreements": 0`, `6, "judge_met_human_not": 1, "judge_not_human_met": 1, "judge_not_human_not": 4`,
			`0, "judge_met_human_not": 0, "judge_not_human_met": 0, "judge_not_human_not": 0`).Replace(goodFile), refused: both},
		{name: "fractional n", old: `"n": 12`, new: `"n": 12.5`, refused: both},
		{name: "negative agreements", old: `"agreements": 10`, new: `"agreements": -1`, refused: both},
		{name: "accuracy above 1", old: `"accuracy": 0.8333`, new: `"accuracy": 1.5`, refused: both},
		{name: "accuracy as text", old: `"accuracy": 0.8333`, new: `"accuracy": "83%"`, refused: both},
		{name: "accuracy interval below 0", old: `"lo": 0.5519`, new: `"lo": -0.1`, refused: both},
		{name: "kappa above 1", old: `"kappa": 0.6571`, new: `"kappa": 2`, refused: both},
		{name: "kappa interval below -1", old: `"lo": 0.2444`, new: `"lo": -2`, refused: both},
		{name: "kappa without its interval", old: `{ "lo": 0.2444, "hi": 1 }`, new: `null`, refused: both},
		{name: "kappa interval without kappa", old: `"kappa": 0.6571`, new: `"kappa": null`, refused: both},
		{name: "undefined kappa", old: `"kappa": 0.6571, "kappa_ci": { "lo": 0.2444, "hi": 1 }`, new: `"kappa": null, "kappa_ci": null`, refused: none},
		{name: "negative kappa", old: `"kappa": 0.6571, "kappa_ci": { "lo": 0.2444, "hi": 1 }`, new: `"kappa": -1, "kappa_ci": { "lo": -1, "hi": -0.5 }`, refused: none},
		{name: "negative count", old: `"judge_met_human_not": 1, "judge_not_human_met": 1`, new: `"judge_met_human_not": -1, "judge_not_human_met": 3`, refused: both},
		{name: "no confusion", old: `"confusion": { "judge_met_human_met": 6, "judge_met_human_not": 1, "judge_not_human_met": 1, "judge_not_human_not": 4 },`, refused: both},
		{name: "level 0", old: `"level": 95`, new: `"level": 0`, refused: both},
		{name: "level 100", old: `"level": 95`, new: `"level": 100`, refused: both},
		{name: "level a fraction", old: `"level": 95`, new: `"level": 0.95`, refused: none},
		{name: "no made_at", old: `"made_at": "2026-11-28T09:00:00Z",`, refused: both},
		{name: "made_at the zero time", old: `"2026-11-28T09:00:00Z"`, new: `"0001-01-01T00:00:00Z"`, refused: both},
		{name: "made_at the zero time elsewhere", old: `"2026-11-28T09:00:00Z"`, new: `"0001-01-01T02:00:00+02:00"`, refused: both},
		{name: "made_at not a time", old: `"2026-11-28T09:00:00Z"`, new: `"yesterday"`, refused: both},
		{name: "made_at in lower case", old: `"2026-11-28T09:00:00Z"`, new: `"2026-11-28t09:00:00z"`, refused: both},
		{name: "made_at a leap second", old: `"2026-11-28T09:00:00Z"`, new: `"2026-12-31T23:59:60Z"`, refused: both},
		{name: "made_at no such day", old: `"2026-11-28T09:00:00Z"`, new: `"2026-02-29T09:00:00Z"`, refused: both},
		{name: "made_at no zone", old: `"2026-11-28T09:00:00Z"`, new: `"2026-11-28T09:00:00"`, refused: both},
		{name: "made_at with an offset and nanoseconds", old: `"2026-11-28T09:00:00Z"`, new: `"2026-11-28T09:00:00.123456789-05:30"`, refused: none},
		{name: "labels files not text", old: `["a.json", "b.json"]`, new: `[1]`, refused: both},
		{name: "no labels files", old: `["a.json", "b.json"]`, new: `[]`, refused: none},
		{name: "no judges", file: `{"schema": "ananke.calibration/v1", "judges": []}`, refused: none},
		{name: "empty model", old: `"gpt-4o-mini"`, new: `""`, refused: none},
		{name: "two judges", file: judgesFile(goodJudge, strings.Replace(goodJudge, `"gpt-4o-mini"`, `"gpt-4o"`, 1)), refused: none},
		{name: "two criteria", old: goodCriterion, new: goodCriterion + ", " + strings.Replace(goodCriterion, `"polite"`, `"brief"`, 1), refused: none},

		{name: "judge twice", file: judgesFile(goodJudge, goodJudge), refused: readOnly},
		{name: "criterion twice", old: goodCriterion, new: goodCriterion + ", " + goodCriterion, refused: readOnly},
		{name: "agreements above n", old: `"agreements": 10`, new: `"agreements": 13`, refused: readOnly},
		{name: "confusion does not add up", old: `"judge_not_human_not": 4`, new: `"judge_not_human_not": 5`, refused: readOnly},
		{name: "interval upside down", old: `"lo": 0.5519, "hi": 0.953`, new: `"lo": 0.953, "hi": 0.5519`, refused: readOnly},
		{name: "n written 12.0", old: `"n": 12`, new: `"n": 12.0`, refused: readOnly},

		{name: "judges left out", file: `{"schema": "ananke.calibration/v1"}`, refused: schemaOnly},
		{name: "judges null", file: `{"schema": "ananke.calibration/v1", "judges": null}`, refused: schemaOnly},
		{name: "criteria null", file: judgesFile(`{"model": "m", "prompt_hash": "h", "criteria": null}`), refused: schemaOnly},
		{name: "accuracy interval null", old: `{ "lo": 0.5519, "hi": 0.953 }`, new: `null`, refused: schemaOnly},
		{name: "kappa and its interval left out", old: `"kappa": 0.6571, "kappa_ci": { "lo": 0.2444, "hi": 1 },`, refused: schemaOnly},
		{name: "labels files left out", old: `,
          "labels": ["a.json", "b.json"]`, refused: schemaOnly},
		{name: "model left out", old: `"model": "gpt-4o-mini",`, refused: schemaOnly},
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
