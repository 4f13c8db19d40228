package junit_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/suitetest"
)

// TestRunBudget: the run's budget is a suite of its own, a bound exceeded
// a failure — so a CI that reads only junit.xml sees why a run whose tests
// all passed failed — a bound not checked skipped, one kept a pass; the
// file stays valid.
func TestRunBudget(t *testing.T) {
	r := suitetest.Pick(suitetest.Smoke)
	r.Hooks = nil
	r.Status = status.Fail
	r.Budget = &report.RunBudget{Status: status.Fail, Exceeded: true, Limits: []report.BudgetLimit{
		{Name: report.BudgetTokens, Status: status.Fail, Message: "run budget exceeded: 2.1M total tokens > max_total_tokens 2M (ananke.config.yaml:9:3)"},
		{Name: report.BudgetCost, Status: status.Skip, Message: "run budget not checked: model m has no price (add it under pricing: in the config) — max_cost_usd $5.00 (ananke.config.yaml:8:3)"},
	}}
	out := render(t, r)
	validate(t, out)
	p := parse(t, out)
	checkCounts(t, p)
	last := p.Suites[len(p.Suites)-1]
	if !strings.HasSuffix(last.Name, "(run budget)") || len(last.Cases) != 2 {
		t.Fatalf("last suite = %q with %d cases, want the run budget's with 2", last.Name, len(last.Cases))
	}
	exceeded, unchecked := last.Cases[0], last.Cases[1]
	if exceeded.Name != "budget.max_total_tokens" || exceeded.Failure == nil || !strings.Contains(exceeded.Failure.Message, "2.1M total tokens > max_total_tokens 2M") {
		t.Errorf("exceeded bound = %+v, want a failure saying what was spent", exceeded)
	}
	if unchecked.Name != "budget.max_cost_usd" || unchecked.Skipped == nil || unchecked.Failure != nil {
		t.Errorf("bound not checked = %+v, want skipped", unchecked)
	}
	if p.Failures != 1 {
		t.Errorf("failures = %d, want 1 (the budget; every test passed)", p.Failures)
	}

	r.Budget = nil
	if p := parse(t, render(t, r)); strings.HasSuffix(p.Suites[len(p.Suites)-1].Name, "(run budget)") {
		t.Errorf("a run without a budget has a budget suite")
	}
}
