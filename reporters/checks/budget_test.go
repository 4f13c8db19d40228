package checks_test

import (
	"reflect"
	"testing"

	"github.com/ananke/action/internal/github"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/checks"
	"github.com/ananke/action/reporters/internal/suitetest"
)

// TestBudgetAnnotations: a bound of the run's budget that was exceeded is a
// failure at its line in the config, one not checked a warning there, one
// kept nothing.
func TestBudgetAnnotations(t *testing.T) {
	r := suitetest.Pick(suitetest.Smoke)
	r.Hooks = nil
	at := func(line int) report.Location { return report.Location{File: "ananke.config.yaml", Line: line, Col: 3} }
	r.Budget = &report.RunBudget{Status: status.Fail, Exceeded: true, Limits: []report.BudgetLimit{
		{Name: report.BudgetTokens, Source: at(9), Status: status.Fail, Message: "run budget exceeded: 2.1M total tokens > max_total_tokens 2M (ananke.config.yaml:9:3)"},
		{Name: report.BudgetCost, Source: at(10), Status: status.Skip, Message: "run budget not checked: model m has no price (add it under pricing: in the config) — max_cost_usd $5.00 (ananke.config.yaml:10:3)"},
		{Name: report.BudgetCost, Source: at(11), Status: status.Pass, Message: "run budget kept"},
	}}
	var got []github.Annotation
	for _, a := range checks.Annotations(r) {
		if a.Path == "ananke.config.yaml" {
			got = append(got, a)
		}
	}
	want := []github.Annotation{
		{Path: "ananke.config.yaml", Line: 9, Level: github.LevelFailure, Title: "run budget exceeded: max_total_tokens", Message: r.Budget.Limits[0].Message},
		{Path: "ananke.config.yaml", Line: 10, Level: github.LevelWarning, Title: "run budget not checked: max_cost_usd", Message: r.Budget.Limits[1].Message},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("annotations in the config:\n%+v\nwant\n%+v", got, want)
	}
}
