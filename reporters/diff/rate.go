package diff

import (
	"cmp"
	"slices"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/stats"
)

// DefaultSignificance is the significance level at which a lower pass
// rate is a regression rather than noise: a test whose agent did not
// change is called regressed at most 5% of the time.
const DefaultSignificance = 0.05

// Rates compares the pass rates of the tests run more than once in either
// run (docs/diff.md, "Pass rates"); single-run tests are judged by their
// status alone.
type Rates struct {
	// Significance is the level p-values are judged at: a p-value at or
	// below it is a regression.
	Significance float64
	// Compared counts the tests whose pass rates were compared: in both
	// runs, skipped in neither, run more than once in one of them.
	Compared int
	// Regressed are the compared tests whose pass rate is significantly
	// lower in the head, or one of whose assertions fails significantly
	// more often; WithinNoise those whose pass rate is lower, but not
	// significantly (and none of whose assertions regressed). Both keep
	// the head's order.
	Regressed   []RateEntry
	WithinNoise []RateEntry
}

// RateEntry is a compared test: its passing runs in both runs, and the
// assertions that fail more often in the head.
type RateEntry struct {
	Entry
	BasePassed, BaseRuns int
	HeadPassed, HeadRuns int
	// P is the one-sided p-value of Fisher's exact test that the head's
	// pass rate is lower than the base's; 1 when it is not lower.
	P float64
	// Checks are the assertions (matched by id) whose rate of failing
	// attempts rose, the smallest p-value first.
	Checks []CheckChange
}

// CheckChange is an assertion that failed in a larger share of its test's
// attempts in the head than in the base.
type CheckChange struct {
	ID     string
	Source report.Location
	// Failed of Attempts: the attempts (runs and retries) it failed in.
	BaseFailed, BaseAttempts int
	HeadFailed, HeadAttempts int
	// P is the one-sided p-value of Fisher's exact test that it fails
	// more often in the head.
	P float64
}

// Lower reports a pass rate lower in the head than in the base.
func (e RateEntry) Lower() bool { return e.HeadPassed*e.BaseRuns < e.BasePassed*e.HeadRuns }

// significant reports a p-value at or below the level alpha
// (stats.Significant).
func significant(p, alpha float64) bool { return stats.Significant(p, alpha) }

// RateRegressed reports that the test's pass rate itself, not only one of
// its assertions, is significantly lower at level alpha.
func (e RateEntry) RateRegressed(alpha float64) bool { return e.Lower() && significant(e.P, alpha) }

// add compares a test that ran in both runs, when one of them ran it more
// than once.
func (r *Rates) add(en Entry, b, h *report.Test) {
	if b.Runs <= 0 || h.Runs <= 0 || (b.Runs == 1 && h.Runs == 1) {
		return
	}
	r.Compared++
	e := RateEntry{Entry: en, P: 1,
		BasePassed: min(max(b.PassedRuns, 0), b.Runs), BaseRuns: b.Runs,
		HeadPassed: min(max(h.PassedRuns, 0), h.Runs), HeadRuns: h.Runs}
	if e.Lower() {
		e.P = stats.FisherLess(e.BasePassed, e.BaseRuns, e.HeadPassed, e.HeadRuns)
	}
	e.Checks = checkChanges(b, h)
	regressed := e.RateRegressed(r.Significance)
	for _, c := range e.Checks {
		regressed = regressed || significant(c.P, r.Significance)
	}
	switch {
	case regressed:
		r.Regressed = append(r.Regressed, e)
	case e.Lower():
		r.WithinNoise = append(r.WithinNoise, e)
	}
}

// checkChanges are the head's assertions, matched by id in the base, that
// failed in a larger share of the attempts, the smallest p-value first.
func checkChanges(b, h *report.Test) []CheckChange {
	n1, n2 := len(b.Attempts), len(h.Attempts)
	if n1 == 0 || n2 == 0 {
		return nil
	}
	inBase := map[string]int{}
	for _, a := range b.Assertions {
		if _, ok := inBase[a.ID]; !ok {
			inBase[a.ID] = min(max(a.FailedRuns, 0), n1)
		}
	}
	var out []CheckChange
	seen := map[string]bool{}
	for _, a := range h.Assertions {
		f1, ok := inBase[a.ID]
		if !ok || seen[a.ID] {
			continue
		}
		seen[a.ID] = true
		f2 := min(max(a.FailedRuns, 0), n2)
		if f2*n1 <= f1*n2 {
			continue
		}
		out = append(out, CheckChange{ID: a.ID, Source: a.Source,
			BaseFailed: f1, BaseAttempts: n1, HeadFailed: f2, HeadAttempts: n2,
			P: stats.FisherLess(n1-f1, n1, n2-f2, n2)})
	}
	slices.SortStableFunc(out, func(x, y CheckChange) int { return cmp.Compare(x.P, y.P) })
	return out
}
