package format_test

import (
	"testing"

	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/internal/format"
)

func TestUsage(t *testing.T) {
	r := reporttest.Report()
	if !format.ShowsUsage(r) {
		t.Error("the fixture's usage is not shown")
	}
	for i, want := range map[int][2]string{
		reporttest.Failing: {"5k tokens · $0.0036", "5k tokens · $0.0036"},
		reporttest.Passing: {"10.2k tokens · cost unknown", "10.2k tokens · cost unknown"},
		reporttest.Errored: {"usage unknown", "—"},
		reporttest.Wobbly:  {"10.5k tokens · $0.0017 (per run: mean 3.5k tokens · $0.00056, max 4.3k tokens · $0.0007)", "10.5k tokens · $0.0017"},
		// A retry made three attempts of two runs; one reported nothing.
		reporttest.Flips: {"≥ 4.5k tokens (1 of 3 unreported)", "≥ 4.5k tokens (1 of 3 unreported)"},
	} {
		tt := &r.Tests[i]
		if got := format.Usage(tt); got != want[0] {
			t.Errorf("%s: Usage %q; want %q", tt.ID, got, want[0])
		}
		if got := format.Cell(tt); got != want[1] {
			t.Errorf("%s: Cell %q; want %q", tt.ID, got, want[1])
		}
	}
	if n := format.Noun(&r.Tests[reporttest.Flips]); n != "attempt" {
		t.Errorf("a retried test's attempts are %q", n)
	}
	// Tokens known per attempt and the cost not: the cost is left out.
	per := *r.Tests[reporttest.Wobbly].PerAttempt
	per.MeanCostUSD = nil
	if got, want := format.PerAttempt(&per, "run"), "per run: mean 3.5k tokens, max 4.3k tokens"; got != want {
		t.Errorf("PerAttempt %q; want %q", got, want)
	}
	// The errored test reported nothing and the retried one not all:
	// the skipped one never ran.
	if got, want := format.Total(r), "≥ 30.3k tokens (usage unknown for 2 of 5 tests)"; got != want {
		t.Errorf("Total %q; want %q", got, want)
	}
	if got, want := format.Total(reporttest.Pick(false, reporttest.Failing, reporttest.Skipped)), "5k tokens · $0.0036"; got != want {
		t.Errorf("Total %q; want %q", got, want)
	}
	if format.ShowsUsage(reporttest.Pick(false, reporttest.Errored, reporttest.Skipped)) {
		t.Error("a run whose tests reported no usage shows it")
	}
}
