package jsonreport_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/suitetest"
	"github.com/ananke/action/reporters/jsonreport"
	"github.com/ananke/action/schema"
)

// compileSchema compiles the published schema: summary.json's, and a
// result file's.
func compileSchema(t *testing.T) (summary, result *jsonschema.Schema) {
	t.Helper()
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
	if summary, err = c.Compile(url); err != nil {
		t.Fatal(err)
	}
	if result, err = c.Compile(url + "#/$defs/test"); err != nil {
		t.Fatal(err)
	}
	return summary, result
}

// TestSuiteMatchesSchema: a run with suite hooks (one failed), tests from
// a dataset, attachments, a script assertion and an after hook that could
// not clean up (kind after_hook, status error) matches the schema too.
func TestSuiteMatchesSchema(t *testing.T) {
	summary, result := compileSchema(t)
	for _, r := range []*report.Report{suitetest.Report(), suitetest.BeforeAllFailed()} {
		var b bytes.Buffer
		if err := jsonreport.WriteSummary(&b, r); err != nil {
			t.Fatal(err)
		}
		v, _ := jsonschema.UnmarshalJSON(&b)
		if err := summary.Validate(v); err != nil {
			t.Errorf("summary.json does not match the schema: %v", err)
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
}

// TestSummaryMatchesSchema: summary.json and a result file validate against
// the published schema, whose objects are closed, so a field added to the
// model without the schema fails here — for a run whose agent reported
// usage (priced, unpriced, partial, per run) and for one whose agent
// reported none.
func TestSummaryMatchesSchema(t *testing.T) {
	summary, result := compileSchema(t)
	r := reporttest.Report()
	var b bytes.Buffer
	for _, rep := range []*report.Report{r, reporttest.ReportWithoutUsage()} {
		b.Reset()
		jsonreport.WriteSummary(&b, rep)
		if has := strings.Contains(b.String(), `"usage"`); has != (rep == r) {
			t.Errorf("summary.json has usage: %v; want %v", has, rep == r)
		}
		v, _ := jsonschema.UnmarshalJSON(&b)
		if err := summary.Validate(v); err != nil {
			t.Errorf("summary.json does not match the schema: %v", err)
		}
		for i := range rep.Tests {
			b.Reset()
			jsonreport.WriteResult(&b, &rep.Tests[i])
			v, _ := jsonschema.UnmarshalJSON(&b)
			if err := result.Validate(v); err != nil {
				t.Errorf("result of %s does not match the schema: %v", rep.Tests[i].ID, err)
			}
		}
	}
	// The schema must reject what it should: an unknown field, and values
	// outside the enums and ranges of severities, statuses, categories and
	// event references. Each edit is of the passing test's result, whose
	// warning assertion has them all.
	b.Reset()
	jsonreport.WriteSummary(&b, r)
	bad := bytes.Replace(b.Bytes(), []byte(`"parallel"`), []byte(`"extra": 1, "parallel"`), 1)
	v, _ := jsonschema.UnmarshalJSON(bytes.NewReader(bad))
	if summary.Validate(v) == nil {
		t.Error("the schema accepts an unknown field")
	}
	// Usage must be what it says: counts that are counts, a partial flag
	// that is only ever true, a known source of cost.
	b.Reset()
	jsonreport.WriteResult(&b, &r.Tests[reporttest.Flips])
	flips := b.String()
	for _, tc := range []struct{ name, old, new string }{
		{"token count", `"input_tokens": 2000`, `"input_tokens": -2000`},
		{"token field", `"input_tokens": 2000`, `"prompt_tokens": 2000`},
		{"partial", `"partial": true`, `"partial": false`},
		{"cost source", `"cost_from": "price"`, `"cost_from": "guess"`},
		{"no models", `"reported": 2,`, `"reported": 2, "nothing": 0,`},
	} {
		if !strings.Contains(flips, tc.old) {
			t.Fatalf("%s: the result has no %s", tc.name, tc.old)
		}
		v, _ := jsonschema.UnmarshalJSON(strings.NewReader(strings.Replace(flips, tc.old, tc.new, 1)))
		if result.Validate(v) == nil {
			t.Errorf("the schema accepts a bad %s: %s", tc.name, tc.new)
		}
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

// TestBudgetMatchesSchema: a run's budget and the judges' cost validate
// against the published schema.
func TestBudgetMatchesSchema(t *testing.T) {
	summary, result := compileSchema(t)
	r := reporttest.Report()
	usd := 0.21
	r.Totals.ModelCostUSD, r.Tests[0].ModelCostUSD = &usd, &usd
	r.Budget = &report.RunBudget{Status: status.Fail, Exceeded: true, Limits: []report.BudgetLimit{
		{Name: report.BudgetTokens, Limit: 2e6, Source: report.Location{File: "ananke.config.yaml", Line: 9, Col: 3}, Used: &usd, AtLeast: true,
			Status: status.Fail, Message: "run budget exceeded: …"},
		{Name: report.BudgetCost, Limit: 5, Source: report.Location{File: "ananke.config.yaml", Line: 8, Col: 3}, Status: status.Skip, Message: "run budget not checked: …"},
	}}
	var b bytes.Buffer
	if err := jsonreport.WriteSummary(&b, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"budget"`) || !strings.Contains(b.String(), `"model_cost_usd"`) {
		t.Fatalf("summary.json lacks the budget or the model cost:\n%s", b.String())
	}
	v, _ := jsonschema.UnmarshalJSON(&b)
	if err := summary.Validate(v); err != nil {
		t.Errorf("summary.json does not match the schema: %v", err)
	}
	b.Reset()
	if err := jsonreport.WriteResult(&b, &r.Tests[0]); err != nil {
		t.Fatal(err)
	}
	v, _ = jsonschema.UnmarshalJSON(&b)
	if err := result.Validate(v); err != nil {
		t.Errorf("a result file does not match the schema: %v", err)
	}
}

// TestHistoryMatchesSchema: a report read against the base branch's
// history (history.Attach) — its history, each test's runs there and the
// failing tests' verdicts — matches the schema, which rejects a verdict it
// does not know, a sequence character and an unknown field.
func TestHistoryMatchesSchema(t *testing.T) {
	summary, result := compileSchema(t)
	r := reporttest.HistoryReport()
	var b bytes.Buffer
	if err := jsonreport.WriteSummary(&b, r); err != nil {
		t.Fatal(err)
	}
	doc := b.String()
	for _, want := range []string{`"history": {`, `"base": "main"`, `"blame": "flaky"`, `"says": "known flaky on main (fails 4 of the last 20)"`, `"new": true`, `"sequence": "ppfpppfppppfpppppfpp"`} {
		if !strings.Contains(doc, want) {
			t.Errorf("summary.json lacks %s", want)
		}
	}
	v, _ := jsonschema.UnmarshalJSON(strings.NewReader(doc))
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
	for _, tc := range []struct{ name, old, new string }{
		{"verdict", `"blame": "flaky"`, `"blame": "maybe"`},
		{"sequence", `"sequence": "ppfpppfppppfpppppfpp"`, `"sequence": "ppxpppfppppfpppppfpp"`},
		{"field", `"base": "main"`, `"base": "main", "branch": "main"`},
		{"p", `"p": 0.`, `"p": 2.`},
	} {
		bad := strings.Replace(doc, tc.old, tc.new, 1)
		v, _ := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if bad == doc || summary.Validate(v) == nil {
			t.Errorf("%s: the schema accepts %s", tc.name, tc.new)
		}
	}
}
