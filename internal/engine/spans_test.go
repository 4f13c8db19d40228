package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/otel/spanstore"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// spanAgent is a session whose agent sends Ananke's receiver its spans
// as it answers: in each turn, a span under the turn's span and a tool
// span under it; in turn 1, also one of turn 0 that comes late; at the
// end of the session, one more of the last turn. Its spans carry the
// attempt's trace id; an attempt without one (the engine gives every
// attempt that plays turns its trace context) gets one here, begun in
// the store as the engine begins it before the first turn.
type spanAgent struct {
	store  *spanstore.Store
	next   *atomic.Int64
	trace  string
	turns  []string // the turns' span ids
	prefix string
	// fail, when set, fails every turn once its spans are sent.
	fail error
}

func (s *spanAgent) span(id, parent, name string, start int64) trace.Span {
	sp := trace.Span{TraceID: s.trace, SpanID: s.prefix + id, ParentID: parent, Name: name, StartNs: start, EndNs: start + 5, Turn: -1,
		Attributes: map[string]any{"test": s.prefix}}
	if strings.HasPrefix(name, "execute_tool ") {
		sp.Attributes["gen_ai.operation.name"] = "execute_tool"
		sp.Attributes["gen_ai.tool.name"] = strings.TrimPrefix(name, "execute_tool ")
		sp.Attributes["gen_ai.tool.call.arguments"] = `{"sku":"A-1"}`
	}
	return sp
}

func (s *spanAgent) Turn(_ context.Context, in target.Turn, rec *trace.Recorder) (target.Outcome, error) {
	at := time.Unix(0, 0)
	rec.StartRun("run", at)
	rec.Event("RUN_STARTED", 0, []byte(`{"type":"RUN_STARTED"}`), at)
	rec.Event("RUN_FINISHED", 0, []byte(`{"type":"RUN_FINISHED"}`), at)
	rec.EndRun(2, nil, at)
	tr := rec.Trace()
	if tr.TraceID == "" {
		tr.TraceID = fmt.Sprintf("%032x", s.next.Add(1))
		s.store.Begin(tr.TraceID)
	}
	s.trace = tr.TraceID
	s.prefix = in.Text + "-"
	turn := &tr.Turns[len(tr.Turns)-1]
	if turn.SpanID == "" {
		turn.SpanID = fmt.Sprintf("turn%d", in.Index)
	}
	s.turns = append(s.turns, turn.SpanID)
	i := int64(in.Index)
	spans := []trace.Span{
		s.span(fmt.Sprintf("agent%d", i), turn.SpanID, "invoke_agent", 100*i+10),
		s.span(fmt.Sprintf("tool%d", i), s.prefix+fmt.Sprintf("agent%d", i), "execute_tool check_stock", 100*i+20),
	}
	if in.Index == 1 {
		spans = append(spans, s.span("late0", s.prefix+"agent0", "chat", 30))
	}
	s.store.Add(spans)
	return target.Outcome{}, s.fail
}

func (s *spanAgent) State() json.RawMessage { return json.RawMessage(`{}`) }
func (s *spanAgent) Source() *trace.Source  { return nil }
func (s *spanAgent) Close() error {
	if n := len(s.turns); n > 0 {
		s.store.Add([]trace.Span{s.span("after", s.turns[n-1], "flush", 1000)})
	}
	return nil
}

// spansSuite is tests of two turns each; the user's text names the test.
func spansSuite(t *testing.T, names ...string) *spec.Suite {
	files := map[string]string{"ananke.config.yaml": usageConfig + "otel: {receiver: \"127.0.0.1:0\", grace_ms: 100}\n"}
	for _, n := range names {
		files[n+".ananke.yaml"] = fmt.Sprintf("version: \"1.0\"\nname: %s\nturns: [{user: %s}, {user: %s}]\n", n, n, n)
	}
	return writeSuite(t, files)
}

// fired is a store's After in these tests: every wait is over at once.
// The agent sends each turn's spans before the turn ends, so what the
// attempt gets does not depend on the wait.
func fired(time.Duration) <-chan time.Time {
	c := make(chan time.Time, 1)
	c <- time.Time{}
	return c
}

func spanProtocol(store *spanstore.Store) func(string) (engine.Protocol, bool) {
	return failingSpanProtocol(store, nil)
}

func failingSpanProtocol(store *spanstore.Store, fail error) func(string) (engine.Protocol, bool) {
	next := &atomic.Int64{}
	return func(string) (engine.Protocol, bool) {
		return engine.Protocol{Open: func(*engine.Setup) target.Session { return &spanAgent{store: store, next: next, fail: fail} }}, true
	}
}

// TestSpansJoinTheTrace: with the receiver on, each attempt's trace holds
// the spans of its trace id alone — attempts running in parallel — each
// with the turn it descends from: a span of turn 0 that came in turn 1
// is turn 0's, one that came after the last turn is attached at the
// end; the trace has supports_spans.
func TestSpansJoinTheTrace(t *testing.T) {
	store := spanstore.New(spanstore.Options{After: fired})
	s := spansSuite(t, "a", "b", "c")
	rs := run(t, s, func(o *engine.Options) {
		o.Protocols, o.Spans, o.Parallel = spanProtocol(store), store, 3
	})
	for _, r := range rs {
		if r.Status != status.Pass {
			t.Fatalf("%s: %s %s", r.Test.ID, r.Status, r.Reason)
		}
		tr := r.Shown().Trace
		name := r.Test.Name.Value
		var got []string
		for _, sp := range tr.Spans {
			if sp.TraceID != tr.TraceID || sp.Attributes["test"] != name+"-" {
				t.Errorf("%s holds %s of %s (test %v)", name, sp.SpanID, sp.TraceID, sp.Attributes["test"])
			}
			got = append(got, fmt.Sprintf("%s@%d", strings.TrimPrefix(sp.SpanID, name+"-"), sp.Turn))
		}
		if want := "agent0@0 tool0@0 late0@0 agent1@1 tool1@1 after@1"; strings.Join(got, " ") != want {
			t.Errorf("%s spans %s\nwant %s", name, strings.Join(got, " "), want)
		}
		if !tr.OTelReceiver || !slices.Contains(tr.Caps(), capability.Spans) {
			t.Errorf("%s: receiver %v, capabilities %v", name, tr.OTelReceiver, tr.Caps())
		}
	}
	if st := store.Stats(); st.Received != 3*6 || st.Late != 0 || st.Unattributed != 0 {
		t.Errorf("store %+v", st)
	}
}

// TestSpansBeforeChecks: a turn's spans are attached, and the tool calls
// they describe join the turn, before its checks: spans.require and
// tools.require pass on an agent that streams no tool call; a check
// that asks for what the spans do not show fails.
func TestSpansBeforeChecks(t *testing.T) {
	store := spanstore.New(spanstore.Options{After: fired})
	s := writeSuite(t, map[string]string{
		"ananke.config.yaml": usageConfig + "otel: {receiver: \"127.0.0.1:0\"}\n",
		"a.ananke.yaml": `version: "1.0"
name: a
turns:
  - user: a
    assert:
      spans: {require: [{operation: execute_tool, under: {name: invoke_agent}, count: {exact: 1}}]}
      tools: {require: [{name: check_stock, args_match: {sku: "^A-1$"}}]}
  - user: a
    assert:
      spans: {require: [{name: "execute_tool reserve"}]}
`})
	r := one(t, run(t, s, func(o *engine.Options) { o.Protocols, o.Spans = spanProtocol(store), store }))
	a := r.Shown()
	for _, id := range []string{"turn[0].spans.require[0]", "turn[0].tools.require[0]"} {
		if res := resultOf(t, a, id); res.Status != status.Pass {
			t.Errorf("%s %s %q", id, res.Status, res.Message)
		}
	}
	if res := resultOf(t, a, "turn[1].spans.require[0]"); res.Status != status.Fail {
		t.Errorf("turn[1].spans.require[0] %s %q; want a failure", res.Status, res.Message)
	}
	if calls := a.Trace.Turns[0].ToolCalls; len(calls) != 1 || calls[0].Source != trace.SourceSpans {
		t.Errorf("turn 0 calls %+v; want check_stock from its spans", calls)
	}
}

// TestSpansDropped: spans over an attempt's limit are dropped, with a
// warning of the attempt.
func TestSpansDropped(t *testing.T) {
	store := spanstore.New(spanstore.Options{After: fired, MaxPerTrace: 3})
	r := one(t, run(t, spansSuite(t, "a"), func(o *engine.Options) { o.Protocols, o.Spans = spanProtocol(store), store }))
	a := r.Shown()
	if len(a.Trace.Spans) != 3 {
		t.Errorf("%d spans kept, want 3 (turn 0's 2, 1 of turn 1's 3, none at the end)", len(a.Trace.Spans))
	}
	var warned []string
	for _, w := range a.Warnings {
		if w.Rule == "otel" {
			warned = append(warned, fmt.Sprintf("turn %d: %s", w.Turn, w.Message))
		}
	}
	if want := "turn 1: 2 of the agent's spans were dropped: an attempt keeps at most 3; turn 1: 1 of the agent's spans were dropped: an attempt keeps at most 3"; strings.Join(warned, "; ") != want {
		t.Errorf("warnings %q, want %q", warned, want)
	}
}

// TestSpansFailedTurn: a turn that failed is not waited for (its agent
// may never answer): the spans that came are attached at once.
func TestSpansFailedTurn(t *testing.T) {
	var waits atomic.Int32
	store := spanstore.New(spanstore.Options{Grace: time.Minute, After: func(d time.Duration) <-chan time.Time {
		waits.Add(1)
		return fired(d)
	}})
	r := one(t, run(t, spansSuite(t, "a"), func(o *engine.Options) {
		o.Protocols, o.Spans = failingSpanProtocol(store, errors.New("agent down")), store
	}))
	if r.Status != status.Error || !strings.Contains(r.Reason, "agent down") {
		t.Fatalf("status %s %q", r.Status, r.Reason)
	}
	tr := r.Shown().Trace
	if n := waits.Load(); n != 0 {
		t.Errorf("the failed turn was waited for (%d timers)", n)
	}
	if len(tr.Spans) != 3 || tr.Spans[0].Turn != 0 || tr.Spans[2].Name != "flush" {
		t.Errorf("spans %+v; want turn 0's two and the one sent at the end", tr.Spans)
	}
}

// replayTape replays every attempt: no agent, so no spans.
type replayTape struct{}

func (replayTape) Live() bool { return false }
func (replayTape) Attempt(_ *spec.Test, _, _ int, base *http.Client) engine.AttemptIO {
	return engine.AttemptIO{HTTP: base, Now: time.Now}
}

// TestSpansOff: without the receiver, or when the attempt is replayed,
// the trace takes no spans and has no supports_spans.
func TestSpansOff(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  func(*engine.Options, *spanstore.Store)
	}{
		{"receiver off", func(o *engine.Options, _ *spanstore.Store) {}},
		{"replayed", func(o *engine.Options, s *spanstore.Store) { o.Spans, o.Tape = s, replayTape{} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := spanstore.New(spanstore.Options{After: fired})
			r := one(t, run(t, spansSuite(t, "a"), func(o *engine.Options) {
				o.Protocols = spanProtocol(store)
				tc.mod(o, store)
			}))
			tr := r.Shown().Trace
			if len(tr.Spans) != 0 || tr.OTelReceiver || slices.Contains(tr.Caps(), capability.Spans) {
				t.Errorf("%d spans, receiver %v, capabilities %v", len(tr.Spans), tr.OTelReceiver, tr.Caps())
			}
		})
	}
}
