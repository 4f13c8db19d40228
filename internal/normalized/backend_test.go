package normalized

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/normalized/normalizedtest"
	"github.com/ananke/action/internal/trace"
)

// backendTrace is a turn bound to the tool doubles and the model gateway:
// a model call asks for a tool; the agent streams the call it makes
// (inventory_check_stock, served by the double check_stock), and its next
// model call, dropped, starts in the millisecond the streamed result
// arrived; then it makes a call the doubles alone saw (reserve, answered
// at once, in the millisecond its last model call starts).
func backendTrace() *trace.Trace {
	ev := func(seq, at int64, typ string) trace.Event {
		return trace.Event{Seq: seq, ReceivedMs: base + at, Type: typ, Raw: json.RawMessage(`{"type":"` + typ + `"}`)}
	}
	var tok cost.Tokens
	tok.Set(cost.Input, 120)
	tok.Set(cost.Output, 8)
	return &trace.Trace{TestStartMs: base, TestEndMs: base + 100, Doubles: true, Gateway: true, Turns: []trace.Turn{{
		Index: 0, Kind: "user", UserText: "stock?", StartMs: base, EndMs: base + 100,
		ToolCalls: []trace.ToolCall{
			{ID: "s1", Name: "inventory_check_stock", Args: `{"sku":"A-1"}`, ArgsJSON: true, Result: &trace.Result{Content: "4"},
				Served: &trace.Served{By: "doubles", Tool: "check_stock", Answer: "config"}, StartedMs: base + 30, TimestampMs: base + 31, StartSeq: 2, ResultSeq: 3},
			{ID: "d1", Name: "reserve", Args: `{}`, ArgsJSON: true, Result: &trace.Result{Content: "ok"},
				Served: &trace.Served{By: "doubles", Tool: "reserve", Answer: "test"}, StartedMs: base + 50, TimestampMs: base + 50},
		},
		ModelCalls: []trace.ModelCall{
			{Model: "m", Messages: 1, Status: 200, Mode: "record", FinishReason: "tool_calls", StartedMs: base + 10, EndedMs: base + 20,
				Usage: &cost.Usage{Model: "m", Tokens: tok}},
			{Model: "m", Messages: 3, Status: 0, Fault: "drop", Mode: "record", StartedMs: base + 31, EndedMs: base + 31},
			{Model: "m", Messages: 5, Status: 200, Mode: "record", StartedMs: base + 50, EndedMs: base + 60, Usage: &cost.Usage{Model: "m"}},
		},
		Texts:  []string{"4 left"},
		Events: []trace.Event{ev(1, 5, "RUN_STARTED"), ev(2, 30, "TOOL_CALL_START"), ev(3, 31, "TOOL_CALL_RESULT"), ev(4, 70, "TEXT_MESSAGE_CONTENT"), ev(5, 90, "RUN_FINISHED")},
	}}}
}

// TestBackendEvents: a served call carries its double's record; a call
// only the doubles saw, and each model call, take their place by time
// among the events that have a trace event — after those of their
// millisecond, a model call after the tool events of its own.
func TestBackendEvents(t *testing.T) {
	got := Build(backendTrace(), Meta{TestID: "stock", Status: "pass"})
	var order []string
	for _, e := range got.Events {
		d := dataOf(t, e)
		s := e.Type
		if id, ok := d["call_id"].(string); ok {
			s += " " + id
		}
		if n, ok := d["messages"].(float64); ok {
			s += " " + itoa(int(n))
		}
		order = append(order, s+" @"+strings.TrimPrefix(e.TS, "2026-11-22T09:30:00"))
	}
	want := "message_received @Z|model_call 1 @.01Z|tool_call s1 @.03Z|tool_result s1 @.031Z|model_call 3 @.031Z|tool_call d1 @.05Z|tool_result d1 @.05Z|model_call 5 @.05Z|final_output @.1Z"
	if g := strings.Join(order, "|"); g != want {
		t.Errorf("events:\n %s\nwant\n %s", g, want)
	}
	first := dataOf(t, got.Events[1])
	if string(mustJSON(first["usage"])) != `{"input_tokens":120,"output_tokens":8,"total_tokens":128}` || first["duration_ms"] != 10.0 || first["turn"] != 0.0 || first["mode"] != "record" {
		t.Errorf("model call data = %s", mustJSON(first))
	}
	if d := dataOf(t, got.Events[7]); d["usage"] != nil {
		t.Errorf("a model call that reported no counts has usage %v", d["usage"])
	}
	if d := dataOf(t, got.Events[4]); d["fault"] != "drop" || d["status"] != 0.0 {
		t.Errorf("the dropped call = %s", mustJSON(d))
	}
	served := dataOf(t, got.Events[2])["served"]
	if string(mustJSON(served)) != `{"answer":"config","by":"doubles","tool":"check_stock"}` {
		t.Errorf("served = %s", mustJSON(served))
	}
	if got.Events[6].ParentEventID != "e6" {
		t.Errorf("the timed result's parent = %q, want e6", got.Events[6].ParentEventID)
	}
	if n := got.Metrics.ModelCallCount; n == nil || *n != 3 {
		t.Errorf("model_call_count = %v, want 3", n)
	}
	if n := Build(schedulerTrace(), Meta{}).Metrics.ModelCallCount; n != nil {
		t.Errorf("a trace not bound to the gateway has model_call_count %d", *n)
	}
	unbound := backendTrace()
	unbound.Turns[0].ModelCalls = nil
	if n := Build(unbound, Meta{}).Metrics.ModelCallCount; n == nil || *n != 0 {
		t.Errorf("a trace bound to the gateway that made no call: model_call_count %v, want 0", n)
	}
}

// TestBackendSchema: the export of a backend trace matches the schema,
// and the schema holds the served record and the model call closed.
func TestBackendSchema(t *testing.T) {
	s := normalizedtest.Schema(t)
	var b bytes.Buffer
	if err := Write(&b, Build(backendTrace(), Meta{TestID: "stock", RunID: RunID(mustTime(t, "2026-11-23T08:07:12Z"), "c", ""), Run: 1, Status: "pass"})); err != nil {
		t.Fatal(err)
	}
	good := b.String()
	if err := validate(t, s, b.Bytes()); err != nil {
		t.Fatalf("the built trace does not match the schema: %v", err)
	}
	for _, tc := range []struct{ name, old, new string }{
		{"served by", `"by": "doubles"`, `"by": "mocks"`},
		{"served field", `"tool": "check_stock",`, `"tool": "check_stock", "result": 1,`},
		{"model call mode", `"mode": "record"`, `"mode": "live"`},
		{"model call field", `"messages": 1,`, `"messages": 1, "prompt": "x",`},
		{"model call usage", `"input_tokens": 120,`, `"input_tokens": 120, "tokens": 1,`},
		{"model call actor", `"type": "model_call",
      "actor": "agent"`, `"type": "model_call",
      "actor": "runtime"`},
		{"model call count", `"model_call_count": 3`, `"model_call_count": -1`},
	} {
		if !strings.Contains(good, tc.old) {
			t.Fatalf("%s: the trace has no %s", tc.name, tc.old)
		}
		if validate(t, s, []byte(strings.Replace(good, tc.old, tc.new, 1))) == nil {
			t.Errorf("the schema accepts a bad %s: %s", tc.name, tc.new)
		}
	}
}

// TestSpansCallEvents: a call only the agent's spans showed carries its
// source and takes its place by time, as a call only the doubles saw
// does; the schema holds it.
func TestSpansCallEvents(t *testing.T) {
	tr := backendTrace()
	tr.Turns[0].ToolCalls = append(tr.Turns[0].ToolCalls, trace.ToolCall{ID: "sp1", Name: "quote", Args: `{}`, ArgsJSON: true,
		Result: &trace.Result{Content: "9"}, Source: trace.SourceSpans, StartedMs: base + 40, TimestampMs: base + 45})
	got := Build(tr, Meta{TestID: "stock", RunID: RunID(mustTime(t, "2026-11-23T08:07:12Z"), "c", ""), Run: 1, Status: "pass"})
	var order []string
	for _, e := range got.Events {
		if id, ok := dataOf(t, e)["call_id"].(string); ok {
			order = append(order, e.Type+" "+id)
		}
	}
	want := "tool_call s1|tool_result s1|tool_call sp1|tool_result sp1|tool_call d1|tool_result d1"
	if g := strings.Join(order, "|"); g != want {
		t.Errorf("calls:\n %s\nwant\n %s", g, want)
	}
	for _, e := range got.Events {
		if d := dataOf(t, e); d["call_id"] == "sp1" && e.Type == TypeToolCall && d["source"] != "spans" {
			t.Errorf("the call found in spans = %s", mustJSON(d))
		}
	}
	var b bytes.Buffer
	if err := Write(&b, got); err != nil {
		t.Fatal(err)
	}
	s := normalizedtest.Schema(t)
	if err := validate(t, s, b.Bytes()); err != nil {
		t.Fatalf("the built trace does not match the schema: %v", err)
	}
	if validate(t, s, []byte(strings.Replace(b.String(), `"source": "spans"`, `"source": "logs"`, 1))) == nil {
		t.Error("the schema accepts a source other than spans")
	}
}
