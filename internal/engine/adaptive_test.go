package engine_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ananke/action/internal/agui/aguitest"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// TestAdaptiveRuns: adaptive runs stop as soon as the verdict is settled —
// an agent that always passes at 80% after the 24 passes the sequential
// test needs, one that always fails after 6 failures, or later when the
// minimum asks for more — and one unsettled at the maximum is
// inconclusive. Every run started is a request the agent saw.
func TestAdaptiveRuns(t *testing.T) {
	const passes = "turns: [{user: hi}]\n"
	for _, tc := range []struct {
		name     string
		test     string
		parallel int
		runs     int
		verdict  stability.Verdict
	}{
		{"settles a pass", "runs: {min: 3, max: 30}\nmin_pass_rate: 80\n" + passes, 1, 24,
			stability.Verdict{Status: status.Pass, Runs: 24, PassedRuns: 24, PassRate: 100, Stop: stability.StopSettledPass}},
		{"settles a failure", "runs: {min: 3, max: 30}\nmin_pass_rate: 80\n" + requireSearch, 1, 6,
			stability.Verdict{Status: status.Fail, Runs: 6, Stop: stability.StopSettledFail,
				Reason: "0 of 6 runs passed (0%), below min_pass_rate 80%"}},
		{"not before the minimum", "runs: {min: 10, max: 30}\nmin_pass_rate: 80\n" + requireSearch, 1, 10,
			stability.Verdict{Status: status.Fail, Runs: 10, Stop: stability.StopSettledFail,
				Reason: "0 of 10 runs passed (0%), below min_pass_rate 80%"}},
		{"inconclusive at the maximum", "runs: {min: 2, max: 3}\nmin_pass_rate: 95\n" + passes, 1, 3,
			stability.Verdict{Status: status.Pass, Runs: 3, PassedRuns: 3, PassRate: 100, Stop: stability.StopMaxRuns, Inconclusive: true}},
		// Four workers: when the 24th pass settles the verdict three more
		// runs are in flight; they are counted, and no fifth starts.
		{"runs in flight are counted", "runs: {min: 3, max: 30}\nmin_pass_rate: 80\n" + passes, 4, 27,
			stability.Verdict{Status: status.Pass, Runs: 27, PassedRuns: 27, PassRate: 100, Stop: stability.StopSettledPass}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := aguitest.New(t, textAgent)
			s := suite(t, srv.Endpoint(), "", map[string]string{"adaptive": tc.test})
			r := one(t, run(t, s, func(o *engine.Options) { o.Parallel = tc.parallel }))
			if r.Status != tc.verdict.Status || r.Verdict != tc.verdict || r.Reason != tc.verdict.Reason {
				t.Fatalf("status %s, verdict %+v, reason %q; want %+v", r.Status, r.Verdict, r.Reason, tc.verdict)
			}
			if len(r.Attempts) != tc.runs || len(srv.Requests()) != tc.runs {
				t.Errorf("%d attempts, %d requests; want %d", len(r.Attempts), len(srv.Requests()), tc.runs)
			}
		})
	}
}

// TestAdaptiveRunsWithFixedOnTheCommandLine: --runs N over a config's
// adaptive runs runs exactly N times, judged as before.
func TestAdaptiveRunsWithFixedOnTheCommandLine(t *testing.T) {
	srv := aguitest.New(t, textAgent)
	s := suite(t, srv.Endpoint(), "runs: {min: 1, max: 30}\n", map[string]string{"fixed": "turns: [{user: hi}]\n"})
	r := one(t, run(t, s, func(o *engine.Options) { o.Stability = spec.Stability{Runs: 2} }))
	if r.Verdict != (stability.Verdict{Status: status.Pass, Runs: 2, PassedRuns: 2, PassRate: 100}) || r.Policy.Adaptive() {
		t.Errorf("verdict %+v, policy %+v", r.Verdict, r.Policy)
	}
}

// TestAdaptiveRunsUnsettledByRunsInFlight: a verdict settled while a run
// is in flight holds new runs back; when that run's result unsettles it,
// runs start again until it settles anew. With a zone of 40 points around
// 50% (narrowed to 25% against 75%), three net passes settle. Attempts
// finish in the order their virtual durations give (a synctest bubble):
// runs 0, 2 and 3 pass at 1s, 2s and 3s — settled, run 1 still in flight —
// run 1 fails at 10s, unsettling it, and runs 4 and 5 pass at 11s. No
// seventh run starts.
func TestAdaptiveRunsUnsettledByRunsInFlight(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := suite(t, "http://127.0.0.1:1/a", "", map[string]string{"wobbly": "runs: {min: 1, max: 10}\nmin_pass_rate: 50\nadaptive: {zone: 40}\nturns: [{user: hi}]\n"})
		script := map[int]struct {
			st   status.Status
			took time.Duration
		}{0: {status.Pass, time.Second}, 1: {status.Fail, 10 * time.Second}, 2: {status.Pass, time.Second}, 3: {status.Pass, time.Second},
			4: {status.Pass, time.Second}, 5: {status.Pass, time.Second}}
		var mu sync.Mutex
		var started []int
		now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		r := one(t, engine.Schedule(engine.Options{Suite: s, Parallel: 2, Now: func() time.Time { return now }},
			func(_ context.Context, _ *spec.Test, run, retry int) *engine.Attempt {
				mu.Lock()
				started = append(started, run)
				mu.Unlock()
				step, ok := script[run]
				if !ok {
					t.Errorf("run %d started; the verdict was settled", run)
					step.st = status.Error
				}
				time.Sleep(step.took)
				return &engine.Attempt{Run: run, Retry: retry, Status: step.st, Trace: &trace.Trace{}}
			}))
		want := stability.Verdict{Status: status.Pass, Runs: 6, PassedRuns: 5, PassRate: 83.3, Flaky: true, Stop: stability.StopSettledPass}
		if r.Verdict != want {
			t.Errorf("verdict %+v, want %+v", r.Verdict, want)
		}
		slices.Sort(started)
		if !slices.Equal(started, []int{0, 1, 2, 3, 4, 5}) {
			t.Errorf("runs started %v, want 0 to 5", started)
		}
	})
}
