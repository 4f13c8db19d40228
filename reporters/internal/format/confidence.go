package format

import (
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/stability"
)

// Rate is a pass rate with its interval, "66.7%, 95% CI 21–94%", or the
// rate alone when it has none (a test run once).
func Rate(rate float64, ci *report.Interval) string {
	if ci == nil {
		return stability.FormatPercent(rate)
	}
	return stability.FormatPercent(rate) + ", " + ci.String()
}

// FailedIn says in how many of a repeated test's attempts an assertion
// failed, with the failure rate's interval when it has one: "failed in 1
// of 3 runs (95% CI 6–79%)". n is the count to say (a.FailedRuns, or at
// least 1 for an assertion that failed in the shown attempt).
func FailedIn(t *report.Test, a report.Assertion, n int) string {
	s := t.FailedIn(n)
	if ci := a.FailureRateCI; ci != nil {
		s += " (" + ci.String() + ")"
	}
	return s
}
