package jsonreport_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/jsonreport"
	"github.com/ananke/action/schema"
)

// TestSummaryMatchesSchema: summary.json and a result file validate against
// the published schema, whose objects are closed, so a field added to the
// model without the schema fails here.
func TestSummaryMatchesSchema(t *testing.T) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema.Report))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const url = "https://raw.githubusercontent.com/ananke/action/main/schema/ananke.report.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	summary, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	result, err := c.Compile(url + "#/$defs/test")
	if err != nil {
		t.Fatal(err)
	}
	r := reporttest.Report()
	var b bytes.Buffer
	jsonreport.WriteSummary(&b, r)
	v, _ := jsonschema.UnmarshalJSON(&b)
	if err := summary.Validate(v); err != nil {
		t.Errorf("summary.json does not match the schema: %v", err)
	}
	for i := range r.Tests {
		b.Reset()
		jsonreport.WriteResult(&b, &r.Tests[i])
		v, _ := jsonschema.UnmarshalJSON(&b)
		if err := result.Validate(v); err != nil {
			t.Errorf("result of %s does not match the schema: %v", r.Tests[i].ID, err)
		}
	}
	// The schema must reject what it should: an unknown field, and values
	// outside the enums and ranges of severities, statuses, categories and
	// event references. Each edit is of the passing test's result, whose
	// warning assertion has them all.
	b.Reset()
	jsonreport.WriteSummary(&b, r)
	bad := bytes.Replace(b.Bytes(), []byte(`"parallel"`), []byte(`"extra": 1, "parallel"`), 1)
	v, _ = jsonschema.UnmarshalJSON(bytes.NewReader(bad))
	if summary.Validate(v) == nil {
		t.Error("the schema accepts an unknown field")
	}
	b.Reset()
	jsonreport.WriteResult(&b, &r.Tests[reporttest.Passing])
	warned := b.String()
	for _, tc := range []struct{ name, old, new string }{
		{"severity", `"severity": "warning"`, `"severity": "minor"`},
		{"status", `"status": "warn"`, `"status": "warning"`},
		{"category", `"failure_categories": []`, `"failure_categories": ["style"]`},
		{"event ref", `"event_refs": [
        3
      ]`, `"event_refs": [0]`},
		{"no event refs", `,
      "event_refs": [
        3
      ]`, ``},
	} {
		if !strings.Contains(warned, tc.old) {
			t.Fatalf("%s: the result has no %s", tc.name, tc.old)
		}
		v, _ := jsonschema.UnmarshalJSON(strings.NewReader(strings.Replace(warned, tc.old, tc.new, 1)))
		if result.Validate(v) == nil {
			t.Errorf("the schema accepts a bad %s: %s", tc.name, tc.new)
		}
	}
}
