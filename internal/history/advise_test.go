package history

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
)

// TestAdvise: a test flaky in at least 20% of at least 10 judged runs is
// suggested for quarantine, with its evidence; a quarantined test that
// passed the last 10 judged runs steadily, and this run, for release; the
// others get nothing — too few runs, too few flakes, a failing streak
// without flakes, a quarantined test that wobbled lately or failed here.
func TestAdvise(t *testing.T) {
	h := build(t, map[string]string{
		"flaky4":   "ppfpppfppppfpppppfpp", // 4 flakes of 20: 20%
		"flaky3":   "ppfppppppfppppppfppp", // 15%
		"retries":  "pPpPpppPppppPpppppps", // flaky in 4 of 19 judged: 21%
		"short":    "..............pfpfpf", // 50% but 6 runs
		"broken":   "pppppppppppppppfffff", // failing, no flake
		"stable":   "ppfpppppppppp.pppppp", // quarantined, 15 steady passes since
		"wobbled":  "ppppppppppppppppPppp", // quarantined, flaky 4 runs ago
		"failhere": "pppppppppppppppppppp", // quarantined, failed in this run
		"gone":     "ppfppppppppppppppppp",
	})
	r := &report.Report{Tests: []report.Test{
		{ID: "flaky4", Name: "flaky four", Status: status.Pass},
		{ID: "flaky3", Status: status.Pass},
		{ID: "retries", Status: status.Fail},
		{ID: "short", Status: status.Pass},
		{ID: "broken", Status: status.Fail},
		{ID: "stable", Status: status.Pass, Quarantined: &report.Quarantined{Reason: "r"}},
		{ID: "wobbled", Status: status.Pass, Quarantined: &report.Quarantined{Reason: "r"}},
		{ID: "failhere", Status: status.Fail, Quarantined: &report.Quarantined{Reason: "r"}},
		{ID: "added", Status: status.Pass},
	}}
	got, err := Advise(r, h, "main", DefaultThresholds)
	if err != nil {
		t.Fatal(err)
	}
	want := []report.QuarantineAdvice{
		{Test: "flaky4", Action: report.AdviseQuarantine, Reason: "4 flakes in the last 20 runs on main: a flake rate of 20%, at or over the 20% threshold"},
		{Test: "retries", Action: report.AdviseQuarantine, Reason: "4 flakes in the last 19 runs on main: a flake rate of 21.1%, at or over the 20% threshold"},
		{Test: "stable", Action: report.AdviseRelease, Reason: "passed the last 16 runs on main, none flaky, and this run (10 in a row make it stable)"},
	}
	if len(got) != len(want) {
		t.Fatalf("advice %+v\nwant %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("advice %d = %+v\nwant %+v", i, got[i], want[i])
		}
	}
	if len(r.QuarantineAdvice) != len(want) || r.QuarantineAdvice[2] != want[2] {
		t.Errorf("the report's advice: %+v", r.QuarantineAdvice)
	}

	// Thresholds are the caller's: at 10% over 5 runs, flaky3 and short
	// qualify too; a release needs 20 steady runs, which stable lacks.
	r.QuarantineAdvice = nil
	got, _ = Advise(r, h, "main", Thresholds{FlakeRate: 0.1, MinRuns: 5, StableRuns: 20})
	var ids []string
	for _, a := range got {
		ids = append(ids, a.Test+":"+a.Action)
	}
	if strings.Join(ids, " ") != "flaky4:quarantine flaky3:quarantine retries:quarantine short:quarantine" {
		t.Errorf("at 10%% over 5 runs: %q", ids)
	}

	// No history, no advice.
	if got, err := Advise(&report.Report{Tests: r.Tests}, nil, "main", DefaultThresholds); got != nil || err != nil {
		t.Errorf("without a history: %+v, %v", got, err)
	}
}
