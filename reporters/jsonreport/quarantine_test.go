package jsonreport_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/jsonreport"
)

// TestQuarantineMatchesSchema: a run with quarantined tests — one failed,
// one stable in this run, one errored — and advice about the quarantine
// list writes what the schema describes; the schema rejects an entry
// without its reason and advice of an action it does not know.
func TestQuarantineMatchesSchema(t *testing.T) {
	summary, result := compileSchema(t)
	r := reporttest.QuarantineReport(reporttest.Failing, reporttest.Passing, reporttest.Errored, reporttest.Wobbly)
	if err := r.Advise(report.QuarantineAdvice{Test: "tests/search", Action: report.AdviseQuarantine, Reason: "fails 6 of the last 20 runs on main"}); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := jsonreport.WriteSummary(&b, r); err != nil {
		t.Fatal(err)
	}
	js := b.String()
	for _, want := range []string{`"status": "pass"`, `"stable_in_run": true`, `"match": "tests/[wr]e*"`, `"until": "2026-12-31"`,
		`"quarantine_advice": [`, `"action": "quarantine"`, `"stable": 1`} {
		if !strings.Contains(js, want) {
			t.Errorf("summary.json lacks %s", want)
		}
	}
	v, _ := jsonschema.UnmarshalJSON(strings.NewReader(js))
	if err := summary.Validate(v); err != nil {
		t.Errorf("summary.json does not match the schema: %v", err)
	}
	for _, tc := range []struct{ name, old, new string }{
		{"advice action", `"action": "quarantine"`, `"action": "ignore"`},
		{"entry without a reason", `"reason": "the payment sandbox declines at random",`, ``},
	} {
		if !strings.Contains(js, tc.old) {
			t.Fatalf("%s: the summary has no %s", tc.name, tc.old)
		}
		v, _ := jsonschema.UnmarshalJSON(strings.NewReader(strings.Replace(js, tc.old, tc.new, 1)))
		if summary.Validate(v) == nil {
			t.Errorf("the schema accepts a bad %s", tc.name)
		}
	}
	b.Reset()
	if err := jsonreport.WriteResult(&b, &r.Tests[0]); err != nil {
		t.Fatal(err)
	}
	v, _ = jsonschema.UnmarshalJSON(strings.NewReader(b.String()))
	if err := result.Validate(v); err != nil {
		t.Errorf("the quarantined test's result does not match the schema: %v", err)
	}
}
