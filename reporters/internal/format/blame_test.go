package format_test

import (
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/format"
)

func TestTrend(t *testing.T) {
	if got, want := format.Trend("pPfFeEs.x"), "✓~✗✗!!-··"; got != want {
		t.Errorf("Trend = %q, want %q", got, want)
	}
}

// TestBlame: the verdict in words; a known-flaky test's p-value, within
// noise or counting as new; nothing without a verdict.
func TestBlame(t *testing.T) {
	h := &report.History{Base: "main", Runs: 20, Alpha: 0.05}
	p := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		th   *report.TestHistory
		want string
	}{
		{nil, ""},
		{&report.TestHistory{Sequence: "pp"}, ""},
		{&report.TestHistory{Blame: "new", New: true, Says: "new failure (passed the last 20 runs on main)", P: p(0.048)}, "new failure (passed the last 20 runs on main)"},
		{&report.TestHistory{Blame: "failing", Says: "already failing on main since run #39", P: p(1)}, "already failing on main since run #39"},
		{&report.TestHistory{Blame: "flaky", Says: "known flaky on main (fails 4 of the last 20)", P: p(0.2381)},
			"known flaky on main (fails 4 of the last 20); p = 0.24, within noise"},
		{&report.TestHistory{Blame: "flaky", New: true, Says: "known flaky on main (fails 4 of the last 20)", P: p(0.0504 - 0.0005)},
			"known flaky on main (fails 4 of the last 20); fails more often here (p = 0.05 at significance 0.05): counts as new"},
	} {
		if got := format.Blame(h, tc.th); got != tc.want {
			t.Errorf("Blame(%+v) = %q, want %q", tc.th, got, tc.want)
		}
	}
}

// TestBlameCounts: the failing tests not quarantined, by verdict; a
// known-flaky test that counts as new is new, one without a history too.
func TestBlameCounts(t *testing.T) {
	r := &report.Report{History: &report.History{Base: "main", Runs: 20}, Tests: []report.Test{
		{Status: status.Fail, History: &report.TestHistory{Blame: "new", New: true}},
		{Status: status.Fail, History: &report.TestHistory{Blame: "flaky", New: true}},
		{Status: status.Error},
		{Status: status.Fail, History: &report.TestHistory{Blame: "flaky"}},
		{Status: status.Error, History: &report.TestHistory{Blame: "failing"}},
		{Status: status.Fail, History: &report.TestHistory{Blame: "failing"}, Quarantined: &report.Quarantined{}},
		{Status: status.Pass, History: &report.TestHistory{}},
	}}
	if got, want := format.BlameCounts(r), "3 new failures, 1 known flaky on main, 1 already failing on main"; got != want {
		t.Errorf("BlameCounts = %q, want %q", got, want)
	}
	r.History = nil
	if got := format.BlameCounts(r); got != "" {
		t.Errorf("without a history: %q", got)
	}
}
