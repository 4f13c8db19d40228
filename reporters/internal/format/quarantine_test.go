package format_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/internal/format"
)

// TestQuarantineCounts: what the quarantined tests did, in the words every
// output uses, saying they fail nothing only when one of them would have:
// a failure or error always, flakiness under fail-on-flaky, an
// inconclusive verdict under fail-on-inconclusive.
func TestQuarantineCounts(t *testing.T) {
	for _, tc := range []struct {
		q                  report.QuarantineTotals
		onFlaky, onUnclear bool
		want               string
	}{
		{report.QuarantineTotals{Tests: 3, Failed: 1, Errored: 1, Passed: 1}, false, false, "1 failed, 1 errored, not failing the run"},
		{report.QuarantineTotals{Tests: 1, Passed: 1, Flaky: 1}, false, false, "1 flaky"},
		{report.QuarantineTotals{Tests: 1, Passed: 1, Flaky: 1}, true, false, "1 flaky, not failing the run"},
		{report.QuarantineTotals{Tests: 1, Passed: 1, Inconclusive: 1}, false, true, "1 inconclusive, not failing the run"},
		{report.QuarantineTotals{Tests: 2, Passed: 2, Stable: 2}, false, false, "all passed"},
		{report.QuarantineTotals{Tests: 2, Passed: 1, Skipped: 1}, false, false, "1 passed, 1 skipped"},
		{report.QuarantineTotals{Tests: 1, Skipped: 1}, false, false, "none ran"},
	} {
		q := tc.q
		r := &report.Report{Totals: report.Totals{Quarantined: &q}, FailOnFlaky: tc.onFlaky, FailOnInconclusive: tc.onUnclear}
		if got := format.QuarantineCounts(r); got != tc.want {
			t.Errorf("%+v (fail-on-flaky %v, fail-on-inconclusive %v): %q, want %q", tc.q, tc.onFlaky, tc.onUnclear, got, tc.want)
		}
		if spared := format.QuarantineSpared(r); spared != strings.HasSuffix(tc.want, "not failing the run") {
			t.Errorf("%+v: spared %v", tc.q, spared)
		}
	}
}
