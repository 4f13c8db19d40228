package html

import (
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/internal/format"
)

// Adaptive runs (docs/runs.md) on the page, in the words the console uses
// (reporters/internal/format): how many runs a test took of how many it
// could and why it stopped, and what stopping once settled saved the run.

// adaptiveText is a test's adaptive runs: "runs 3–30: settled after 24
// runs (6 fewer than the maximum)", "runs 2–3: inconclusive: not settled
// within the maximum of 3 runs; the verdict is the observed pass rate's";
// "" for a fixed number of runs.
func adaptiveText(t *report.Test) string {
	if t.Adaptive == nil {
		return ""
	}
	runs := format.AdaptiveRange(t)
	if settled := format.AdaptiveSettled(t); settled != "" {
		return runs + settled
	}
	if why := format.AdaptiveUnsettled(t); why != "" {
		return runs + "inconclusive" + why
	}
	return runs + "stopped (" + t.Adaptive.StopReason + ") after " + plural.Count(t.Runs, "run")
}
