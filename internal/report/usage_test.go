package report_test

import (
	"encoding/json"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
)

// TestUsage: a test's usage sums its attempts' (partial when one reported
// none), AttemptsUsage says the same from the engine's results, and the
// run's total leaves out the skipped test, which never ran, but counts the
// errored one, whose usage is unknown.
func TestUsage(t *testing.T) {
	out := reporttest.Outcome()
	rep := reporttest.Report()
	for i, want := range map[int]string{
		reporttest.Failing: "5k tokens · $0.0036",
		reporttest.Passing: "10.2k tokens · cost unknown",
		reporttest.Errored: "usage unknown",
		reporttest.Skipped: "usage unknown",
		reporttest.Wobbly:  "10.5k tokens · $0.0017",
		reporttest.Flips:   "≥ 4.5k tokens (1 of 3 unreported)",
	} {
		rt := &rep.Tests[i]
		if got := rt.Usage.Summary(); got != want {
			t.Errorf("%s: usage %q; want %q", rt.ID, got, want)
		}
		s, per := report.AttemptsUsage(out.Tests[i].Attempts)
		if a, b := js(t, s), js(t, rt.Usage); a != b {
			t.Errorf("%s: AttemptsUsage %s; Build %s", rt.ID, a, b)
		}
		if a, b := js(t, per), js(t, rt.PerAttempt); a != b {
			t.Errorf("%s: AttemptsUsage per attempt %s; Build %s", rt.ID, a, b)
		}
	}
	if p := rep.Tests[reporttest.Wobbly].PerAttempt; p == nil || p.Attempts != 3 || *p.MaxTokens != 4320 || *p.MeanTokens != 3490 || p.MaxCostUSD == nil {
		t.Errorf("the flaky test's usage per attempt is %s", js(t, p))
	}
	// Failing 2 turns, passing 1, flaky 3 runs, the other flaky 2 runs
	// that reported and a retry that did not, the errored test: 8 of 10.
	if u := rep.Totals.Usage; u == nil || u.Reported != 8 || u.Unreported != 2 {
		t.Errorf("totals' usage: %s", js(t, u))
	}
	if got, want := rep.Totals.Usage.Summary(), "≥ 30.3k tokens (2 of 10 unreported)"; got != want {
		t.Errorf("totals' usage %q; want %q", got, want)
	}
	if s, per := report.AttemptsUsage(nil); s != nil || per != nil {
		t.Errorf("no attempts used %v, %v; want nil", s, per)
	}
}

func js(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
