package history

import (
	"math"
	"testing"
	"time"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/stats"
	"github.com/ananke/action/internal/status"
)

// TestBlame: each rule of the classification, on a history of 20 runs of
// main numbered #1 to #20.
func TestBlame(t *testing.T) {
	h := build(t, map[string]string{
		"flaky4":     "ppfpppfppppfpppppfpp", // fails 4 of 20, scattered
		"flakylast":  "ppfpppfpppppppppppff", // fails 4, the last two among them
		"steady":     repeat("p", 20),
		"broken":     repeat("p", 17) + "fff",  // failing since #18
		"brokenskip": repeat("p", 16) + "ffs.", // failing since #17; skipped, then absent
		"erroring":   repeat("p", 18) + "ef",   // an error is a failure
		"retried":    "ppPpppppppppppPppppp",   // passed, twice only on a retry
		"always":     repeat("f", 20),
		"newer":      repeat(".", 15) + "ppppp", // added at #16
		"flakyfail":  "ppFppppppppppppppppp",    // flaky and failed once, passing since
	})
	fail := func(id string) *report.Test { return &report.Test{ID: id, Status: status.Fail, Runs: 1} }
	for _, tc := range []struct {
		id            string
		test          *report.Test
		kind          Kind
		failed, of    int
		since, streak int // since: the run's number
		say           string
	}{
		{"flaky4", nil, KnownFlaky, 4, 20, 0, 0, "known flaky on main (fails 4 of the last 20)"},
		{"flakylast", nil, KnownFlaky, 4, 20, 19, 2, "known flaky on main (fails 4 of the last 20; failing since run #19)"},
		{"steady", nil, NewFailure, 0, 20, 0, 0, "new failure (passed the last 20 runs on main)"},
		{"broken", nil, AlreadyFailing, 3, 20, 18, 3, "already failing on main since run #18"},
		{"brokenskip", nil, AlreadyFailing, 2, 18, 17, 2, "already failing on main since run #17"},
		{"erroring", nil, AlreadyFailing, 2, 20, 19, 2, "already failing on main since run #19"},
		{"retried", nil, KnownFlaky, 0, 20, 0, 0, "known flaky on main (flaky in 2 of the last 20, never failed)"},
		{"always", nil, AlreadyFailing, 20, 20, 1, 20, "already failing on main since run #1"},
		{"newer", nil, NewFailure, 0, 5, 0, 0, "new failure (passed the last 5 runs on main)"},
		{"flakyfail", nil, KnownFlaky, 1, 20, 0, 0, "known flaky on main (fails 1 of the last 20)"},
		{"unknown", nil, NewFailure, 0, 0, 0, 0, "new failure (not run on main in its history)"},
		{"errored on the PR", &report.Test{ID: "steady", Status: status.Error, Runs: 1}, NewFailure, 0, 20, 0, 0, "new failure (passed the last 20 runs on main)"},
		{"passes on the PR", &report.Test{ID: "flaky4", Status: status.Pass, Runs: 1, PassedRuns: 1}, "", 4, 20, 0, 0, ""},
	} {
		t.Run(tc.id, func(t *testing.T) {
			test := tc.test
			if test == nil {
				test = fail(tc.id)
			}
			v := Blame(test, h)
			if v.Kind != tc.kind || v.Failed != tc.failed || v.Of != tc.of || v.Streak != tc.streak {
				t.Errorf("Blame = %q, failed %d of %d, streak %d; want kind %q, failed %d of %d, streak %d", v.Kind, v.Failed, v.Of, v.Streak, tc.kind, tc.failed, tc.of, tc.streak)
			}
			switch {
			case tc.since == 0 && v.Since != nil:
				t.Errorf("since = %s; want none", v.Since.Name())
			case tc.since != 0 && (v.Since == nil || v.Since.Number != int64(tc.since)):
				t.Errorf("since = %v; want run #%d", v.Since, tc.since)
			}
			if got := v.Say("main"); got != tc.say {
				t.Errorf("Say = %q; want %q", got, tc.say)
			}
		})
	}
}

// TestBlameFisher: the pull request's pass rate against main's, by
// Fisher's exact test: one failure against a flaky history is within
// noise, five in five is worse; a new failure of a test main passed 20
// times is significant at 0.05 even once.
func TestBlameFisher(t *testing.T) {
	h := build(t, map[string]string{
		"flaky4": "ppfpppfppppfpppppfpp",
		"steady": repeat("p", 20),
		"short":  repeat(".", 17) + "ppp",
	})
	for _, tc := range []struct {
		name         string
		test         report.Test
		p            float64
		worse, isNew bool
	}{
		{"flaky once", report.Test{ID: "flaky4", Status: status.Fail, Runs: 1}, 5.0 / 21, false, false},
		{"flaky 0 of 5", report.Test{ID: "flaky4", Status: status.Fail, Runs: 5}, 126.0 / 53130, true, true},
		{"flaky 3 of 5", report.Test{ID: "flaky4", Status: status.Fail, Runs: 5, PassedRuns: 3}, stats.FisherLess(16, 20, 3, 5), false, false},
		{"steady once", report.Test{ID: "steady", Status: status.Fail, Runs: 1}, 1.0 / 21, true, true},
		{"short once", report.Test{ID: "short", Status: status.Fail, Runs: 1}, 1.0 / 4, false, true},
		{"not in history", report.Test{ID: "nope", Status: status.Fail, Runs: 1}, 1, false, true},
		{"never ran", report.Test{ID: "steady", Status: status.Error}, 1, false, true},
	} {
		v := Blame(&tc.test, h)
		if math.Abs(v.P-tc.p) > 1e-12 || v.Worse(0.05) != tc.worse || v.New(0.05) != tc.isNew {
			t.Errorf("%s: p = %v, worse %v, new %v; want %v, %v, %v", tc.name, v.P, v.Worse(0.05), v.New(0.05), tc.p, tc.worse, tc.isNew)
		}
	}
	// A test already failing on main is never the pull request's, even
	// when it fails more often there.
	h = build(t, map[string]string{"broken": repeat("p", 17) + "fff"})
	v := Blame(&report.Test{ID: "broken", Status: status.Fail, Runs: 10}, h)
	if v.Kind != AlreadyFailing || !v.Worse(0.05) || v.New(0.05) {
		t.Errorf("broken: %s, worse %v, new %v; want already failing, worse, not new", v, v.Worse(0.05), v.New(0.05))
	}
	if v := Blame(&report.Test{ID: "x", Status: status.Fail, Runs: 1}, nil); v.Kind != NewFailure || v.Of != 0 || v.P != 1 {
		t.Errorf("no history: %s, of %d, p = %v; want a new failure, p = 1", v, v.Of, v.P)
	}
}

// TestBlameAll: of a pull request failing a test that fails 4 of main's
// last 20 runs and one that never does, the first is known flaky and does
// not count as new, the second is a new failure; a passing test is not
// blamed.
func TestBlameAll(t *testing.T) {
	h := build(t, map[string]string{"flaky": "ppfpppfppppfpppppfpp", "steady": repeat("p", 20), "fine": repeat("p", 20)})
	pr := reportOf(t0.Add(100*time.Hour), []string{"flaky", "steady", "fine"}, "ffp")
	got := BlameAll(pr, h)
	if len(got) != 2 || got[0].Test.ID != "flaky" || got[1].Test.ID != "steady" {
		t.Fatalf("blamed %d tests: %+v; want flaky and steady", len(got), got)
	}
	if v := got[0].Verdict; v.Say("main") != "known flaky on main (fails 4 of the last 20)" || v.New(0.05) {
		t.Errorf("flaky: %s, new %v; want known flaky (4/20), not new", v.Say("main"), v.New(0.05))
	}
	if v := got[1].Verdict; v.Kind != NewFailure || !v.New(0.05) {
		t.Errorf("steady: %s, new %v; want a new failure", v.Say("main"), v.New(0.05))
	}
}
