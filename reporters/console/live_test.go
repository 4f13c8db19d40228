package console_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/vars"
	"github.com/ananke/action/reporters/console"
)

// chunks records each Write separately: the progress line must be erased
// and redrawn in one write, or a terminal shows it half done.
type chunks struct{ got []string }

func (c *chunks) Write(b []byte) (int, error) {
	c.got = append(c.got, string(b))
	return len(b), nil
}

var start = time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)

func newTest(name string) *spec.Test { return &spec.Test{Name: vars.Name{Value: name}} }

// finished is a test's result after n attempts taking ms milliseconds.
func finished(t *spec.Test, status status.Status, ms int, v stability.Verdict, n int) *engine.TestResult {
	r := &engine.TestResult{Test: t, Status: status, Verdict: v, Start: start, End: start.Add(time.Duration(ms) * time.Millisecond)}
	for i := range n {
		r.Attempts = append(r.Attempts, &engine.Attempt{Run: i, Status: status})
	}
	return r
}

// withResults gives the attempt reports show (the last, for these
// results) the statuses of its assertions.
func withResults(r *engine.TestResult, statuses ...status.Status) *engine.TestResult {
	a := r.Attempts[len(r.Attempts)-1]
	for _, s := range statuses {
		a.Results = append(a.Results, assertion.Result{Status: s})
	}
	return r
}

func TestLiveLine(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    *engine.TestResult
		want string
	}{
		{"once", finished(newTest("weather"), status.Pass, 420, stability.Verdict{Runs: 1, PassedRuns: 1, PassRate: 100}, 1),
			"✓ weather (420ms)\n"},
		{"flaky pass", finished(newTest("search"), status.Pass, 1300, stability.Verdict{Runs: 3, PassedRuns: 2, PassRate: 66.7, Flaky: true}, 3),
			"✓ search (1.3s) · 2/3 runs (66.7%, 95% CI 21–94%) · flaky\n"},
		{"steady fail", finished(newTest("search"), status.Fail, 900, stability.Verdict{Runs: 3, PassRate: 0}, 3),
			"✗ search (900ms) · 0/3 runs (0%, 95% CI 0–56%)\n"},
		{"one run, retried", finished(newTest("flip"), status.Pass, 800, stability.Verdict{Runs: 1, PassedRuns: 1, PassRate: 100, Flaky: true}, 2),
			"✓ flip (800ms) · 1/1 run (100%, 95% CI 21–100%) · flaky\n"},
		// A warning that failed is counted on the line; it leaves the ✓.
		{"warned", withResults(finished(newTest("weather"), status.Pass, 420, stability.Verdict{Runs: 1, PassedRuns: 1, PassRate: 100}, 1),
			status.Pass, status.Warn), "✓ weather (420ms) · 1 warning\n"},
		{"failed and warned", withResults(finished(newTest("checkout"), status.Fail, 900, stability.Verdict{Runs: 1}, 1),
			status.Fail, status.Warn, status.Warn, status.Skip), "✗ checkout (900ms) · 2 warnings\n"},
		{"skipped, never run", &engine.TestResult{Test: newTest("legacy"), Status: status.Skipped, Reason: "later",
			Policy: stability.Policy{Runs: 3, MinPassRate: 100}, Start: start, End: start}, "- legacy (0ms) skipped: later\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			console.NewLive(&b, console.Options{}).TestFinished(tc.r)
			if got := b.String(); got != tc.want {
				t.Errorf("TestFinished printed %q; want %q", got, tc.want)
			}
		})
	}
}

// TestLiveLineConfidence: the line's interval is at the run's level, as
// the report's will be.
func TestLiveLineConfidence(t *testing.T) {
	var b strings.Builder
	r := finished(newTest("search"), status.Fail, 900, stability.Verdict{Runs: 10, PassedRuns: 7, PassRate: 70}, 10)
	console.NewLive(&b, console.Options{Confidence: 90}).TestFinished(r)
	if got, want := b.String(), "✗ search (900ms) · 7/10 runs (70%, 90% CI 44–87%)\n"; got != want {
		t.Errorf("TestFinished printed %q; want %q", got, want)
	}
}

func TestLiveFlakyColor(t *testing.T) {
	var b strings.Builder
	r := finished(newTest("search"), status.Pass, 1300, stability.Verdict{Runs: 3, PassedRuns: 2, PassRate: 66.7, Flaky: true}, 3)
	console.NewLive(&b, console.Options{Color: true}).TestFinished(r)
	if want := "\x1b[33mflaky\x1b[0m\n"; !strings.HasSuffix(b.String(), want) {
		t.Errorf("TestFinished printed %q; want it to end with %q", b.String(), want)
	}
}

func TestLiveProgress(t *testing.T) {
	a, b, c := newTest("a"), newTest("b"), newTest("c")
	var w chunks
	l := console.NewLive(&w, console.Options{Progress: true, Total: 3})
	l.TestStarted(a)
	l.TestStarted(b)
	l.TestFinished(finished(a, status.Pass, 420, stability.Verdict{Runs: 1, PassedRuns: 1, PassRate: 100}, 1))
	// c is skipped without starting: it is done but was never running.
	l.TestFinished(&engine.TestResult{Test: c, Status: status.Skipped, Reason: "later", Start: start, End: start})
	l.TestFinished(finished(b, status.Fail, 35, stability.Verdict{Runs: 1}, 1))
	l.Close()
	l.Close()
	want := []string{
		"[0/3 done, 1 running]",
		"\r\x1b[K[0/3 done, 2 running]",
		"\r\x1b[K✓ a (420ms)\n[1/3 done, 1 running]",
		"\r\x1b[K- c (0ms) skipped: later\n[2/3 done, 1 running]",
		"\r\x1b[K✗ b (35ms)\n[3/3 done, 0 running]",
		"\r\x1b[K", // Close erases the line once
	}
	if strings.Join(w.got, "|") != strings.Join(want, "|") {
		t.Errorf("writes:\n%q\nwant:\n%q", w.got, want)
	}

	// After Close, a late line is printed without a progress line.
	w.got = nil
	l.TestFinished(finished(newTest("d"), status.Pass, 1, stability.Verdict{Runs: 1, PassedRuns: 1}, 1))
	if want := []string{"✓ d (1ms)\n"}; strings.Join(w.got, "|") != strings.Join(want, "|") {
		t.Errorf("after Close, writes %q; want %q", w.got, want)
	}
}

func TestLiveProgressUnknownTotal(t *testing.T) {
	var b strings.Builder
	console.NewLive(&b, console.Options{Progress: true, Color: true}).TestStarted(newTest("a"))
	if want := "\x1b[2m[0 done, 1 running]\x1b[0m"; b.String() != want {
		t.Errorf("TestStarted printed %q; want %q", b.String(), want)
	}
}

func TestLiveWithoutProgress(t *testing.T) {
	a := newTest("a")
	var w chunks
	l := console.NewLive(&w, console.Options{Total: 1})
	l.TestStarted(a)
	l.TestFinished(finished(a, status.Pass, 420, stability.Verdict{Runs: 1, PassedRuns: 1, PassRate: 100}, 1))
	l.Close()
	if want := []string{"✓ a (420ms)\n"}; strings.Join(w.got, "|") != strings.Join(want, "|") {
		t.Errorf("writes %q; want only the test's line %q", w.got, want)
	}
}

// TestLiveConcurrent runs under -race: Live is safe even if its calls are
// not serialized.
func TestLiveConcurrent(t *testing.T) {
	var w chunks
	l := console.NewLive(&w, console.Options{Progress: true, Total: 20})
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tt := newTest(strings.Repeat("x", i+1))
			l.TestStarted(tt)
			l.TestFinished(finished(tt, status.Pass, 1, stability.Verdict{Runs: 1, PassedRuns: 1}, 1))
		}()
	}
	wg.Wait()
	l.Close()
	if last := w.got[len(w.got)-2]; !strings.HasSuffix(last, "[20/20 done, 0 running]") {
		t.Errorf("last progress line in %q; want [20/20 done, 0 running]", last)
	}
}
