package jsonreport_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/jsonreport"
)

// TestJudgesMatchSchema: a run whose judges gave verdicts writes each
// judge assertion's model, prompt hash, criteria and why a critical one
// was reported as a warning, as the schema describes them
// (testdata/summary-judges.golden.json), the secret in a reasoning masked;
// the schema rejects a verdict it does not know.
func TestJudgesMatchSchema(t *testing.T) {
	summary, _ := compileSchema(t)
	var b bytes.Buffer
	if err := jsonreport.WriteSummary(&b, reporttest.JudgesReport()); err != nil {
		t.Fatal(err)
	}
	js := b.String()
	golden.Assert(t, "testdata/summary-judges.golden.json", js)
	if strings.Contains(js, reporttest.Secret) {
		t.Error("summary.json holds the secret planted in a judge's reasoning")
	}
	for _, want := range []string{`"prompt_hash": "` + reporttest.JudgePromptHash + `"`, `"demoted": "` + reporttest.Demoted + `"`} {
		if !strings.Contains(js, want) {
			t.Errorf("summary.json lacks %s", want)
		}
	}
	v, _ := jsonschema.UnmarshalJSON(strings.NewReader(js))
	if err := summary.Validate(v); err != nil {
		t.Errorf("summary.json does not match the schema: %v", err)
	}
	bad, _ := jsonschema.UnmarshalJSON(strings.NewReader(strings.Replace(js, `"verdict": "inconclusive"`, `"verdict": "maybe"`, 1)))
	if !strings.Contains(js, `"verdict": "inconclusive"`) || summary.Validate(bad) == nil {
		t.Error("the schema accepts a verdict that is not true, false or inconclusive")
	}
}
