package jsonreport_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/jsonreport"
)

// TestVariantsMatchesSchema: a run against variants — one that could not
// run, a significant difference — writes what the schema describes, each
// test with its variant; the schema rejects a cell of an unknown status, a
// pair without its line and a p-value above 1.
func TestVariantsMatchesSchema(t *testing.T) {
	summary, result := compileSchema(t)
	r := reporttest.VariantsReport()
	var b bytes.Buffer
	if err := jsonreport.WriteSummary(&b, r); err != nil {
		t.Fatal(err)
	}
	js := b.String()
	for _, want := range []string{`"variants": {`, `"variant": "careful"`, `"id": "tests/search@careful"`, `"error": "agent did not start`,
		`"better": "baseline"`, `"worse": [`, `"significance": 0.05`, `"cost_change_pct": -22.5`} {
		if !strings.Contains(js, want) {
			t.Errorf("summary.json lacks %s", want)
		}
	}
	v, _ := jsonschema.UnmarshalJSON(strings.NewReader(js))
	if err := summary.Validate(v); err != nil {
		t.Errorf("summary.json does not match the schema: %v", err)
	}
	for _, tc := range []struct{ name, old, new string }{
		{"cell status", `"status": "error",
            "runs"`, `"status": "broken",
            "runs"`},
		{"pair without a line", `"line": "careful passes`, `"lines": "careful passes`},
		{"p-value", `"p": 0.`, `"p": 2.`},
	} {
		if !strings.Contains(js, tc.old) {
			t.Fatalf("%s: the summary has no %s", tc.name, tc.old)
		}
		v, _ := jsonschema.UnmarshalJSON(strings.NewReader(strings.Replace(js, tc.old, tc.new, 1)))
		if summary.Validate(v) == nil {
			t.Errorf("the schema accepts a bad %s", tc.name)
		}
	}
	for i := range r.Tests {
		b.Reset()
		if err := jsonreport.WriteResult(&b, &r.Tests[i]); err != nil {
			t.Fatal(err)
		}
		v, _ := jsonschema.UnmarshalJSON(&b)
		if err := result.Validate(v); err != nil {
			t.Errorf("result of %s does not match the schema: %v", r.Tests[i].ID, err)
		}
	}
}
