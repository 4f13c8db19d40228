package html

import (
	"fmt"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	stab "github.com/ananke/action/internal/stability"
)

// Adaptive runs (docs/runs.md) on the page, in the words the console uses:
// how many runs a test took of how many it could and why it stopped, and
// what stopping once settled saved the run.

// adaptiveText is a test's adaptive runs: "runs 3–30: settled after 24
// runs (6 fewer than the maximum)", "runs 2–3: inconclusive: not settled
// within the maximum of 3 runs; the verdict is the observed pass rate's";
// "" for a fixed number of runs.
func adaptiveText(t *report.Test) string {
	a := t.Adaptive
	if a == nil {
		return ""
	}
	runs := fmt.Sprintf("runs %d–%d: ", a.MinRuns, a.MaxRuns)
	switch a.StopReason {
	case stab.StopSettledPass, stab.StopSettledFail:
		return runs + fmt.Sprintf("settled after %s (%d fewer than the maximum)", plural.Count(t.Runs, "run"), a.RunsSaved)
	case stab.StopMaxRuns:
		return runs + fmt.Sprintf("inconclusive: not settled within the maximum of %s; the verdict is the observed pass rate's", plural.Count(a.MaxRuns, "run"))
	}
	return runs + "stopped (" + a.StopReason + ") after " + plural.Count(t.Runs, "run")
}

// adaptiveTotalsText is the run's line: "33 of at most 63 (adaptive runs
// of 2 tests; 30 saved)"; "" without adaptive runs.
func adaptiveTotalsText(r *report.Report) string {
	a := r.Totals.Adaptive
	if a == nil {
		return ""
	}
	return fmt.Sprintf("%d of at most %d (adaptive runs of %s; %d saved)", a.Runs, a.MaxRuns, plural.Count(a.Tests, "test"), a.RunsSaved)
}
