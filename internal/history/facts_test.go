package history

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/stats"
	"github.com/ananke/action/internal/status"
)

// TestFacts: the sequence, counts, pass rate and its interval, flakes,
// the failing streak and the trends of each kind of test.
func TestFacts(t *testing.T) {
	h := build(t, map[string]string{
		"flaky4":  "ppfpppfppppfpppppfpp",
		"broken":  repeat("p", 17) + "fff",
		"retried": "ppPpppppppppppFppppp", // flaky twice: once passing, once failing, then passed
		"streaky": "pffpfffppppppppppp.s", // two failing streaks that ended: two flakes
		"steady":  repeat("p", 20),
	})
	for _, tc := range []struct {
		id                            string
		judged, passed, failed, flaky int
		flakes                        int
		streak, since                 int
	}{
		{"flaky4", 20, 16, 4, 0, 4, 0, 0},
		{"broken", 20, 17, 3, 0, 0, 3, 18},
		{"retried", 20, 19, 1, 2, 2, 0, 0},
		{"streaky", 18, 13, 5, 0, 2, 0, 0},
		{"steady", 20, 20, 0, 0, 0, 0, 0},
	} {
		f, ok := h.FactsOf(tc.id, 0.95)
		if !ok {
			t.Fatalf("%s: no facts", tc.id)
		}
		if f.Judged != tc.judged || f.Passed != tc.passed || f.Failed != tc.failed || f.Flaky != tc.flaky || f.Flakes != tc.flakes || f.Streak != tc.streak {
			t.Errorf("%s: judged %d passed %d failed %d flaky %d flakes %d streak %d; want %d %d %d %d %d %d", tc.id,
				f.Judged, f.Passed, f.Failed, f.Flaky, f.Flakes, f.Streak, tc.judged, tc.passed, tc.failed, tc.flaky, tc.flakes, tc.streak)
		}
		if (f.Since == nil) != (tc.since == 0) || f.Since != nil && f.Since.Number != int64(tc.since) {
			t.Errorf("%s: since %v; want run #%d", tc.id, f.Since, tc.since)
		}
		if want := float64(tc.flakes) / float64(tc.judged); f.FlakeRate != want {
			t.Errorf("%s: flake rate %v; want %v", tc.id, f.FlakeRate, want)
		}
		if f.Sequence != h.Test(tc.id).seqString() {
			t.Errorf("%s: sequence %q", tc.id, f.Sequence)
		}
	}
	f, _ := h.FactsOf("flaky4", 0.95)
	if f.Runs != 20 || f.PassedRuns != 16 || f.PassRate != 0.8 || f.PassCI != stats.Wilson(16, 20, 0.95) {
		t.Errorf("flaky4: %d of %d runs passed, rate %v, CI %v; want 16 of 20, 0.8, Wilson's", f.PassedRuns, f.Runs, f.PassRate, f.PassCI)
	}
	if _, ok := h.FactsOf("nope", 0.95); ok {
		t.Error("facts of a test the history does not have")
	}
	if all := h.Facts(0.95); len(all) != 5 || all[0].Test.ID != h.Tests[0].ID {
		t.Errorf("Facts: %d, first %s", len(all), all[0].Test.ID)
	}
}

func (t *Test) seqString() string { return string(seq(t)) }

// TestFactsTrends: the median and last duration and the mean and last use
// per attempt, over the judged runs only; usage unknown in every run stays
// unknown, never 0.
func TestFactsTrends(t *testing.T) {
	h := &History{}
	durations := []int64{300, 100, 0, 200, 900} // the third run skips it
	tokens := []*float64{ptr(100), nil, nil, ptr(300), ptr(500)}
	for i, d := range durations {
		st := status.Pass
		if d == 0 {
			st = status.Skipped
		}
		test := report.Test{ID: "a", Status: st, Runs: 1, PassedRuns: 1, DurationMs: d, PerAttempt: &report.AttemptUsage{MeanTokens: tokens[i]}}
		h.Add(Run{ID: string(rune('a' + i))}, &report.Report{StartedAt: t0.Add(time.Duration(i) * time.Hour), Tests: []report.Test{test, {ID: "b", Status: status.Pass, Runs: 1, PassedRuns: 1}}})
	}
	f, _ := h.FactsOf("a", 0.95)
	if f.MedianMs != 250 || f.LastMs != 900 {
		t.Errorf("median %d, last %d; want 250 (of 100 200 300 900), 900", f.MedianMs, f.LastMs)
	}
	if f.MeanTokens == nil || *f.MeanTokens != 300 || f.LastTokens == nil || *f.LastTokens != 500 || f.MeanCostUSD != nil || f.LastCostUSD != nil {
		t.Errorf("tokens mean %v last %v, cost %v %v; want 300, 500, unknown", f.MeanTokens, f.LastTokens, f.MeanCostUSD, f.LastCostUSD)
	}
	if b, _ := h.FactsOf("b", 0.95); b.MeanTokens != nil || b.MedianMs != 0 {
		t.Errorf("b: tokens %v, median %d; want unknown, 0", b.MeanTokens, b.MedianMs)
	}
}

func ptr(f float64) *float64 { return &f }

// TestReadDir: a directory of downloaded reports is a history, its runs
// named by their directories and ordered by their start whatever the
// names; a directory without summary.json is passed over; a bad one is an
// error.
func TestReadDir(t *testing.T) {
	dir := t.TempDir()
	for name, r := range map[string]*report.Report{
		"ananke-report-9":  reportOf(t0.Add(2*time.Hour), []string{"a", "b"}, "pf"),
		"ananke-report-10": reportOf(t0.Add(3*time.Hour), []string{"a", "b"}, "ff"),
		"ananke-report-8":  reportOf(t0.Add(1*time.Hour), []string{"a", "b"}, "pp"),
	} {
		write(t, filepath.Join(dir, name, SummaryFile), r)
	}
	if err := os.MkdirAll(filepath.Join(dir, "other"), 0o755); err != nil {
		t.Fatal(err)
	}
	h, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Runs) != 3 || h.Runs[0].ID != "ananke-report-8" || h.Runs[2].Number != 10 || h.Runs[2].Status != status.Fail {
		t.Errorf("runs %+v; want #8, #9, #10, oldest first", h.Runs)
	}
	if got := h.Test("b").seqString(); got != "pff" {
		t.Errorf("b = %q; want pff", got)
	}
	if v := Blame(&report.Test{ID: "b", Status: status.Fail, Runs: 1}, h); v.Kind != AlreadyFailing || v.Since.Name() != "run #9" {
		t.Errorf("b: %s", v)
	}
	if err := os.WriteFile(filepath.Join(dir, "other", SummaryFile), []byte(`{"schema":"ananke.report/v0"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadDir(dir); err == nil || !strings.Contains(err.Error(), `other/summary.json: schema "ananke.report/v0"; want "ananke.report/v1"`) {
		t.Errorf("bad summary: %v", err)
	}
	if _, err := ReadDir(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no subdirectory of") {
		t.Errorf("empty directory: %v", err)
	}
	for name, want := range map[string]int64{"41": 41, "run-41": 41, "main": 0, "v2-x": 0, "": 0} {
		if got := trailingNumber(name); got != want {
			t.Errorf("trailingNumber(%q) = %d; want %d", name, got, want)
		}
	}
}
