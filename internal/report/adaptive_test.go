package report_test

import (
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
)

// TestAdaptiveRuns: each adaptive test says its planned runs, why it
// stopped and what it saved; the totals add them up and count the
// inconclusive tests; a fixed test has none of it.
func TestAdaptiveRuns(t *testing.T) {
	r := reporttest.AdaptiveReport(false, reporttest.SettledPass, reporttest.SettledFail, reporttest.Inconclusive, reporttest.Fixed)
	rule := func(a report.AdaptiveRuns) report.AdaptiveRuns {
		a.Zone, a.Alpha, a.Beta = stability.DefaultZone, stability.DefaultAlpha, stability.DefaultBeta
		return a
	}
	for i, want := range []struct {
		status       status.Status
		runs         int
		adaptive     *report.AdaptiveRuns
		inconclusive bool
	}{
		{status.Pass, 24, &report.AdaptiveRuns{MinRuns: 3, MaxRuns: 30, StopReason: "settled_pass", RunsSaved: 6}, false},
		{status.Fail, 6, &report.AdaptiveRuns{MinRuns: 3, MaxRuns: 30, StopReason: "settled_fail", RunsSaved: 24}, false},
		{status.Pass, 3, &report.AdaptiveRuns{MinRuns: 2, MaxRuns: 3, StopReason: "max_runs"}, true},
		{status.Pass, 3, nil, false},
	} {
		got := r.Tests[i]
		if want.adaptive != nil {
			a := rule(*want.adaptive)
			want.adaptive = &a
		}
		if got.Status != want.status || got.Runs != want.runs || got.Inconclusive != want.inconclusive ||
			(got.Adaptive == nil) != (want.adaptive == nil) || got.Adaptive != nil && *got.Adaptive != *want.adaptive {
			t.Errorf("%s: %s, %d runs, adaptive %+v, inconclusive %v; want %s, %d, %+v, %v",
				got.ID, got.Status, got.Runs, got.Adaptive, got.Inconclusive, want.status, want.runs, want.adaptive, want.inconclusive)
		}
	}
	want := report.AdaptiveTotals{Tests: 3, Runs: 33, MaxRuns: 63, RunsSaved: 30, Inconclusive: 1}
	if a := r.Totals.Adaptive; a == nil || *a != want || r.Totals.Inconclusive() != 1 {
		t.Errorf("totals %+v, want %+v", a, want)
	}
	if fixed := reporttest.AdaptiveReport(false, reporttest.Fixed); fixed.Totals.Adaptive != nil || fixed.Totals.Inconclusive() != 0 {
		t.Errorf("a run of fixed runs has adaptive totals %+v", fixed.Totals.Adaptive)
	}
}

// TestFailOnInconclusive: an inconclusive test that passed fails the run
// only with fail-on-inconclusive (the flag or the config's field), and a
// merge keeps it.
func TestFailOnInconclusive(t *testing.T) {
	for _, tc := range []struct {
		flag, config bool
		want         status.Status
	}{{false, false, status.Pass}, {true, false, status.Fail}, {false, true, status.Fail}} {
		cfg := reporttest.Config()
		cfg.FailOnInconclusive = tc.config
		out := reporttest.AdaptiveOutcome()
		out.Tests = out.Tests[reporttest.Inconclusive : reporttest.Inconclusive+1]
		one := report.Build(out, report.Meta{Config: cfg, FailOnInconclusive: tc.flag})
		if one.Status != tc.want || one.FailOnInconclusive != (tc.flag || tc.config) {
			t.Errorf("flag %v, config %v: status %s, fail_on_inconclusive %v; want %s", tc.flag, tc.config, one.Status, one.FailOnInconclusive, tc.want)
		}
		m, err := report.Merge([]*report.Report{one, reporttest.AdaptiveReport(false, reporttest.Fixed)})
		if err != nil {
			t.Fatal(err)
		}
		if m.Status != tc.want || m.Totals.Inconclusive() != 1 {
			t.Errorf("merged: status %s, %d inconclusive; want %s, 1", m.Status, m.Totals.Inconclusive(), tc.want)
		}
	}
}
