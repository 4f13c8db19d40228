package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ananke/action/internal/agui/aguitest"
	"github.com/ananke/action/internal/backend"
	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/model"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// backendAgent is an AG-UI agent whose backend is Ananke's: as it answers
// a run, it calls what Ananke serves, as a double server and the gateway
// do — routing by the request's headers and recording into the binding —
// through do, then answers as textAgent does.
func backendAgent(t *testing.T, board *backend.Board, do func(bd *backend.Binding, r *aguitest.Request) []aguitest.E) aguitest.Handler {
	return func(r *aguitest.Request) aguitest.Response {
		bd, why := board.Route(r.Header)
		if bd == nil {
			board.Orphan("run "+r.Input.RunID, why)
			return textAgent(r)
		}
		events := do(bd, r)
		last := ""
		for _, m := range r.Input.Messages {
			if m.Role == "user" {
				last, _ = m.TextContent()
			}
		}
		events = append(events, aguitest.Text("m-"+r.Input.RunID, "you said: ", last)...)
		return aguitest.Response{Events: aguitest.Run(r.Input, events...)}
	}
}

func modelCall(model string, in, out int64) trace.ModelCall {
	u := &cost.Usage{Model: model}
	u.Tokens.Set(cost.Input, in)
	u.Tokens.Set(cost.Output, out)
	return trace.ModelCall{Model: model, Status: 200, Mode: "passthrough", Usage: u, Messages: 2}
}

func servedCall(tool, args, result string, unanswered bool) trace.ToolCall {
	c := trace.ToolCall{Name: tool, Args: args, StartedMs: 1, EndedMs: 2, Served: &trace.Served{By: "doubles", Tool: tool, Answer: "result", Unanswered: unanswered}}
	if result != "" {
		c.Result = &trace.Result{Content: result, JSON: json.Valid([]byte(result))}
	}
	return c
}

// TestBackendAttempt: an attempt that uses the backend sends its token on
// every request and in ${ANANKE_TEST}; what the backend served in each
// turn lands in that turn — calls the agent also streamed marked, the
// others added — with the gateway's usage where the agent reported none,
// before the turn's checks, which need the capabilities the backend
// gives.
func TestBackendAttempt(t *testing.T) {
	board := backend.NewBoard(false, func(string) bool { return true }).WithDoubles().WithGateway()
	var tokens sync.Map // run id → the token its request carried
	agent := backendAgent(t, board, func(bd *backend.Binding, r *aguitest.Request) []aguitest.E {
		tokens.Store(r.Input.RunID, r.Header.Get(backend.Header))
		var props struct{ Test string }
		if json.Unmarshal(r.Input.ForwardedProps, &props) != nil || props.Test != bd.Token {
			t.Errorf("forwardedProps %s; want the token %s in test", r.Input.ForwardedProps, bd.Token)
		}
		bd.AddModelCall(modelCall("gpt-4o-mini", 100, 20))
		if bd.Turn() == 0 {
			// Streamed and served: one record.
			bd.AddCall(servedCall("check_stock", `{"sku":"A-1"}`, `{"in_stock":4}`, false))
			return aguitest.Call("c1", "inventory_check_stock", `{"sku": "A-1"}`, `{"in_stock":4,"streamed":true}`)
		}
		// Served, never streamed; and one the test gave no answer.
		bd.AddCall(servedCall("reserve", `{"sku":"A-1"}`, `{"ok":true}`, false))
		bd.AddCall(servedCall("refund", `{}`, "", true))
		bd.AddModelCall(modelCall("gpt-4o-mini", 200, 10))
		return nil
	})
	srv := aguitest.New(t, agent)
	s := suite(t, srv.Endpoint(), "  forwardedProps: {test: \"${ANANKE_TEST}\"}\n", map[string]string{"shop": `turns:
  - user: "stock of A-1?"
    assert:
      tools: {require: [{name: inventory_check_stock, result_match: "in_stock"}]}
      model: {max_calls: 1}
  - user: "reserve it"
    assert:
      tools: {require: [{name: reserve, args_match: {sku: "^A-1$"}}], max_calls: 2}
      model: {min_calls: 2, allowed: ["gpt-4o*"]}
      budget: {max_total_tokens: 330}
`})
	r := one(t, run(t, s, func(o *engine.Options) { o.Backend = board }))
	if r.Status != status.Pass {
		t.Fatalf("status %s %s; failures %q", r.Status, r.Reason, failed(r))
	}
	a := r.Shown()
	for _, id := range []string{"turn[0].model.max_calls", "turn[1].model.min_calls", "turn[1].model.allowed[0]", "turn[1].budget.max_total_tokens", "turn[1].tools.require[0]"} {
		if res := resultOf(t, a, id); res.Status != status.Pass {
			t.Errorf("%s %s %q; want made, and passed", id, res.Status, res.Message)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests; want 2", len(reqs))
	}
	for _, req := range reqs {
		if tok, _ := tokens.Load(req.Input.RunID); tok == "" || tok != reqs[0].Header.Get(backend.Header) {
			t.Errorf("run %s carried %s %q; want the attempt's token on every request", req.Input.RunID, backend.Header, tok)
		}
	}
	tr := a.Trace
	if got := callNames(tr.Turns[0].ToolCalls); got != "inventory_check_stock(served)" {
		t.Errorf("turn 0 calls %s; want the streamed call marked served", got)
	}
	if c := tr.Turns[0].ToolCalls[0]; c.Result == nil || c.Result.Content != `{"in_stock":4,"streamed":true}` || c.ID != "c1" {
		t.Errorf("turn 0 call %s result %+v; want the streamed record", c.ID, c.Result)
	}
	if got := callNames(tr.Turns[1].ToolCalls); got != "reserve(served) refund(served)" {
		t.Errorf("turn 1 calls %s", got)
	}
	if n := len(tr.Turns[1].ModelCalls); n != 2 || tr.Turns[1].ModelCalls[0].Turn != 1 {
		t.Errorf("turn 1 model calls %+v; want 2 of turn 1", tr.Turns[1].ModelCalls)
	}
	if n, _ := tr.Turns[1].Usage.TotalTokens(); n != 330 {
		t.Errorf("turn 1 usage %d tokens; want the gateway's 330", n)
	}
	caps := tr.Caps()
	for _, c := range []string{capability.ToolTrace, capability.ModelCalls, capability.Usage} {
		if !strings.Contains(strings.Join(caps, " "), c) {
			t.Errorf("capabilities %v; want %s", caps, c)
		}
	}
	if len(a.Warnings) != 1 || a.Warnings[0].Turn != 1 || a.Warnings[0].Rule != "doubles" || !strings.Contains(a.Warnings[0].Message, "refund") {
		t.Errorf("warnings %+v; want one for the unanswered refund in turn 1", a.Warnings)
	}
	if board.Orphans() != nil {
		t.Errorf("orphans %+v", board.Orphans())
	}
	if bd, _ := board.Route(nil); bd != nil {
		t.Error("the attempt is still bound after it ended")
	}
}

func callNames(calls []trace.ToolCall) string {
	var out []string
	for _, c := range calls {
		s := c.Name
		if c.Served != nil {
			s += "(served)"
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

// TestBackendModelCallError: a model call the gateway could not answer
// (a replay without a recording) errors the attempt with its message,
// whatever the agent answered; the checks of the turn are not made.
func TestBackendModelCallError(t *testing.T) {
	board := backend.NewBoard(false, func(string) bool { return true }).WithGateway()
	agent := backendAgent(t, board, func(bd *backend.Binding, r *aguitest.Request) []aguitest.E {
		bd.AddModelCall(trace.ModelCall{Model: "m", Status: 502, Mode: "replay", Error: "no recording matches this request"})
		return nil
	})
	srv := aguitest.New(t, agent)
	s := suite(t, srv.Endpoint(), "", map[string]string{"t": "turns:\n  - user: hi\n    assert: {text: {must_match: \"you said\"}}\n  - user: again\n"})
	r := one(t, run(t, s, func(o *engine.Options) { o.Backend = board }))
	if r.Status != status.Error || r.Reason != "turn[0]: model gateway: no recording matches this request" {
		t.Errorf("status %s %q; want error with the gateway's message", r.Status, r.Reason)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests; the test must stop at the first turn", n)
	}
	for _, res := range r.Shown().Results {
		if res.Level != engine.LevelBuiltin && res.Status != status.Skip {
			t.Errorf("%s %s; the errored turn's checks must not be made", res.ID, res.Status)
		}
	}
}

// TestBackendAlone: tests that use the backend without the agent
// forwarding the token run one attempt at a time — every request of
// theirs finds its attempt the only one bound — while the other tests
// run beside them: a request of each kind waits (a minute at most) until
// one of the other kind is in flight, and they meet.
func TestBackendAlone(t *testing.T) {
	board := backend.NewBoard(false, func(id string) bool { return strings.Contains(id, "alone") })
	var aloneIn, freeIn atomic.Int32
	met := make(chan struct{})
	var once sync.Once
	deadline := time.Now().Add(time.Minute)
	var mu sync.Mutex
	var problems []string
	srv := aguitest.New(t, func(r *aguitest.Request) aguitest.Response {
		tok := r.Header.Get(backend.Header)
		if tok != "" {
			aloneIn.Add(1)
			defer aloneIn.Add(-1)
			bd, _ := board.Route(r.Header)
			if only, why := board.Route(nil); only == nil || only != bd {
				mu.Lock()
				problems = append(problems, fmt.Sprintf("%s is not the only attempt bound: %s", tok, why))
				mu.Unlock()
			}
		} else {
			freeIn.Add(1)
			defer freeIn.Add(-1)
		}
		if aloneIn.Load() > 0 && freeIn.Load() > 0 {
			once.Do(func() { close(met) })
		}
		select {
		case <-met:
		case <-time.After(time.Until(deadline)):
		}
		return textAgent(r)
	})
	tests := map[string]string{}
	for i := range 3 {
		tests[fmt.Sprintf("alone%d", i)] = "turns: [{user: one}, {user: two}]\n"
		tests[fmt.Sprintf("free%d", i)] = "turns: [{user: one}, {user: two}]\n"
	}
	s := suite(t, srv.Endpoint(), "", tests)
	rs := run(t, s, func(o *engine.Options) { o.Parallel = 4; o.Backend = board })
	for _, r := range rs {
		if r.Status != status.Pass {
			t.Errorf("%s: %s %s", r.Test.ID, r.Status, r.Reason)
		}
	}
	for _, p := range problems {
		t.Error(p)
	}
	select {
	case <-met:
	default:
		t.Error("no test that runs alone ever ran beside another test")
	}
	var bound int
	for _, req := range srv.Requests() {
		if req.Header.Get(backend.Header) != "" {
			bound++
		}
	}
	if bound != 6 {
		t.Errorf("%d requests carried the token; want the 6 of the alone tests", bound)
	}
}

// TestBackendSimulatedTurns: a dynamic test's simulated turns are told to
// the binding, so what the backend served lands in the turn it was served
// in.
func TestBackendSimulatedTurns(t *testing.T) {
	board := backend.NewBoard(false, func(string) bool { return true }).WithDoubles()
	agent := backendAgent(t, board, func(bd *backend.Binding, r *aguitest.Request) []aguitest.E {
		bd.AddCall(servedCall("lookup", fmt.Sprintf(`{"turn":%d}`, bd.Turn()), `{}`, false))
		return nil
	})
	srv := aguitest.New(t, agent)
	s := suite(t, srv.Endpoint(), modelSection, map[string]string{"d": `turns: [{user: "scripted"}]
simulator: {persona: p, goal: g}
max_turns: 2
checkpoints:
  - id: never
    assert: {text: {contains: ["unreachable"]}}
`})
	r := one(t, run(t, s, func(o *engine.Options) {
		o.Model = &fakeModel{lines: []string{"(scripted)", "a", "b"}}
		o.Backend = board
	}))
	turns := r.Shown().Trace.Turns
	if len(turns) != 3 {
		t.Fatalf("%d turns; want 3", len(turns))
	}
	for i, turn := range turns {
		if len(turn.ToolCalls) != 1 || turn.ToolCalls[0].Args != fmt.Sprintf(`{"turn":%d}`, i) {
			t.Errorf("turn %d calls %+v; want the call served in it", i, turn.ToolCalls)
		}
	}
}

// TestBackendOrphans: a request no attempt took is kept for the report.
func TestBackendOrphans(t *testing.T) {
	board := backend.NewBoard(true, func(string) bool { return false })
	srv := aguitest.New(t, backendAgent(t, board, func(*backend.Binding, *aguitest.Request) []aguitest.E { return nil }))
	s := suite(t, srv.Endpoint(), "", map[string]string{"t": "turns: [{user: hi}]\n"})
	out := engine.Run(t.Context(), engineOptions(s, func(o *engine.Options) { o.Backend = board }))
	if len(out.Orphans) != 1 || !strings.Contains(out.Orphans[0].Why, "no "+backend.Header) {
		t.Errorf("orphans %+v; want the run's request, which carried no token", out.Orphans)
	}
	if h := srv.Requests()[0].Header.Get(backend.Header); h != "" {
		t.Errorf("a test that does not use the backend sent %s %q", backend.Header, h)
	}
}

// TestBackendHeaderEveryProtocol: whatever the target's protocol, the
// attempt's requests to the agent carry its token beside the target's
// headers (a server that refuses them all still sees them).
func TestBackendHeaderEveryProtocol(t *testing.T) {
	for _, tc := range []struct{ typ, version, turn string }{
		{"agui\n  agentId: a", "1.0", "{user: hi}"},
		{"a2a", "1.1", "{user: hi}"},
		{"mcp\n  transport: http", "1.2", "{type: mcp:list_tools}"},
	} {
		t.Run(tc.typ[:3], func(t *testing.T) {
			var mu sync.Mutex
			var seen []http.Header
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				seen = append(seen, r.Header.Clone())
				mu.Unlock()
				http.Error(w, "no", http.StatusInternalServerError)
			}))
			defer srv.Close()
			board := backend.NewBoard(true, func(string) bool { return true })
			s := writeSuite(t, map[string]string{
				"ananke.config.yaml": fmt.Sprintf("version: %q\ntarget:\n  type: %s\n  endpoint: %q\n  headers: {X-Key: k3y-value}\n  timeout_ms: %d\n", tc.version, tc.typ, srv.URL, answerTimeoutMs),
				"t.ananke.yaml":      fmt.Sprintf("version: %q\nname: t\nturns: [%s]\n", tc.version, tc.turn),
			})
			r := one(t, run(t, s, func(o *engine.Options) { o.Backend = board }))
			if r.Status != status.Error {
				t.Errorf("status %s; want an error from the server that refuses", r.Status)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(seen) == 0 {
				t.Fatal("no request reached the server")
			}
			for i, h := range seen {
				if tok := h.Get(backend.Header); !strings.HasPrefix(tok, "ananke-") || !strings.HasSuffix(tok, "-r1") || h.Get("X-Key") != "k3y-value" {
					t.Errorf("request %d: %s %q, X-Key %q; want the token and the target's header", i, backend.Header, tok, h.Get("X-Key"))
				}
			}
			if slices.Contains(r.Secrets(), seen[0].Get(backend.Header)) {
				t.Error("the token is among the secrets: reports would mask it wherever it appears")
			}
		})
	}
}

// callingModel is fakeModel whose every answer is preceded by a call to a
// double, as an agent's background work would make between turns.
type callingModel struct {
	*fakeModel
	board *backend.Board
}

func (m callingModel) Complete(ctx context.Context, req model.Request) (model.Reply, error) {
	if bd, _ := m.board.Route(nil); bd != nil {
		bd.AddCall(servedCall("background", `{}`, `{}`, false))
	}
	return m.fakeModel.Complete(ctx, req)
}

// TestBackendLate: what the backend served for a turn after the turn
// ended — here while the simulated user wrote the next message — is in
// no turn, and the attempt warns of it.
func TestBackendLate(t *testing.T) {
	board := backend.NewBoard(false, func(string) bool { return true }).WithDoubles()
	srv := aguitest.New(t, textAgent)
	s := suite(t, srv.Endpoint(), modelSection, map[string]string{"d": `turns: [{user: "scripted"}]
simulator: {persona: p, goal: g}
max_turns: 1
checkpoints:
  - id: never
    assert: {text: {contains: ["unreachable"]}}
`})
	r := one(t, run(t, s, func(o *engine.Options) {
		o.Model = callingModel{fakeModel: &fakeModel{lines: []string{"(scripted)", "a"}}, board: board}
		o.Backend = board
	}))
	a := r.Shown()
	for _, turn := range a.Trace.Turns {
		if len(turn.ToolCalls) != 0 {
			t.Errorf("turn %d holds %d calls; the late ones belong to none", turn.Index, len(turn.ToolCalls))
		}
	}
	var late []string
	for _, w := range a.Warnings {
		if w.Rule == "backend" {
			late = append(late, fmt.Sprintf("turn[%d]: %s", w.Turn, w.Message))
		}
	}
	want := []string{"turn[0]: background called with {} was answered after turn[0] ended: the trace leaves it out"}
	if !slices.Equal(late, want) {
		t.Errorf("warnings %q; want %q", late, want)
	}
}
