package markdown

import (
	"fmt"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
)

// Adaptive runs (docs/runs.md) in the summary: the heading counts the
// inconclusive tests and says when they failed the run, a line under the
// totals says what stopping once settled saved, and a test's runs say
// whether its verdict settled.

// inconclusiveFailed reports whether inconclusive tests failed a run
// whose tests did not.
func inconclusiveFailed(r *report.Report) bool {
	t := r.Totals.Counted()
	return r.Status == status.Fail && t.Failed == 0 && r.FailOnInconclusive && t.Inconclusive() > 0
}

// inconclusiveHeading adds the inconclusive tests to the heading's words:
// first when they failed the run, else counted after the flaky ones.
func inconclusiveHeading(r *report.Report, what string) string {
	n := r.Totals.Counted().Inconclusive()
	switch {
	case n == 0:
		return what
	case inconclusiveFailed(r):
		return plural.Count(n, "inconclusive test") + " failed the run (fail-on-inconclusive); " + what
	}
	return what + fmt.Sprintf(", %d inconclusive", n)
}

// adaptiveTotals is the line under the totals of a run with adaptive
// runs: "Adaptive runs: 33 of at most 63 runs (30 saved by stopping once
// settled), 1 inconclusive."; "" without.
func adaptiveTotals(r *report.Report) string {
	a := r.Totals.Adaptive
	if a == nil {
		return ""
	}
	s := fmt.Sprintf("Adaptive runs: %d of at most %d runs (%d saved by stopping once settled)", a.Runs, a.MaxRuns, a.RunsSaved)
	if a.Inconclusive > 0 {
		s += fmt.Sprintf(", %d inconclusive", a.Inconclusive)
	}
	return s + ".\n\n"
}

// adaptiveRuns is what a test's runs add for adaptive runs: ", settled" or
// ", ? inconclusive"; "" for fixed runs.
func adaptiveRuns(t *report.Test) string {
	switch {
	case t.Inconclusive:
		return ", " + status.InconclusiveMark + " inconclusive"
	case t.Adaptive != nil && (t.Adaptive.StopReason == stability.StopSettledPass || t.Adaptive.StopReason == stability.StopSettledFail):
		return ", settled"
	}
	return ""
}
