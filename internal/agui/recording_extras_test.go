package agui_test

import (
	"slices"
	"testing"

	"github.com/ananke/action/internal/trace"
)

// TestRecordReasoning: reasoning messages, streamed as triads, as chunks or
// as retired THINKING_* events, are the turn's reasoning, never its text.
func TestRecordReasoning(t *testing.T) {
	cases := []struct {
		name   string
		events []string
		want   []string
	}{
		{"triads", []string{
			`{"type":"REASONING_START","messageId":"r1"}`,
			`{"type":"REASONING_MESSAGE_START","messageId":"r1","role":"reasoning"}`,
			`{"type":"REASONING_MESSAGE_CONTENT","messageId":"r1","delta":"The promo code "}`,
			`{"type":"REASONING_MESSAGE_CONTENT","messageId":"r1","delta":"is SPRING-7."}`,
			`{"type":"REASONING_MESSAGE_END","messageId":"r1"}`,
			`{"type":"REASONING_END","messageId":"r1"}`,
		}, []string{"The promo code is SPRING-7."}},
		{"chunks", []string{
			`{"type":"REASONING_MESSAGE_CHUNK","messageId":"r1","delta":"first "}`,
			`{"type":"REASONING_MESSAGE_CHUNK","delta":"thought"}`,
			`{"type":"REASONING_MESSAGE_CHUNK","messageId":"r2","delta":"second"}`,
		}, []string{"first thought", "second"}},
		{"retired thinking events", []string{
			`{"type":"THINKING_START","title":"planning"}`,
			`{"type":"THINKING_TEXT_MESSAGE_START"}`,
			`{"type":"THINKING_TEXT_MESSAGE_CONTENT","delta":"legacy "}`,
			`{"type":"THINKING_TEXT_MESSAGE_CONTENT","delta":"thinking"}`,
			`{"type":"THINKING_TEXT_MESSAGE_END"}`,
			`{"type":"THINKING_END"}`,
		}, []string{"legacy thinking"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			events := append([]string{`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`}, c.events...)
			events = append(events,
				`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`,
				`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Yes."}`,
				`{"type":"TEXT_MESSAGE_END","messageId":"m1"}`,
				`{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`)
			turn, _ := record(t, frames(events...))
			if !slices.Equal(turn.Reasoning, c.want) {
				t.Errorf("reasoning = %q, want %q", turn.Reasoning, c.want)
			}
			if turn.Text() != "Yes." {
				t.Errorf("text = %q, want the answer alone", turn.Text())
			}
		})
	}
}

// TestMessagesSnapshotKeepsTheTrace: a MESSAGES_SNAPSHOT replaces the
// conversation the client sends back, never what the turn recorded: a
// snapshot that leaves out the streamed text, holds the reasoning under
// another id (as @ag-ui/langgraph's does) and knows nothing of a call
// leaves the turn's text, reasoning and call as streamed.
func TestMessagesSnapshotKeepsTheTrace(t *testing.T) {
	turn, _ := record(t, frames(
		`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`,
		`{"type":"REASONING_MESSAGE_START","messageId":"uuid-1","role":"reasoning"}`,
		`{"type":"REASONING_MESSAGE_CONTENT","messageId":"uuid-1","delta":"Think first."}`,
		`{"type":"REASONING_MESSAGE_END","messageId":"uuid-1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"search","parentMessageId":"m0"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"q\":1}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"found"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Found it."}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"m1"}`,
		`{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"u1","role":"user","content":"hi"},{"id":"m1-reasoning-0","role":"reasoning","content":"Think first."},{"id":"other","role":"assistant","content":"Something else."}]}`,
		`{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`,
	))
	if turn.Text() != "Found it." {
		t.Errorf("text = %q, want the streamed answer", turn.Text())
	}
	if !slices.Equal(turn.Reasoning, []string{"Think first."}) {
		t.Errorf("reasoning = %q", turn.Reasoning)
	}
	if len(turn.ToolCalls) != 1 || turn.ToolCalls[0].Args != `{"q":1}` || turn.ToolCalls[0].Result == nil || turn.ToolCalls[0].Result.Content != "found" {
		t.Errorf("calls = %+v", turn.ToolCalls)
	}
}

// TestRecordActivities: each activity message is kept as its last snapshot
// or patch left it; replace: false keeps the content it had.
func TestRecordActivities(t *testing.T) {
	turn, _ := record(t, frames(
		`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`,
		`{"type":"ACTIVITY_SNAPSHOT","messageId":"a1","activityType":"PLAN","content":{"steps":["search"],"done":0}}`,
		`{"type":"ACTIVITY_DELTA","messageId":"a1","activityType":"PLAN","patch":[{"op":"replace","path":"/done","value":1}]}`,
		`{"type":"ACTIVITY_SNAPSHOT","messageId":"a2","activityType":"SEARCH","content":{"query":"shoes"}}`,
		`{"type":"ACTIVITY_SNAPSHOT","messageId":"a2","activityType":"SEARCH","content":{"query":"ignored"},"replace":false}`,
		`{"type":"ACTIVITY_DELTA","messageId":"nope","activityType":"PLAN","patch":[{"op":"add","path":"/x","value":1}]}`,
		`{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`,
	))
	want := []trace.Activity{
		{ID: "a1", Type: "PLAN", Content: []byte(`{"steps":["search"],"done":1}`), Updates: 2, FirstSeq: 2, LastSeq: 3},
		{ID: "a2", Type: "SEARCH", Content: []byte(`{"query":"shoes"}`), Updates: 2, FirstSeq: 4, LastSeq: 5},
	}
	if len(turn.Activities) != len(want) {
		t.Fatalf("activities = %+v", turn.Activities)
	}
	for i, w := range want {
		got := turn.Activities[i]
		got.FirstMs, got.LastMs = 0, 0
		if got.ID != w.ID || got.Type != w.Type || string(got.Content) != string(w.Content) || got.Updates != w.Updates || got.FirstSeq != w.FirstSeq || got.LastSeq != w.LastSeq {
			t.Errorf("activity %d = %+v (content %s), want %+v (content %s)", i, got, got.Content, w, w.Content)
		}
	}
}

// TestRecordSubagents: calls made in a sub-agent run name it; its start,
// end and outcome are kept.
func TestRecordSubagents(t *testing.T) {
	turn, _ := record(t, frames(
		`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"d1","toolCallName":"delegate"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"d1"}`,
		`{"type":"SUBAGENT_STARTED","subagentRunId":"sa-1","name":"researcher","description":"finds notes","parentToolCallId":"d1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"search_notes","subagentRunId":"sa-1"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{}","subagentRunId":"sa-1"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1","subagentRunId":"sa-1"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"m1","toolCallId":"c1","content":"notes","subagentRunId":"sa-1"}`,
		`{"type":"SUBAGENT_STARTED","subagentRunId":"sa-2","name":"writer","parentSubagentRunId":"sa-1"}`,
		`{"type":"SUBAGENT_ERROR","subagentRunId":"sa-2","message":"no ink","code":"E1"}`,
		`{"type":"SUBAGENT_FINISHED","subagentRunId":"sa-1","result":{"notes":1}}`,
		`{"type":"SUBAGENT_STARTED","subagentRunId":"sa-3","name":"approver"}`,
		`{"type":"SUBAGENT_FINISHED","subagentRunId":"sa-3","outcome":{"type":"suspended","interruptIds":["i1"]}}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"m2","toolCallId":"d1","content":"done"}`,
		`{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`,
	))
	calls := turn.ToolCalls
	if len(calls) != 2 || calls[0].Agent != "" || calls[0].SubagentRunID != "" || calls[1].Agent != "researcher" || calls[1].SubagentRunID != "sa-1" {
		t.Errorf("calls = %+v", calls)
	}
	subs := turn.Subagents
	if len(subs) != 3 {
		t.Fatalf("subagents = %+v", subs)
	}
	if s := subs[0]; s.Name != "researcher" || s.Description != "finds notes" || s.ParentToolCallID != "d1" || s.Status != trace.SubagentFinished ||
		string(s.Result) != `{"notes":1}` || s.StartSeq != 4 || s.EndSeq != 11 {
		t.Errorf("researcher = %+v", s)
	}
	if s := subs[1]; s.Name != "writer" || s.ParentRunID != "sa-1" || s.Status != trace.SubagentFailed || s.Error != "no ink" || s.Code != "E1" {
		t.Errorf("writer = %+v", s)
	}
	if s := subs[2]; s.Status != trace.SubagentSuspended {
		t.Errorf("approver = %+v", s)
	}
}
