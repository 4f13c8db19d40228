package format_test

import (
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/internal/format"
)

func TestRateAndFailedIn(t *testing.T) {
	ci := &report.Interval{Level: 95, Lo: 39.7, Hi: 89.2}
	if got, want := format.Rate(70, ci), "70%, 95% CI 40–89%"; got != want {
		t.Errorf("Rate %q; want %q", got, want)
	}
	if got, want := format.Rate(66.7, nil), "66.7%"; got != want {
		t.Errorf("Rate without an interval %q; want %q", got, want)
	}
	rt := &report.Test{Runs: 3, Attempts: make([]report.Attempt, 3)}
	a := report.Assertion{FailedRuns: 1, FailureRateCI: &report.Interval{Level: 95, Lo: 6.1, Hi: 79.2}}
	if got, want := format.FailedIn(rt, a, 1), "failed in 1 of 3 runs (95% CI 6–79%)"; got != want {
		t.Errorf("FailedIn %q; want %q", got, want)
	}
	a.FailureRateCI = nil
	if got, want := format.FailedIn(rt, a, 1), "failed in 1 of 3 runs"; got != want {
		t.Errorf("FailedIn without an interval %q; want %q", got, want)
	}
}
