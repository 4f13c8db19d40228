package junit

import (
	"github.com/jstemmer/go-junit-report/v2/junit"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
)

// budgetSuite is the <testsuite> of the config's run budget (docs/cost.md),
// one <testcase> per bound ("budget.max_cost_usd"): a <failure
// type="budget"> for a bound the run exceeded — which fails a run whose
// tests all passed, and a CI that reads only this file (GitLab, Jenkins)
// must see it — and <skipped> for one that could not be checked. Like the
// hooks' suite it is named after the config. It reports false for a run
// without a budget.
func budgetSuite(r *report.Report) (testsuite, bool) {
	if r.Budget == nil || len(r.Budget.Limits) == 0 {
		return testsuite{}, false
	}
	file := clean(r.Config)
	if file == "" {
		file = "ananke.budget"
	}
	s := testsuite{Testsuite: junit.Testsuite{Name: file + " (run budget)", File: file}}
	if !r.StartedAt.IsZero() {
		s.SetTimestamp(r.StartedAt)
	}
	for _, l := range r.Budget.Limits {
		tc := testcase{Testcase: junit.Testcase{Name: "budget." + l.Name, Classname: file, Time: seconds(0)}}
		msg := clean(l.Message)
		switch l.Status {
		case status.Fail:
			tc.Failure = &junit.Result{Message: msg, Type: "budget", Data: msg + "\n"}
		case status.Skip:
			tc.Skipped = &junit.Result{Message: msg}
		default:
			tc.SystemOut = &junit.Output{Data: msg + "\n"}
		}
		s.add(tc)
	}
	return s, true
}
