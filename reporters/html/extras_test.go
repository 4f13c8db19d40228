package html_test

import (
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// extras is a report of what the other fixtures lack: a dynamic test (a
// simulated user, checkpoints reached and not, history, a client-answered
// call, state events and a final state, a run error) and a test of an
// imported transcript (its source, memory, messages sent out, events read
// at origins).
func extras() *report.Report {
	start := time.Date(2026, 11, 22, 11, 0, 0, 0, time.UTC)
	base := start.UnixMilli()
	p := stability.Policy{Runs: 1, MinPassRate: 100}
	lookup := trace.ToolCall{ID: "c1", Name: "confirm_address", Turn: 0, Args: `{"street":"Main St 1"}`, ArgsJSON: true, Client: true,
		Result: &trace.Result{Content: `{"ok":true}`, JSON: true}, StartedMs: base + 100, EndedMs: base + 110, TimestampMs: base + 150, StartSeq: 3, EndSeq: 4}
	dynamic := &engine.Attempt{Status: status.Fail, Start: start, End: start.Add(2 * time.Second),
		Trace: &trace.Trace{TestStartMs: base, TestEndMs: base + 2000,
			History: []trace.Message{{Role: "user", Content: "I moved last month."}, {Role: "assistant", Content: "Noted."}},
			Turns: []trace.Turn{{Index: 0, Kind: trace.KindSimulated, UserText: "Ship it to my new address.", StartMs: base, EndMs: base + 2000,
				ToolCalls: []trace.ToolCall{lookup}, Texts: []string{"Shipping to Main St 1."}, FirstTextMs: base + 900, FirstTextSeq: 7,
				State:     []byte(`{"cart":{"items":2},"address":"Main St 1"}`),
				RunErrors: []trace.RunError{{Message: "rate limited", Code: "429", Seq: 9}},
				Runs:      []trace.Run{{RunID: "r1", StartMs: base, EndMs: base + 1000, FirstSeq: 1, Frames: 5}, {RunID: "r2", StartMs: base + 1000, EndMs: base + 2000, FirstSeq: 6, Frames: 4}},
				Events: []trace.Event{
					{Seq: 1, ReceivedMs: base + 10, Type: "RUN_STARTED", Raw: []byte(`{"type":"RUN_STARTED","threadId":"t","runId":"r1"}`)},
					{Seq: 2, ReceivedMs: base + 20, Type: "STATE_SNAPSHOT", Raw: []byte(`{"type":"STATE_SNAPSHOT","snapshot":{"cart":{"items":1}}}`)},
					{Seq: 3, ReceivedMs: base + 100, Type: "TOOL_CALL_START", Raw: []byte(`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"confirm_address"}`)},
					{Seq: 4, ReceivedMs: base + 110, Type: "TOOL_CALL_END", Raw: []byte(`{"type":"TOOL_CALL_END","toolCallId":"c1"}`)},
					{Seq: 5, ReceivedMs: base + 900, Type: "RUN_FINISHED", Raw: []byte(`{"type":"RUN_FINISHED","threadId":"t","runId":"r1"}`)},
					{Seq: 6, ReceivedMs: base + 1010, Type: "RUN_STARTED", Raw: []byte(`{"type":"RUN_STARTED","threadId":"t","runId":"r2"}`)},
					{Seq: 7, ReceivedMs: base + 1100, Type: "TEXT_MESSAGE_CONTENT", Raw: []byte(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"Shipping to Main St 1."}`)},
					{Seq: 8, ReceivedMs: base + 1200, Type: "STATE_DELTA", Raw: []byte(`{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/cart/items","value":2}]}`)},
					{Seq: 9, ReceivedMs: base + 1900, Type: "RUN_ERROR", Raw: []byte(`{"type":"RUN_ERROR","message":"rate limited","code":"429"}`)},
				}}}},
		Checkpoints: []engine.Checkpoint{{ID: "address", Description: "the address is confirmed", Pos: diag.Pos{File: "tests/ship.ananke.yaml", Line: 9, Col: 7}, ReachedAt: 0},
			{ID: "paid", Description: "the order is paid", Pos: diag.Pos{File: "tests/ship.ananke.yaml", Line: 11, Col: 7}, ReachedAt: -1}},
		Results: []assertion.Result{{ID: "test.state.equals[0]", Level: assertion.LevelTest, Kind: assertion.KindState, Scope: "test", Source: diag.Pos{File: "tests/ship.ananke.yaml", Line: 14, Col: 9},
			Severity: assertion.Critical, Status: status.Fail, Message: "state /cart/items is 2, expected 1", Expected: "1", Observed: "2",
			Evidence: []assertion.Evidence{{Note: "last state change", EventRefs: []int64{2, 8}}}}}}
	dynamic.Results[0].Finish()
	imported := &engine.Attempt{Status: status.Pass, Start: start, End: start.Add(time.Second),
		Trace: &trace.Trace{TestStartMs: base, TestEndMs: base + 1000,
			Source: &trace.Source{Adapter: "claude-transcript", Version: "1", Mode: "import", Capabilities: []string{"tools", "text"}, Path: "sessions/s1.jsonl"},
			Turns: []trace.Turn{{Index: 0, Kind: "user", UserText: "Remember my size.", StartMs: base, EndMs: base + 1000, Texts: []string{"Saved."},
				Memory:   []trace.MemoryEvent{{Seq: 2, TimestampMs: base + 300, Op: trace.MemoryWrite, Group: "main", Path: "CLAUDE.md", Content: "Shoe size: 42", CallID: "w1"}},
				Outbound: []trace.Outbound{{Seq: 3, TimestampMs: base + 600, To: "chat:main", Text: "Saved your size."}},
				Events: []trace.Event{
					{Seq: 1, ReceivedMs: base, Type: "RUN_STARTED", Raw: []byte(`{"type":"RUN_STARTED"}`), Origin: "sessions/s1.jsonl:1"},
					{Seq: 2, ReceivedMs: base + 300, Type: "TOOL_CALL_RESULT", Raw: []byte(`{"type":"TOOL_CALL_RESULT","content":"ok"}`), Origin: "sessions/s1.jsonl:3"},
					{Seq: 3, ReceivedMs: base + 600, Type: "TEXT_MESSAGE_CONTENT", Raw: []byte(`{"type":"TEXT_MESSAGE_CONTENT","delta":"Saved."}`), Origin: "sessions/s1.jsonl:4"},
				}}}},
		Results: []assertion.Result{{ID: "turn[0].text.must_match[0]", Level: assertion.LevelTurn, Kind: assertion.KindMustMatch, Scope: "turn[0]",
			Source: diag.Pos{File: "tests/memory.ananke.yaml", Line: 6, Col: 21}, Severity: assertion.Critical, Status: status.Pass, Message: "assistant text matches `Saved`",
			Evidence: []assertion.Evidence{{Note: "match", Text: "Saved.", EventRefs: []int64{3}}}}}}
	imported.Results[0].Finish()
	tests := []*engine.TestResult{
		{Test: &spec.Test{Path: "tests/ship.ananke.yaml", ID: "tests/ship", Name: vars.Name{Value: "ships to the new address"}}, Status: status.Fail, Policy: p,
			Verdict: p.Judge([][]status.Status{{status.Fail}}), Attempts: []*engine.Attempt{dynamic}, Start: dynamic.Start, End: dynamic.End},
		{Test: &spec.Test{Path: "tests/memory.ananke.yaml", ID: "tests/memory", Name: vars.Name{Value: "remembers the size"}}, Status: status.Pass, Policy: p,
			Verdict: p.Judge([][]status.Status{{status.Pass}}), Attempts: []*engine.Attempt{imported}, Start: imported.Start, End: imported.End},
	}
	return report.Build(&engine.Outcome{Tests: tests, Start: start, End: start.Add(2 * time.Second)},
		report.Meta{Version: "v1.2.3", Config: &spec.Config{Path: "ananke.config.yaml", Target: spec.Target{Type: "agui", Endpoint: vars.Literal("http://localhost:8000")}}})
}

// TestWithoutTraces: a report whose tests carry no trace (built by hand,
// say) shows its turns from their summaries.
func TestWithoutTraces(t *testing.T) {
	res := "declined"
	r := &report.Report{Status: status.Fail, Tests: []report.Test{{ID: "t", Status: status.Fail, TraceFile: "tests/t.trace.json",
		Turns: []report.Turn{{Index: 0, Type: "user", User: "pay", DurationMs: 500, Text: "Payment declined.",
			ToolCalls: []report.Call{{ID: "c", Name: "charge", Args: `{"amount":1}`, Result: &res, AtMs: 10, DurationMs: 20}}, RunErrors: []string{"boom"}}}}}}
	page := render(t, r)
	p := decode(t, page)
	tu := p.Tests[0].Turns[0]
	if tu.Text != "Payment declined." || tu.User != "pay" || len(tu.Calls) != 1 || tu.Calls[0].Args != `{"amount":1}` {
		t.Errorf("turn = %+v", tu)
	}
	if !strings.Contains(page, `"run_errors":[{"message":"boom"`) {
		t.Error("the run error is missing")
	}
}
