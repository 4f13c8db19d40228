package report

import (
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/stability"
)

// AdaptiveRuns is how a test's adaptive runs went (runs: {min, max};
// docs/runs.md): how many it could take and why it stopped. Its runs
// taken are the test's Runs.
type AdaptiveRuns struct {
	MinRuns int `json:"min_runs"`
	MaxRuns int `json:"max_runs"`
	// StopReason is why no more runs started: settled_pass or
	// settled_fail (the sequential test decided), max_runs (the maximum
	// reached unsettled: the test is inconclusive), cancelled.
	StopReason string `json:"stop_reason"`
	// RunsSaved is how many fewer runs than MaxRuns a settled verdict
	// took (0 unless settled).
	RunsSaved int `json:"runs_saved"`
	// Zone (percentage points around min_pass_rate), Alpha and Beta are
	// the stopping rule's parameters.
	Zone  float64 `json:"zone"`
	Alpha float64 `json:"alpha"`
	Beta  float64 `json:"beta"`
}

// AdaptiveTotals sums the run's adaptive runs: nil when no test ran
// adaptively.
type AdaptiveTotals struct {
	// Tests ran adaptively; they took Runs runs of at most MaxRuns, and
	// RunsSaved is what stopping once settled saved against MaxRuns.
	Tests     int `json:"tests"`
	Runs      int `json:"runs"`
	MaxRuns   int `json:"max_runs"`
	RunsSaved int `json:"runs_saved"`
	// Inconclusive counts the tests that reached their maximum unsettled.
	Inconclusive int `json:"inconclusive"`
}

// adaptiveRuns is a test's adaptive runs: nil for fixed runs, and for a
// test that never ran.
func adaptiveRuns(r *engine.TestResult) (*AdaptiveRuns, bool) {
	v, p := r.Verdict, r.Policy
	if !p.Adaptive() || v.Stop == "" {
		return nil, false
	}
	a := &AdaptiveRuns{MinRuns: p.MinRuns, MaxRuns: p.Runs, StopReason: v.Stop, Zone: p.Rule.Zone, Alpha: p.Rule.Alpha, Beta: p.Rule.Beta}
	if v.Stop == stability.StopSettledPass || v.Stop == stability.StopSettledFail {
		a.RunsSaved = max(p.Runs-v.Runs, 0)
	}
	return a, v.Inconclusive
}

// adaptiveTotals sums the tests' adaptive runs; nil when none ran
// adaptively.
func adaptiveTotals(tests []Test) *AdaptiveTotals {
	var t AdaptiveTotals
	for i := range tests {
		a := tests[i].Adaptive
		if a == nil {
			continue
		}
		t.Tests++
		t.Runs += tests[i].Runs
		t.MaxRuns += a.MaxRuns
		t.RunsSaved += a.RunsSaved
		if tests[i].Inconclusive {
			t.Inconclusive++
		}
	}
	if t.Tests == 0 {
		return nil
	}
	return &t
}

// Inconclusive counts the tests whose adaptive runs reached their maximum
// unsettled.
func (t Totals) Inconclusive() int {
	if t.Adaptive == nil {
		return 0
	}
	return t.Adaptive.Inconclusive
}
