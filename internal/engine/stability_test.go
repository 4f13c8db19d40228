package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ananke/action/internal/agui/aguitest"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/target/registry"
)

// alternating calls the search tool on every other request, starting with
// the first: a test requiring the call passes every other run.
func alternating() aguitest.Handler {
	var n atomic.Int64
	return func(r *aguitest.Request) aguitest.Response {
		if n.Add(1)%2 == 1 {
			return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Seq(
				aguitest.Call("c-"+r.Input.RunID, "search", `{"q":"x"}`, `{"hits":1}`), aguitest.Text("t-"+r.Input.RunID, "found"))...)}
		}
		return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Text("t-"+r.Input.RunID, "no idea")...)}
	}
}

const requireSearch = "turns:\n  - user: find\n    assert: {tools: {require: [{name: search}]}}\n"

func rate(v float64) *float64 { return &v }

func TestRepeatedRuns(t *testing.T) {
	for _, tc := range []struct {
		name    string
		test    string
		cli     spec.Stability
		config  string
		status  status.Status
		verdict stability.Verdict
	}{
		{"runs in the test file", "runs: 4\n", spec.Stability{}, "", status.Fail,
			stability.Verdict{Status: status.Fail, Runs: 4, PassedRuns: 2, PassRate: 50, Flaky: true, Reason: "2 of 4 runs passed (50%), below min_pass_rate 100%"}},
		{"min_pass_rate on the command line", "runs: 4\n", spec.Stability{MinPassRate: rate(50)}, "", status.Pass,
			stability.Verdict{Status: status.Pass, Runs: 4, PassedRuns: 2, PassRate: 50, Flaky: true}},
		{"config runs, test rate", "min_pass_rate: 50\n", spec.Stability{}, "runs: 4\nmin_pass_rate: 100\n", status.Pass,
			stability.Verdict{Status: status.Pass, Runs: 4, PassedRuns: 2, PassRate: 50, Flaky: true}},
		{"the test's runs win over the command line's", "runs: 2\n", spec.Stability{Runs: 6}, "", status.Fail,
			stability.Verdict{Status: status.Fail, Runs: 2, PassedRuns: 1, PassRate: 50, Flaky: true, Reason: "1 of 2 runs passed (50%), below min_pass_rate 100%"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := aguitest.New(t, alternating())
			s := suite(t, srv.Endpoint(), "", map[string]string{"flip": tc.test + requireSearch})
			s.Config.Stability = loadConfigStability(t, tc.config)
			r := one(t, run(t, s, func(o *engine.Options) { o.Stability = tc.cli }))
			if r.Status != tc.status || r.Verdict != tc.verdict || r.Reason != tc.verdict.Reason {
				t.Fatalf("status %s, verdict %+v, reason %q; want %s, %+v", r.Status, r.Verdict, r.Reason, tc.status, tc.verdict)
			}
			if len(r.Attempts) != tc.verdict.Runs {
				t.Fatalf("%d attempts, want %d", len(r.Attempts), tc.verdict.Runs)
			}
			threads := map[string]bool{}
			for i, a := range r.Attempts {
				if a.Run != i || a.Retry != 0 {
					t.Errorf("attempt %d is run %d retry %d", i, a.Run, a.Retry)
				}
				want := status.Pass
				if i%2 == 1 {
					want = status.Fail
				}
				if a.Status != want {
					t.Errorf("attempt %d: %s, want %s", i, a.Status, want)
				}
			}
			for _, req := range srv.Requests() {
				threads[req.Input.ThreadID] = true
			}
			if len(threads) != tc.verdict.Runs {
				t.Errorf("%d threads for %d runs; every run needs its own", len(threads), tc.verdict.Runs)
			}
			if shown := r.Shown(); (tc.status == status.Fail) != (shown.Status == status.Fail) {
				t.Errorf("shown attempt %s for a %s test", shown.Status, tc.status)
			}
		})
	}
}

// loadConfigStability reads the stability fields of a config snippet.
func loadConfigStability(t *testing.T, extra string) spec.Stability {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "ananke.config.yaml")
	cfg := "version: \"1.0\"\n" + extra + "target: {type: agui, endpoint: \"http://127.0.0.1:1/a\", agentId: a}\n"
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	var diags diag.Diagnostics
	c := spec.LoadConfig(path, &diags)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	return c.Stability
}

// failsFirst answers the first request without the search call and every
// later one with it.
func failsFirst() aguitest.Handler {
	var n atomic.Int64
	return func(r *aguitest.Request) aguitest.Response {
		if n.Add(1) == 1 {
			return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Text("t-"+r.Input.RunID, "no idea")...)}
		}
		return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Call("c-"+r.Input.RunID, "search", `{}`, `{}`)...)}
	}
}

func TestRetries(t *testing.T) {
	srv := aguitest.New(t, failsFirst())
	hookRuns := filepath.Join(t.TempDir(), "hook-runs")
	s := suite(t, srv.Endpoint(), "", map[string]string{"retry": "retries: 2\nhooks: [{cmd: [sh, -c, 'echo x >> " + hookRuns + "; echo {}']}]\n" + requireSearch})
	r := one(t, run(t, s))
	if r.Status != status.Pass || !r.Verdict.Flaky || len(r.Attempts) != 2 {
		t.Fatalf("status %s, verdict %+v, %d attempts; want a flaky pass after one retry", r.Status, r.Verdict, len(r.Attempts))
	}
	if a := r.Attempts; a[0].Status != status.Fail || a[0].Retry != 0 || a[1].Status != status.Pass || a[1].Retry != 1 || a[1].Run != 0 {
		t.Errorf("attempts %+v %+v", *a[0], *a[1])
	}
	if r.Shown() != r.Attempts[1] {
		t.Error("the shown attempt of a pass is not the passing retry")
	}
	if b, _ := os.ReadFile(hookRuns); strings.Count(string(b), "x") != 2 {
		t.Errorf("hooks ran %d times; every attempt runs them", strings.Count(string(b), "x"))
	}
}

func TestRetriesExhausted(t *testing.T) {
	srv := aguitest.New(t, textAgent)
	s := suite(t, srv.Endpoint(), "", map[string]string{"never": "retries: 2\n" + requireSearch})
	r := one(t, run(t, s))
	if r.Status != status.Fail || r.Verdict.Flaky || len(r.Attempts) != 3 || r.Reason != "" {
		t.Fatalf("status %s, verdict %+v, %d attempts, reason %q; want a plain fail after 3 attempts", r.Status, r.Verdict, len(r.Attempts), r.Reason)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
}

func TestEveryRunErrored(t *testing.T) {
	srv := aguitest.New(t, func(*aguitest.Request) aguitest.Response { return aguitest.Response{Status: 503} })
	s := suite(t, srv.Endpoint(), "", map[string]string{"down": "runs: 2\nretries: 1\n" + requireSearch})
	r := one(t, run(t, s))
	if r.Status != status.Error || len(r.Attempts) != 4 {
		t.Fatalf("status %s, %d attempts; want error after 4", r.Status, len(r.Attempts))
	}
	if !strings.HasPrefix(r.Reason, "all 2 runs errored; run 1: turn[0]: the agent answered HTTP 503") || !r.ReasonPos.IsValid() {
		t.Errorf("reason %q at %v", r.Reason, r.ReasonPos)
	}
}

func TestFailFastAcrossTests(t *testing.T) {
	srv := aguitest.New(t, textAgent)
	s := suite(t, srv.Endpoint(), "", map[string]string{
		"a-fails":  "runs: 2\n" + requireSearch,
		"b-passes": "turns: [{user: hi}]\n",
		"c-passes": "turns: [{user: hi}]\n",
	})
	var seen []string
	obs := &recorder{}
	rs := run(t, s, func(o *engine.Options) { o.FailFast = true; o.Observer = obs })
	for _, r := range rs {
		seen = append(seen, r.Test.Name.Value+":"+string(r.Status))
	}
	if got := strings.Join(seen, " "); got != "a-fails:fail b-passes:skipped c-passes:skipped" {
		t.Fatalf("statuses %s", got)
	}
	if want := `not run: --fail-fast stopped the run after "a-fails" failed`; rs[1].Reason != want {
		t.Errorf("reason %q, want %q", rs[1].Reason, want)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests; only a-fails's two runs may be sent", n)
	}
	if got := strings.Join(obs.events, " "); got != "start:a-fails end:a-fails end:b-passes end:c-passes" {
		t.Errorf("observer saw %s", got)
	}
}

// recorder is an observer that logs starts and ends.
type recorder struct {
	mu     sync.Mutex
	events []string
}

func (r *recorder) TestStarted(t *spec.Test) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, "start:"+t.Name.Value)
}

func (r *recorder) TestFinished(res *engine.TestResult) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, "end:"+res.Test.Name.Value)
}

func TestCancelBetweenRuns(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var n atomic.Int64
	srv := aguitest.New(t, func(r *aguitest.Request) aguitest.Response {
		if n.Add(1) == 2 {
			cancel() // while the second run is in flight
			return aguitest.Response{Hang: true}
		}
		return textAgent(r)
	})
	s := suite(t, srv.Endpoint(), "", map[string]string{"long": "runs: 3\nturns: [{user: hi}]\n"})
	out := engine.Run(ctx, engine.Options{Protocols: registry.Lookup, Suite: s, NewID: ids(), Env: os.Environ(), LookupEnv: os.LookupEnv})
	r := one(t, out.Tests)
	if r.Status != status.Error || r.Reason != "cancelled after 2 of 3 runs" {
		t.Fatalf("status %s, reason %q", r.Status, r.Reason)
	}
	if len(r.Attempts) != 2 || r.Attempts[0].Status != status.Pass || r.Attempts[1].Status != status.Error || r.Attempts[1].Reason != "turn[0]: cancelled" {
		t.Errorf("attempts: %d", len(r.Attempts))
		for _, a := range r.Attempts {
			t.Errorf("  %s %q", a.Status, a.Reason)
		}
	}
}

// TestRunsInParallel: the runs of one test are independent and spread over
// the workers.
func TestRunsInParallel(t *testing.T) {
	agent, overlapped := overlapping(textAgent)
	srv := aguitest.New(t, agent)
	s := suite(t, srv.Endpoint(), "", map[string]string{"many": "runs: 4\nturns: [{user: hi}]\n"})
	r := one(t, run(t, s, func(o *engine.Options) { o.Parallel = 4 }))
	if r.Status != status.Pass || r.Verdict.Runs != 4 || r.Verdict.Flaky {
		t.Fatalf("status %s, verdict %+v", r.Status, r.Verdict)
	}
	if !overlapped() {
		t.Error("no two requests were in flight at once; want the runs to overlap")
	}
}
