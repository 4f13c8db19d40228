package checks

import (
	"fmt"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
)

// inconclusiveFailed reports whether inconclusive tests (adaptive runs
// that reached their maximum unsettled, docs/runs.md) failed a run whose
// tests did not.
func inconclusiveFailed(r *report.Report) bool {
	t := r.Totals.Counted()
	return r.Status == status.Fail && t.Failed == 0 && r.FailOnInconclusive && t.Inconclusive() > 0
}

// inconclusiveTitle adds the inconclusive tests to the title: first when
// they failed the run, else counted after the flaky ones.
func inconclusiveTitle(r *report.Report, s string) string {
	n := r.Totals.Counted().Inconclusive()
	switch {
	case n == 0:
		return s
	case inconclusiveFailed(r):
		return plural.Count(n, "inconclusive test") + " failed the run (fail-on-inconclusive); " + s
	}
	return s + fmt.Sprintf(", %d inconclusive", n)
}
