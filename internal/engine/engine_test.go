package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ananke/action/internal/agui/aguitest"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/target/registry"
)

// suite writes a config pointing at endpoint plus the given test files and
// loads them.
func suite(t *testing.T, endpoint, extraConfig string, tests map[string]string) *spec.Suite {
	t.Helper()
	dir := t.TempDir()
	cfg := fmt.Sprintf("version: \"1.0\"\ntarget:\n  type: agui\n  endpoint: %q\n  agentId: test\n  timeout_ms: %d\n%s", endpoint, answerTimeoutMs, extraConfig)
	files := map[string]string{"ananke.config.yaml": cfg}
	for name, body := range tests {
		files[name+".ananke.yaml"] = "version: \"1.0\"\nname: " + name + "\n" + body
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := spec.Load(spec.Options{ConfigPath: filepath.Join(dir, "ananke.config.yaml")})
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return s
}

// overlapping wraps agent so that each request waits until another one is
// in flight (a minute at most): tests that run at once overlap whatever the
// machine's load, and overlapped reports whether two ever did. Their runs
// need a timeout past the minute, as every suite of suite() has
// (answerTimeoutMs).
func overlapping(agent aguitest.Handler) (wrapped aguitest.Handler, overlapped func() bool) {
	var inFlight atomic.Int32
	met := make(chan struct{})
	var once sync.Once
	deadline := time.Now().Add(time.Minute)
	wrapped = func(r *aguitest.Request) aguitest.Response {
		if inFlight.Add(1) >= 2 {
			once.Do(func() { close(met) })
		}
		defer inFlight.Add(-1)
		select {
		case <-met:
		case <-time.After(time.Until(deadline)):
		}
		return agent(r)
	}
	overlapped = func() bool {
		select {
		case <-met:
			return true
		default:
			return false
		}
	}
	return wrapped, overlapped
}

// answerTimeoutMs is the run timeout of the suites the tests build: their
// agents answer, so only a hang meets it, never a busy machine. A test
// whose run must time out sets a short one of its own.
const answerTimeoutMs = 120_000

// ids makes deterministic ids.
func ids() func() string {
	var n atomic.Int64
	return func() string { return fmt.Sprintf("id-%d", n.Add(1)) }
}

func run(t *testing.T, s *spec.Suite, mod ...func(*engine.Options)) []*engine.TestResult {
	t.Helper()
	return engine.Run(context.Background(), engineOptions(s, mod...)).Tests
}

// engineOptions are the options run runs a suite with.
func engineOptions(s *spec.Suite, mod ...func(*engine.Options)) engine.Options {
	opts := engine.Options{Protocols: registry.Lookup, Suite: s, NewID: ids(), Env: os.Environ(), LookupEnv: os.LookupEnv}
	for _, m := range mod {
		m(&opts)
	}
	return opts
}

func one(t *testing.T, rs []*engine.TestResult) *engine.TestResult {
	t.Helper()
	if len(rs) != 1 {
		t.Fatalf("got %d results", len(rs))
	}
	return rs[0]
}

func failed(r *engine.TestResult) []string {
	var out []string
	for _, a := range r.Shown().Results {
		if a.Status == status.Fail {
			out = append(out, a.ID+": "+a.Message)
		}
	}
	return out
}

// textAgent answers each run with a text derived from the last user message.
func textAgent(r *aguitest.Request) aguitest.Response {
	last := ""
	for _, m := range r.Input.Messages {
		if m.Role == "user" {
			last, _ = m.TextContent()
		}
	}
	return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Text("m-"+r.Input.RunID, "you said: ", last)...)}
}

func TestPassAndHistoryAcrossTurns(t *testing.T) {
	srv := aguitest.New(t, func(r *aguitest.Request) aguitest.Response {
		if len(r.Input.Messages) == 1 {
			return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Seq(
				aguitest.Call("c1", "search", `{"q":"shoes"}`, `{"hits":2}`),
				aguitest.Text("a1", "Found 2."))...)}
		}
		return textAgent(r)
	})
	s := suite(t, srv.Endpoint(), "", map[string]string{"history": `turns:
  - user: "find shoes"
    assert:
      tools:
        require: [{name: search, args_match: {q: "^shoes$"}, result_match: '"hits":2'}]
      text: {must_match: "Found 2"}
  - user: "thanks"
    assert:
      text: {must_match: "you said: thanks"}
`})
	r := one(t, run(t, s))
	if r.Status != status.Pass {
		t.Fatalf("status = %s %s; failures %q", r.Status, r.Reason, failed(r))
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	var roles []string
	for _, m := range reqs[1].Input.Messages {
		roles = append(roles, m.Role)
	}
	if got := strings.Join(roles, ","); got != "user,assistant,tool,assistant,user" {
		t.Errorf("second request's history roles = %s; want user,assistant,tool,assistant,user", got)
	}
	if tc := reqs[1].Input.Messages[1].ToolCalls; len(tc) != 1 || tc[0].Function.Arguments != `{"q":"shoes"}` {
		t.Errorf("second request's assistant tool calls = %+v", tc)
	}
	if reqs[0].Input.ThreadID != reqs[1].Input.ThreadID || reqs[0].Input.RunID == reqs[1].Input.RunID {
		t.Errorf("thread ids %q %q, run ids %q %q; want one thread, two runs", reqs[0].Input.ThreadID, reqs[1].Input.ThreadID, reqs[0].Input.RunID, reqs[1].Input.RunID)
	}
	if n := len(r.Shown().Trace.Turns); n != 2 || r.Shown().Trace.Turns[0].ToolCalls[0].Result == nil {
		t.Errorf("trace turns = %d, first call result %+v", n, r.Shown().Trace.Turns)
	}
}

func TestClientToolFollowUp(t *testing.T) {
	srv := aguitest.New(t, func(r *aguitest.Request) aguitest.Response {
		msgs := r.Input.Messages
		if last := msgs[len(msgs)-1]; last.Role == "tool" {
			answer, _ := last.TextContent()
			return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Seq(
				aguitest.Call("c2", "charge_card", `{"amount":42}`, `{"status":"approved"}`),
				aguitest.Text("a2", "confirmed: "+answer))...)}
		}
		return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Call("c1", "confirm_purchase", `{"amount":42}`, "")...)}
	})
	s := suite(t, srv.Endpoint(), "", map[string]string{"buy": `tools:
  - name: confirm_purchase
    description: Ask the user
    parameters: {type: object, properties: {amount: {type: number}}}
    results:
      - {args_match: {amount: "^42$"}, result: "yes"}
      - {result: "no"}
turns:
  - user: "buy it"
    assert:
      tools:
        require:
          - {name: confirm_purchase, result_match: "^yes$"}
          - {name: charge_card, after: confirm_purchase, result_match: approved}
      text: {must_match: "confirmed: yes"}
`})
	r := one(t, run(t, s))
	if r.Status != status.Pass {
		t.Fatalf("status = %s %s; failures %q", r.Status, r.Reason, failed(r))
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests; want the run and one follow-up", len(reqs))
	}
	first, second := reqs[0].Input, reqs[1].Input
	if len(first.Tools) != 1 || first.Tools[0].Name != "confirm_purchase" || !strings.Contains(string(first.Tools[0].Parameters), `"amount"`) {
		t.Errorf("advertised tools = %+v", first.Tools)
	}
	if first.ThreadID != second.ThreadID || first.RunID == second.RunID {
		t.Error("a follow-up run must keep the thread and get a new run id")
	}
	msgs := second.Messages
	if n := len(msgs); n != 3 || msgs[1].Role != "assistant" || msgs[1].ToolCalls[0].ID != "c1" || msgs[2].Role != "tool" || msgs[2].ToolCallID != "c1" {
		t.Fatalf("follow-up history = %s", mustJSON(msgs))
	}
	if c, _ := msgs[2].TextContent(); c != "yes" {
		t.Errorf("tool answer = %q; want yes", c)
	}
	calls := r.Shown().Trace.Turns[0].ToolCalls
	if len(calls) != 2 || !calls[0].Client || calls[0].Result.Content != "yes" || len(r.Shown().Trace.Turns[0].Runs) != 2 {
		t.Errorf("trace calls = %+v", calls)
	}
}

func TestClientToolFailures(t *testing.T) {
	loop := func(r *aguitest.Request) aguitest.Response {
		return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Call("c-"+r.Input.RunID, "confirm", `{"n":1}`, "")...)}
	}
	tests := []struct {
		name, config, tools, want string
	}{
		{"undeclared tool", "", "", `the agent called "confirm" (call c-id-3) and no result came back`},
		{"no matching results entry", "", "tools: [{name: confirm, results: [{args_match: {n: '^2$'}, result: x}]}]\n", `no results entry of client tool "confirm" matches the arguments of call c-id-3: {"n":1}`},
		{"too many follow-ups", "  max_followups: 2\n", "tools: [{name: confirm, result: again}]\n", "the agent still called client tools after 2 follow-up runs"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := aguitest.New(t, loop)
			r := one(t, run(t, suite(t, srv.Endpoint(), tc.config, map[string]string{"t": tc.tools + "turns: [{user: go}]\n"})))
			if f := failed(r); r.Status != status.Fail || len(f) != 1 || !strings.Contains(f[0], tc.want) {
				t.Errorf("status %s, failures %q; want one containing %q", r.Status, f, tc.want)
			}
		})
	}
}

func TestFailFast(t *testing.T) {
	srv := aguitest.New(t, textAgent)
	s := suite(t, srv.Endpoint(), "", map[string]string{"ff": `turns:
  - user: "one"
    assert: {text: {must_match: "nope"}}
  - user: "two"
    assert: {text: {must_match: "two"}}
assert:
  tools: {require: [{name: never}]}
`})
	r := one(t, run(t, s))
	if r.Status != status.Fail {
		t.Fatalf("status = %s", r.Status)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests; the second turn must not run", n)
	}
	statuses := map[string]status.Status{}
	for _, a := range r.Shown().Results {
		statuses[a.ID] = a.Status
	}
	for id, want := range map[string]status.Status{"turn[0].text.must_match[0]": status.Fail, "turn[1].text.must_match[0]": status.Skip, "test.tools.require[0]": status.Skip, "turn[0].run_error": status.Pass} {
		if statuses[id] != want {
			t.Errorf("%s = %q; want %q (all: %v)", id, statuses[id], want, statuses)
		}
	}
}

// TestParallelIsolation: tests run at once keep their own threads and
// histories.
func TestParallelIsolation(t *testing.T) {
	agent, overlapped := overlapping(textAgent)
	srv := aguitest.New(t, agent)
	tests := map[string]string{}
	for i := range 8 {
		tests[fmt.Sprintf("t%d", i)] = fmt.Sprintf(`turns:
  - user: "hello from %d"
    assert: {text: {must_match: "you said: hello from %d$"}}
  - user: "again %d"
    assert: {text: {must_match: "you said: again %d$"}}
`, i, i, i, i)
	}
	s := suite(t, srv.Endpoint(), "", tests)
	rs := run(t, s, func(o *engine.Options) { o.Parallel = 4; o.NewID = nil })
	for _, r := range rs {
		if r.Status != status.Pass {
			t.Errorf("%s: %s %q", r.Test.Name.Value, r.Status, failed(r))
		}
	}
	threads := map[string]int{}
	for _, req := range srv.Requests() {
		threads[req.Input.ThreadID]++
		var users []string
		for _, m := range req.Input.Messages {
			if s, _ := m.TextContent(); m.Role == "user" {
				users = append(users, s)
			}
		}
		if len(users) == 2 && !strings.HasSuffix(users[1], strings.TrimPrefix(users[0], "hello from ")) {
			t.Errorf("a history mixes tests: %q", users)
		}
	}
	if len(threads) != 8 {
		t.Errorf("%d threads; want one per test (8)", len(threads))
	}
	if !overlapped() {
		t.Error("no two requests were in flight at once; want tests to overlap")
	}
}

func TestHookVariables(t *testing.T) {
	srv := aguitest.New(t, textAgent)
	t.Setenv("ANANKE_TEST_SECRET", "s3cret-value")
	s := suite(t, srv.Endpoint(), "  headers:\n    Authorization: \"Bearer ${TOKEN}\"\n    X-Env: \"${ENV.ANANKE_TEST_SECRET}\"\n", map[string]string{"hooks": `hooks:
  - cmd: ["sh", "-c", "echo '{\"TOKEN\": \"tok-1\", \"ORDER\": 42}'"]
  - cmd: ["sh", "-c", "echo \"{\\\"NEXT\\\": \\\"after-$0\\\"}\"", "${ORDER}"]
turns:
  - user: "order ${ORDER} then ${NEXT}"
    assert: {text: {must_match: "order ${ORDER} then after-42"}}
`})
	r := one(t, run(t, s))
	if r.Status != status.Pass {
		t.Fatalf("status %s %s %q", r.Status, r.Reason, failed(r))
	}
	req := srv.Requests()[0]
	if got := req.Header.Get("Authorization"); got != "Bearer tok-1" {
		t.Errorf("Authorization = %q", got)
	}
	if got, _ := req.Input.Messages[0].TextContent(); got != "order 42 then after-42" {
		t.Errorf("user message = %q", got)
	}
	want := map[string]bool{"Bearer tok-1": true, "s3cret-value": true}
	for _, s := range r.Secrets() {
		delete(want, s)
	}
	if len(want) > 0 {
		t.Errorf("secrets %q miss %v", r.Secrets(), want)
	}
}

func TestErrors(t *testing.T) {
	down := func() string {
		srv := aguitest.New(t, textAgent)
		u := srv.Endpoint()
		srv.Close()
		return u
	}()
	tests := []struct {
		name     string
		agent    aguitest.Handler
		endpoint string
		config   string
		test     string
		status   status.Status
		want     string
	}{
		{name: "hook exits non-zero", test: "hooks: [{cmd: [sh, -c, 'echo oops >&2; exit 3']}]\nturns: [{user: hi}]\n", status: status.Error, want: `hooks[0]: hook "sh -c echo oops >&2; exit 3" exited with status 3`},
		{name: "hook timeout", test: "hooks: [{cmd: [sleep, '300'], timeout_ms: 100}]\nturns: [{user: hi}]\n", status: status.Error, want: "timed out after 100ms"},
		{name: "hook not JSON", test: "hooks: [{cmd: [echo, hello]}]\nturns: [{user: hi}]\n", status: status.Error, want: "printed unusable output"},
		{name: "unknown hook variable", test: "hooks: [{cmd: [echo, '{}']}]\nturns: [{user: \"${NOPE}\"}]\n", status: status.Error, want: "unknown variable ${NOPE}"},
		{name: "agent down", endpoint: down, test: "turns: [{user: hi}]\n", status: status.Error, want: "connection refused"},
		{name: "http 500", agent: func(*aguitest.Request) aguitest.Response {
			return aguitest.Response{Status: 500, Raw: "boom"}
		}, test: "turns: [{user: hi}]\n", status: status.Error, want: "turn[0]: the agent answered HTTP 500: boom"},
		{name: "run timeout", agent: func(*aguitest.Request) aguitest.Response { return aguitest.Response{Hang: true} },
			config: "", test: "turns: [{user: hi}]\n", status: status.Error, want: "the run did not finish within target.timeout_ms (300 ms)"},
		{name: "run error", agent: func(r *aguitest.Request) aguitest.Response {
			return aguitest.Response{Events: []any{aguitest.E{"type": "RUN_STARTED", "threadId": r.Input.ThreadID, "runId": r.Input.RunID}, aguitest.E{"type": "RUN_ERROR", "message": "model overloaded", "code": "503"}}}
		}, test: "turns: [{user: hi}, {user: again}]\n", status: status.Fail, want: "turn[0].run_error: the agent sent RUN_ERROR: model overloaded (code 503)"},
		{name: "truncated", agent: func(r *aguitest.Request) aguitest.Response {
			return aguitest.Response{Events: []any{aguitest.E{"type": "RUN_STARTED", "threadId": r.Input.ThreadID, "runId": r.Input.RunID}}}
		}, test: "turns: [{user: hi}]\n", status: status.Fail, want: "turn[0].protocol: the stream ended without a terminal event"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			endpoint := tc.endpoint
			if endpoint == "" {
				agent := tc.agent
				if agent == nil {
					agent = textAgent
				}
				endpoint = aguitest.New(t, agent).Endpoint()
			}
			s := suite(t, endpoint, tc.config, map[string]string{"t": tc.test})
			if tc.name == "run timeout" {
				s.Config.Target.TimeoutMs = 300
			}
			r := one(t, run(t, s))
			got := r.Reason
			if r.Status == status.Fail {
				got = strings.Join(failed(r), "\n")
			}
			if r.Status != tc.status || !strings.Contains(got, tc.want) {
				t.Errorf("status %s, %q; want %s containing %q", r.Status, got, tc.status, tc.want)
			}
		})
	}
}

func TestTestTimeoutAndCancel(t *testing.T) {
	var cancelOnRequest atomic.Pointer[context.CancelFunc]
	srv := aguitest.New(t, func(*aguitest.Request) aguitest.Response {
		if cancel := cancelOnRequest.Load(); cancel != nil {
			(*cancel)() // the run is in flight
		}
		return aguitest.Response{Hang: true}
	})
	s := suite(t, srv.Endpoint(), "", map[string]string{"a": "turns: [{user: hi}]\n", "b": "turns: [{user: hi}]\n", "c": "skip: later\nturns: [{user: hi}]\n"})
	r := run(t, s, func(o *engine.Options) { o.TestTimeout = 200 * time.Millisecond })[0]
	if r.Status != status.Error || !strings.Contains(r.Reason, "the test did not finish within --timeout 200ms") {
		t.Errorf("timeout: %s %q", r.Status, r.Reason)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cancelOnRequest.Store(&cancel)
	var mu sync.Mutex
	var seen []string
	out := engine.Run(ctx, engine.Options{Protocols: registry.Lookup, Suite: s, Observer: engine.ObserverFunc(func(r *engine.TestResult) {
		mu.Lock()
		seen = append(seen, r.Test.Name.Value)
		mu.Unlock()
	})})
	want := map[string]string{"a": "turn[0]: cancelled", "b": "cancelled before it started", "c": "later"}
	for _, r := range out.Tests {
		if !strings.Contains(r.Reason, want[r.Test.Name.Value]) {
			t.Errorf("%s: %s %q; want %q", r.Test.Name.Value, r.Status, r.Reason, want[r.Test.Name.Value])
		}
	}
	if len(seen) != 3 {
		t.Errorf("observer saw %v; want every test", seen)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestHistoryIDsAreFresh: history messages get fresh ids in every test (a
// producer with memory stores messages by id; shared ids would merge the
// histories of tests running in parallel).
func TestHistoryIDsAreFresh(t *testing.T) {
	srv := aguitest.New(t, textAgent)
	body := "history: [{role: system, content: be brief}, {role: user, content: my name is Ada}]\nturns: [{user: hi}]\n"
	run(t, suite(t, srv.Endpoint(), "", map[string]string{"a": body, "b": body}), func(o *engine.Options) { o.NewID = nil })
	seen := map[string]bool{}
	for _, req := range srv.Requests() {
		for _, m := range req.Input.Messages {
			if seen[m.ID] {
				t.Errorf("message id %q sent by two tests", m.ID)
			}
			seen[m.ID] = true
		}
	}
	if len(seen) != 6 {
		t.Errorf("%d distinct ids; want 6 (2 tests × 3 messages)", len(seen))
	}
}
