package normalized

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

const base = int64(1795339800000)

// schedulerTrace is an imported trace of two turns: tool calls with a
// result and an error result, memory read by the runtime and written by a
// tool, a message sent by a tool, a run error, and a scheduler source.
func schedulerTrace() *trace.Trace {
	ev := func(seq int64, typ string) trace.Event {
		return trace.Event{Seq: seq, ReceivedMs: base + seq*10, Type: typ, Raw: json.RawMessage(`{"type":"` + typ + `"}`), Origin: "session.jsonl:" + string(rune('0'+seq))}
	}
	return &trace.Trace{
		TestStartMs: base, TestEndMs: base + 500,
		History: []trace.Message{{Role: "assistant", Content: "Hi, I am the shop."}},
		Source: &trace.Source{Adapter: "nanoclaw", Version: "0.3.0", Mode: "import",
			Capabilities: []string{capability.ToolTrace, capability.MemoryEvents, capability.SchedulerContext, capability.Replay},
			AgentID:      "andy", GroupID: "family", SessionID: "s-1",
			Scheduler: &trace.Scheduler{TaskID: "task-9", Trigger: "scheduler", ScheduleType: "cron", ScheduleValue: "0 9 * * *",
				Runs: []trace.TaskRun{{Seq: 1, RunAt: "2026-11-23T09:00:00Z", DurationMs: 400, Status: "success"}}}},
		Turns: []trace.Turn{
			{Index: 0, Kind: "user", UserText: "find shoes", StartMs: base, EndMs: base + 200,
				ToolCalls: []trace.ToolCall{
					{ID: "c1", Name: "search", Args: `{"q":"shoes"}`, ArgsJSON: true, Result: &trace.Result{Content: "2 hits"},
						StartedMs: base + 20, TimestampMs: base + 40, StartSeq: 2, ResultSeq: 4},
					{ID: "c2", Name: "fetch", Args: `not json`, Result: &trace.Result{Content: "", Error: "timeout"},
						StartedMs: base + 30, TimestampMs: base + 50, StartSeq: 3, ResultSeq: 5},
				},
				Memory: []trace.MemoryEvent{{Seq: 1, TimestampMs: base + 10, Op: trace.MemoryRead, Group: "family", Path: "groups/family/CLAUDE.md", Content: "likes red"}},
				Texts:  []string{"Found 2."},
				Events: []trace.Event{ev(1, "CUSTOM"), ev(2, "TOOL_CALL_START"), ev(3, "TOOL_CALL_START"), ev(4, "TOOL_CALL_RESULT"), ev(5, "TOOL_CALL_RESULT")}},
			{Index: 1, Kind: "user", UserText: "pay", UserSeq: 6, StartMs: base + 300, EndMs: base + 500,
				ToolCalls: []trace.ToolCall{{ID: "c3", Name: "charge", Args: `{"amount":42}`, ArgsJSON: true, Client: true,
					Result: &trace.Result{Content: `{"status":"declined"}`, JSON: true}, StartedMs: base + 310, TimestampMs: base + 330, StartSeq: 7, EndSeq: 8}},
				Memory:    []trace.MemoryEvent{{Seq: 8, TimestampMs: base + 320, Op: trace.MemoryWrite, Group: "family", Path: "groups/family/CLAUDE.md", Content: "declined once", CallID: "c3"}},
				Outbound:  []trace.Outbound{{Seq: 9, TimestampMs: base + 340, To: "family", Text: "Payment declined", CallID: "c3"}},
				RunErrors: []trace.RunError{{Message: "model overloaded", Code: "529", Seq: 10}},
				Texts:     []string{"Declined.", "Sorry."},
				Events:    []trace.Event{ev(6, "CUSTOM"), ev(7, "TOOL_CALL_START"), ev(8, "TOOL_CALL_END"), ev(9, "CUSTOM"), ev(10, "RUN_ERROR")}},
		},
	}
}

func TestBuildEvents(t *testing.T) {
	got := Build(schedulerTrace(), Meta{TestID: "tests/pay", RunID: "run-x", Run: 1, Retry: 2, Status: "fail", AgentID: "ignored"})
	want := []struct {
		typ, actor, parent, callID string
		traceSeq                   int64
	}{
		{TypeMessageReceived, ActorUser, "", "", 0},
		{TypeMemoryRead, ActorRuntime, "", "", 1},
		{TypeToolCall, ActorAgent, "", "c1", 2},
		{TypeToolCall, ActorAgent, "", "c2", 3},
		{TypeToolResult, ActorTool, "e3", "c1", 4},
		{TypeToolResult, ActorTool, "e4", "c2", 5},
		{TypeError, ActorTool, "e4", "c2", 5},
		{TypeMessageReceived, ActorUser, "", "", 6}, // read from event 6
		{TypeToolCall, ActorAgent, "", "c3", 7},
		{TypeMemoryWrite, ActorAgent, "e9", "c3", 8},
		{TypeToolResult, ActorTool, "e9", "c3", 0},
		{TypeMessageSent, ActorAgent, "e9", "c3", 9},
		{TypeError, ActorRuntime, "", "", 10},
		{TypeFinalOutput, ActorAgent, "", "", 0},
	}
	if len(got.Events) != len(want) {
		t.Fatalf("%d events, want %d:\n%s", len(got.Events), len(want), dump(got.Events))
	}
	for i, w := range want {
		e := got.Events[i]
		d := dataOf(t, e)
		callID, _ := d["call_id"].(string)
		seq, _ := d["trace_seq"].(float64)
		if e.Seq != i+1 || e.EventID != "e"+itoa(i+1) || e.Type != w.typ || e.Actor != w.actor || e.ParentEventID != w.parent || callID != w.callID || int64(seq) != w.traceSeq {
			t.Errorf("event %d = %s %s %s parent %q call %q trace_seq %v; want %+v", i, e.EventID, e.Type, e.Actor, e.ParentEventID, callID, seq, w)
		}
		if e.GroupID != "family" || e.SessionID != "s-1" || e.TaskID != "task-9" || e.AgentID != "andy" {
			t.Errorf("event %d context = %q %q %q %q", i, e.GroupID, e.SessionID, e.TaskID, e.AgentID)
		}
		if w.traceSeq > 0 && d["origin"] != "session.jsonl:"+string(rune('0'+w.traceSeq)) {
			t.Errorf("event %d origin = %v", i, d["origin"])
		}
	}
	if d := dataOf(t, got.Events[2]); string(mustJSON(d["args"])) != `{"q":"shoes"}` {
		t.Errorf("JSON args = %s", mustJSON(d["args"]))
	}
	if d := dataOf(t, got.Events[3]); d["args"] != "not json" {
		t.Errorf("text args = %v", d["args"])
	}
	if d := dataOf(t, got.Events[5]); d["success"] != false || d["error"] != "timeout" {
		t.Errorf("error result data = %v", d)
	}
	if d := dataOf(t, got.Events[12]); d["message"] != "model overloaded" || d["code"] != "529" {
		t.Errorf("run error data = %v", d)
	}
	if got.Events[12].TS != ts(base+100) {
		t.Errorf("run error ts = %s, want the raw event's receive time %s", got.Events[12].TS, ts(base+100))
	}
	if got.FinalOutput != "Declined.\nSorry." || dataOf(t, got.Events[13])["text"] != got.FinalOutput {
		t.Errorf("final output = %q", got.FinalOutput)
	}
	if got.Events[0].TS != "2026-11-22T09:30:00Z" || got.Events[2].TS != "2026-11-22T09:30:00.02Z" {
		t.Errorf("times = %s, %s", got.Events[0].TS, got.Events[2].TS)
	}
}

func TestBuildTopLevel(t *testing.T) {
	got := Build(schedulerTrace(), Meta{TestID: "tests/pay", TestName: "pay", TestFile: "pay.ananke.yaml", RunID: "run-x", Run: 1, Retry: 2, Status: "fail", TraceFile: "tests/tests_pay.trace.json"})
	if got.SchemaVersion != SchemaVersion || got.TraceID != "run-x:tests/pay:1.2" || got.TestCaseID != "tests/pay" || got.TestRunID != "run-x" {
		t.Errorf("ids = %q %q %q %q", got.SchemaVersion, got.TraceID, got.TestCaseID, got.TestRunID)
	}
	if got.Adapter != (Adapter{Name: "nanoclaw", Version: "0.3.0", Mode: "import"}) {
		t.Errorf("adapter = %+v", got.Adapter)
	}
	if len(got.Capabilities) != len(capability.All) || !got.Capabilities[capability.MemoryEvents] || got.Capabilities[capability.LiveRun] {
		t.Errorf("capabilities = %v", got.Capabilities)
	}
	sc := got.Scenario
	if sc.GroupID != "family" || sc.SessionID != "s-1" || sc.TaskID != "task-9" || sc.Trigger != "scheduler" || sc.SchedulerContext == nil || sc.SchedulerContext.ScheduleValue != "0 9 * * *" {
		t.Errorf("scenario = %+v", sc)
	}
	wantMsgs := []Message{{Role: "assistant", Content: "Hi, I am the shop."}, {Role: "user", Content: "find shoes"}, {Role: "user", Content: "pay"}}
	if string(mustJSON(got.InputMessages)) != string(mustJSON(wantMsgs)) {
		t.Errorf("input messages = %s", mustJSON(got.InputMessages))
	}
	if got.Status != StatusFailed {
		t.Errorf("status = %q", got.Status)
	}
	if got.Metrics != (Metrics{TimingMsTotal: 500, ToolCallCount: 3, RetryCount: 2}) {
		t.Errorf("metrics = %+v", got.Metrics)
	}
	if got.Artifacts.TraceFile != "tests/tests_pay.trace.json" || got.TestCaseName != "pay" || got.Attempt != (Attempt{1, 2, "fail"}) {
		t.Errorf("artifacts %+v, name %q, attempt %+v", got.Artifacts, got.TestCaseName, got.Attempt)
	}
}

// TestBuildAGUI: a trace without a source is an AG-UI run; read back from
// a file it has no texts, which come from its text events.
func TestBuildAGUI(t *testing.T) {
	raw := func(seq int64, s string) trace.Event {
		var head struct{ Type string }
		json.Unmarshal([]byte(s), &head)
		return trace.Event{Seq: seq, ReceivedMs: base + seq, Type: head.Type, Raw: json.RawMessage(s)}
	}
	tr := &trace.Trace{TestStartMs: base, TestEndMs: base + 90, Turns: []trace.Turn{{Index: 0, Kind: "user", UserText: "hi", StartMs: base, EndMs: base + 90,
		Events: []trace.Event{
			raw(1, `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`),
			raw(2, `{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`),
			raw(3, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hel"}`),
			raw(4, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"lo"}`),
			raw(5, `{"type":"TEXT_MESSAGE_END","messageId":"m1"}`),
			raw(6, `{"type":"TEXT_MESSAGE_CHUNK","messageId":"m2","delta":"Bye"}`),
			raw(7, `{"type":"TEXT_MESSAGE_CHUNK","delta":"!"}`),
			raw(8, `{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`),
		}}}}
	got := Build(tr, Meta{TestID: "hi", RunID: "run-x", Run: 1, Status: "pass", Version: "v1.2.3", AgentID: "shop"})
	if got.Adapter != (Adapter{Name: "ag-ui", Version: "v1.2.3", Mode: "live"}) {
		t.Errorf("adapter = %+v", got.Adapter)
	}
	for _, c := range capability.All {
		if want := (&trace.Source{Capabilities: capability.AGUI}).Has(c); got.Capabilities[c] != want {
			t.Errorf("capability %s = %v, want %v", c, got.Capabilities[c], want)
		}
	}
	if got.FinalOutput != "Hello\nBye!" || got.Status != StatusSuccess || got.Scenario.Trigger != "user_message" || got.Scenario.SchedulerContext != nil {
		t.Errorf("final output %q, status %q, scenario %+v", got.FinalOutput, got.Status, got.Scenario)
	}
	if len(got.Events) != 2 || got.Events[0].Type != TypeMessageReceived || got.Events[1].Type != TypeFinalOutput || got.Events[1].AgentID != "shop" {
		t.Errorf("events:\n%s", dump(got.Events))
	}
}

func TestStatus(t *testing.T) {
	for _, tc := range []struct {
		status status.Status
		ran    bool
		want   string
	}{
		{"pass", true, StatusSuccess},
		{"fail", true, StatusFailed},
		{"error", true, StatusPartial},
		{"error", false, StatusBlocked},
		{"skipped", false, StatusBlocked},
	} {
		if got := outcome(tc.status, tc.ran); got != tc.want {
			t.Errorf("outcome(%q, %v) = %q, want %q", tc.status, tc.ran, got, tc.want)
		}
	}
}

// TestBuildEmpty: a test that never ran has no events and is blocked.
func TestBuildEmpty(t *testing.T) {
	got := Build(&trace.Trace{Turns: []trace.Turn{}}, Meta{TestID: "x", RunID: "run-x", Status: "error", DurationMs: 7})
	if len(got.Events) != 0 || got.Events == nil || got.Status != StatusBlocked || got.Metrics.TimingMsTotal != 7 || got.InputMessages == nil {
		t.Errorf("empty trace = %+v", got)
	}
}

func TestRunID(t *testing.T) {
	a := RunID(mustTime(t, "2026-11-23T08:07:12.345Z"), "ananke.config.yaml", "")
	if !strings.HasPrefix(a, "run-20261123T080712Z-") || len(a) != len("run-20261123T080712Z-")+8 {
		t.Errorf("RunID = %q", a)
	}
	if b := RunID(mustTime(t, "2026-11-23T08:07:12.345Z"), "ananke.config.yaml", ""); b != a {
		t.Errorf("RunID is not stable: %q, %q", a, b)
	}
	if b := RunID(mustTime(t, "2026-11-23T08:07:12.346Z"), "ananke.config.yaml", ""); b == a {
		t.Errorf("RunID ignores the start's milliseconds: %q", b)
	}
	if b := RunID(mustTime(t, "2026-11-23T08:07:12.345Z"), "ananke.config.yaml", "1/2"); b == a {
		t.Errorf("RunID ignores the shard: %q", b)
	}
}

// TestSubagentEvents: a subagent's call, its result and its error carry
// the subagent's id; the rest of the trace the trace's agent.
func TestSubagentEvents(t *testing.T) {
	tr := schedulerTrace()
	tr.Turns[0].ToolCalls[1].Agent = "a7c21f9" // fetch, which failed
	got := Build(tr, Meta{TestID: "t", Status: "fail"})
	var agents []string
	for _, e := range got.Events[:7] {
		agents = append(agents, e.Type+" "+e.AgentID)
	}
	want := "message_received andy|memory_read andy|tool_call andy|tool_call a7c21f9|tool_result andy|tool_result a7c21f9|error a7c21f9"
	if g := strings.Join(agents, "|"); g != want {
		t.Errorf("agents:\n %s\nwant %s", g, want)
	}
}

// TestTokenUsage: metrics.token_usage is the turns' usage when every turn
// reported it with input, output and total known; otherwise it is absent,
// never a number that is not the agent's.
func TestTokenUsage(t *testing.T) {
	spend := func(in, out int64, known ...cost.Field) *cost.Spend {
		var tok cost.Tokens
		for _, f := range known {
			tok.Set(f, map[cost.Field]int64{cost.Input: in, cost.Output: out}[f])
		}
		s := &cost.Spend{}
		s.Add(cost.Usage{Model: "m", Tokens: tok})
		return s
	}
	for _, c := range []struct {
		name  string
		turns []*cost.Spend
		want  *TokenUsage
	}{
		{"summed over turns", []*cost.Spend{spend(10, 2, cost.Input, cost.Output), spend(5, 1, cost.Input, cost.Output)}, &TokenUsage{InputTokens: 15, OutputTokens: 3, TotalTokens: 18}},
		{"no usage", []*cost.Spend{nil, nil}, nil},
		{"a turn without usage", []*cost.Spend{spend(10, 2, cost.Input, cost.Output), nil}, nil},
		{"input unknown", []*cost.Spend{spend(10, 2, cost.Output)}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := &trace.Trace{}
			for i, u := range c.turns {
				tr.Turns = append(tr.Turns, trace.Turn{Index: i, Usage: u})
			}
			got := Build(tr, Meta{}).Metrics.TokenUsage
			if (got == nil) != (c.want == nil) || (got != nil && *got != *c.want) {
				t.Errorf("token usage %+v; want %+v", got, c.want)
			}
		})
	}
}
