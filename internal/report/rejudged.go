package report

import (
	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/trace"
)

// AssertionOf is a result as Build shows it in a report, masked by red,
// over the attempt's trace tr: for a check made again over a report's
// stored trace (ananke rejudge, docs/judges.md). Its source file is the
// result's as given; the caller keeps the original's.
func AssertionOf(a assertion.Result, tr *trace.Trace, red *Redactor) Assertion {
	if tr == nil {
		tr = &trace.Trace{}
	}
	return (&builder{red: red}).assertion(a, tr)
}

// Recount derives again what the report derives from its tests once their
// statuses changed (ananke rejudge): each test's intervals, the totals,
// the budget's verdict and the run's status, the attacks' gate folded in
// as SetAttacks folds it.
func (r *Report) Recount() {
	setConfidence(r.Tests, r.Confidence)
	r.Totals = totals(r.Tests)
	var limits []BudgetLimit
	if r.Budget != nil {
		limits = r.Budget.Limits
	}
	r.Budget = checkBudget(limits, r.Tests, r.Totals.Usage)
	r.Status = r.withAttacks(runStatus(r.Totals, r.FailOnFlaky, r.FailOnInconclusive, len(r.FailedHooks()) > 0, r.Budget.exceeded()))
}
