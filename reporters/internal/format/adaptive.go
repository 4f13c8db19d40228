package format

import (
	"fmt"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/stability"
)

// Adaptive runs (docs/runs.md) in the words every reporter uses.

// AdaptiveRange is a test's range of runs, "runs 3–30: "; "" for fixed
// runs.
func AdaptiveRange(t *report.Test) string {
	if t.Adaptive == nil {
		return ""
	}
	return fmt.Sprintf("runs %d–%d: ", t.Adaptive.MinRuns, t.Adaptive.MaxRuns)
}

// AdaptiveSettled says how a settled test's runs went, "settled after 24
// runs (6 fewer than the maximum)"; "" unless its verdict settled.
func AdaptiveSettled(t *report.Test) string {
	a := t.Adaptive
	if a == nil || (a.StopReason != stability.StopSettledPass && a.StopReason != stability.StopSettledFail) {
		return ""
	}
	return fmt.Sprintf("settled after %s (%d fewer than the maximum)", plural.Count(t.Runs, "run"), a.RunsSaved)
}

// AdaptiveUnsettled says why an inconclusive test's verdict is its
// observed rate's, ": not settled within the maximum of 3 runs; the
// verdict is the observed pass rate's" (after the word inconclusive); ""
// unless its runs reached their maximum unsettled.
func AdaptiveUnsettled(t *report.Test) string {
	a := t.Adaptive
	if a == nil || a.StopReason != stability.StopMaxRuns {
		return ""
	}
	return fmt.Sprintf(": not settled within the maximum of %s; the verdict is the observed pass rate's", plural.Count(a.MaxRuns, "run"))
}

// AdaptiveTotals is what the run's adaptive runs took and saved, "33 of at
// most 63 (adaptive runs of 2 tests; 30 saved)"; "" without adaptive runs.
func AdaptiveTotals(r *report.Report) string {
	a := r.Totals.Adaptive
	if a == nil {
		return ""
	}
	return fmt.Sprintf("%d of at most %d (adaptive runs of %s; %d saved)", a.Runs, a.MaxRuns, plural.Count(a.Tests, "test"), a.RunsSaved)
}
