package history

import (
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
)

// TestAttach: each test of a pull request's report gets its recent results
// and, when it failed, the history's verdict — the example: a test
// failing 4 of the last 20 is known flaky and does not count as new; one
// that never failed is a new failure that does; a test the history lacks
// is new, with a trend of runs it was not in.
func TestAttach(t *testing.T) {
	h := build(t, map[string]string{
		"flaky4": "ppfpppfppppfpppppfpp",
		"steady": repeat("p", 20),
		"passes": repeat("p", 20),
	})
	r := &report.Report{Tests: []report.Test{
		{ID: "flaky4", Status: status.Fail, Runs: 1},
		{ID: "steady", Status: status.Fail, Runs: 1},
		{ID: "passes", Status: status.Pass, Runs: 1, PassedRuns: 1},
		{ID: "added", Status: status.Fail, Runs: 1},
	}}
	Attach(r, h, "main", 0.05)
	if r.History == nil || r.History.Base != "main" || r.History.Runs != 20 || r.History.Alpha != 0.05 {
		t.Fatalf("report history = %+v", r.History)
	}
	for _, tc := range []struct {
		i                int
		blame, says, seq string
		isNew            bool
		failed, judged   int
	}{
		{0, "flaky", "known flaky on main (fails 4 of the last 20)", "ppfpppfppppfpppppfpp", false, 4, 20},
		{1, "new", "new failure (passed the last 20 runs on main)", repeat("p", 20), true, 0, 20},
		{2, "", "", repeat("p", 20), false, 0, 20},
		{3, "new", "new failure (not run on main in its history)", repeat(".", 20), true, 0, 0},
	} {
		th := r.Tests[tc.i].History
		if th == nil {
			t.Fatalf("%s: no history", r.Tests[tc.i].ID)
		}
		if th.Blame != tc.blame || th.Says != tc.says || th.New != tc.isNew || th.Sequence != tc.seq ||
			th.Failed != tc.failed || th.Judged != tc.judged || len(th.DurationsMs) != 20 {
			t.Errorf("%s: history = %+v", r.Tests[tc.i].ID, th)
		}
		if (th.P != nil) != (tc.blame != "") {
			t.Errorf("%s: p = %v, want one only for a failed test", r.Tests[tc.i].ID, th.P)
		}
	}

	r2 := &report.Report{Tests: []report.Test{{ID: "x", Status: status.Fail}}}
	Attach(r2, &History{}, "main", 0.05)
	if r2.History != nil || r2.Tests[0].History != nil {
		t.Errorf("an empty history attached something")
	}
}
