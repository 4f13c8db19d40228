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

// TestBackendMatchesSchema: a run whose agent took its tools from the
// doubles and its model from the gateway writes the served calls, the
// model calls and the run's warnings as the schema describes them
// (testdata/summary-backend.golden.json); the schema rejects a mode and a
// served record it does not know.
func TestBackendMatchesSchema(t *testing.T) {
	summary, _ := compileSchema(t)
	var b bytes.Buffer
	if err := jsonreport.WriteSummary(&b, reporttest.BackendReport()); err != nil {
		t.Fatal(err)
	}
	js := b.String()
	golden.Assert(t, "testdata/summary-backend.golden.json", js)
	v, _ := jsonschema.UnmarshalJSON(strings.NewReader(js))
	if err := summary.Validate(v); err != nil {
		t.Errorf("summary.json does not match the schema: %v", err)
	}
	for _, tc := range []struct{ name, old, new string }{
		{"gateway mode", `"mode": "replay"`, `"mode": "mock"`},
		{"served by", `"by": "doubles"`, `"by": "someone"`},
		{"run warning rule", `"rule": "backend"`, `"rule": "other"`},
	} {
		if !strings.Contains(js, tc.old) {
			t.Fatalf("%s: the summary has no %s", tc.name, tc.old)
		}
		v, _ := jsonschema.UnmarshalJSON(strings.NewReader(strings.Replace(js, tc.old, tc.new, 1)))
		if summary.Validate(v) == nil {
			t.Errorf("the schema accepts a bad %s", tc.name)
		}
	}
}
