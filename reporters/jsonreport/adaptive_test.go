package jsonreport_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/jsonreport"
)

// TestAdaptiveMatchesSchema: a run of adaptive tests — settled, failed,
// inconclusive under fail-on-inconclusive — writes what the schema
// describes, and the schema rejects a stop reason it does not know and an
// adaptive test without its planned runs.
func TestAdaptiveMatchesSchema(t *testing.T) {
	summary, result := compileSchema(t)
	r := reporttest.AdaptiveReport(true, reporttest.SettledPass, reporttest.SettledFail, reporttest.Inconclusive, reporttest.Fixed)
	var b bytes.Buffer
	if err := jsonreport.WriteSummary(&b, r); err != nil {
		t.Fatal(err)
	}
	js := b.String()
	for _, want := range []string{`"fail_on_inconclusive": true`, `"stop_reason": "settled_pass"`, `"stop_reason": "max_runs"`, `"inconclusive": true`,
		`"runs_saved": 30`} {
		if !strings.Contains(js, want) {
			t.Errorf("summary.json lacks %s", want)
		}
	}
	v, _ := jsonschema.UnmarshalJSON(strings.NewReader(js))
	if err := summary.Validate(v); err != nil {
		t.Errorf("summary.json does not match the schema: %v", err)
	}
	b.Reset()
	jsonreport.WriteResult(&b, &r.Tests[reporttest.Inconclusive])
	res := b.String()
	v, _ = jsonschema.UnmarshalJSON(strings.NewReader(res))
	if err := result.Validate(v); err != nil {
		t.Errorf("the inconclusive test's result does not match the schema: %v", err)
	}
	for _, tc := range []struct{ name, old, new string }{
		{"stop reason", `"stop_reason": "max_runs"`, `"stop_reason": "bored"`},
		{"planned runs", `"min_runs": 2,`, ``},
	} {
		if !strings.Contains(res, tc.old) {
			t.Fatalf("%s: the result has no %s", tc.name, tc.old)
		}
		v, _ := jsonschema.UnmarshalJSON(strings.NewReader(strings.Replace(res, tc.old, tc.new, 1)))
		if result.Validate(v) == nil {
			t.Errorf("the schema accepts a bad %s", tc.name)
		}
	}
}
