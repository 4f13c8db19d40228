package agui_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/ananke/action/internal/agui"
	"github.com/ananke/action/internal/agui/aguitest"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// TestSessionSnapshotsAndSubagents: over a session's turns, a closing
// MESSAGES_SNAPSHOT (LangGraph's shape: the reasoning under another id, the
// streamed text left out) becomes the history the next run sends, while each
// turn keeps the text, reasoning and calls it streamed; the calls of a
// sub-agent run are its, and activity messages are never sent back.
func TestSessionSnapshotsAndSubagents(t *testing.T) {
	snapshot := aguitest.E{"type": agui.MessagesSnapshot, "messages": []aguitest.E{
		{"id": "u-thread", "role": "user", "content": "think"},
		{"id": "m1-reasoning-0", "role": "reasoning", "content": "Secret plan."},
		{"id": "m1", "role": "assistant", "content": "Thread's copy."}}}
	srv := aguitest.New(t, func(r *aguitest.Request) aguitest.Response {
		in := r.Input
		if len(in.Messages) == 1 {
			return aguitest.Response{Events: aguitest.Run(in, aguitest.Seq(
				[]aguitest.E{
					{"type": agui.ReasoningMessageStart, "messageId": "uuid-r", "role": "reasoning"},
					{"type": agui.ReasoningMessageContent, "messageId": "uuid-r", "delta": "Secret plan."},
					{"type": agui.ReasoningMessageEnd, "messageId": "uuid-r"}},
				aguitest.Text("m-streamed", "Streamed answer."),
				[]aguitest.E{snapshot, {"type": agui.ActivitySnapshot, "messageId": "act", "activityType": "PLAN", "content": aguitest.E{"done": 0}}})...)}
		}
		return aguitest.Response{Events: aguitest.Run(in, aguitest.Seq(
			[]aguitest.E{{"type": agui.SubagentStarted, "subagentRunId": "sa-1", "name": "researcher"}},
			[]aguitest.E{
				{"type": agui.ToolCallStart, "toolCallId": "c1", "toolCallName": "search", "subagentRunId": "sa-1"},
				{"type": agui.ToolCallEnd, "toolCallId": "c1", "subagentRunId": "sa-1"},
				{"type": agui.ToolCallResult, "messageId": "r1", "toolCallId": "c1", "content": "found", "subagentRunId": "sa-1"},
				{"type": agui.SubagentFinished, "subagentRunId": "sa-1"}},
			aguitest.Text("m2", "Researched."))...)}
	})
	s := sessionFor(srv, agui.SessionOptions{MaxFollowups: 1})
	rec := trace.NewRecorder()
	for i, text := range []string{"think", "research"} {
		rec.StartTurn(i, target.TurnUser, text, time.UnixMilli(0))
		out, err := s.Turn(context.Background(), target.Turn{Index: i, Type: target.TurnUser, Text: text}, rec)
		if err != nil || len(out.Violations) > 0 {
			t.Fatalf("turn %d: %v %+v", i, err, out.Violations)
		}
		rec.EndTurn(time.UnixMilli(0), s.State())
	}
	tr := rec.Trace()
	if t0 := tr.Turns[0]; t0.Text() != "Streamed answer." || !slices.Equal(t0.Reasoning, []string{"Secret plan."}) || len(t0.Activities) != 1 {
		t.Errorf("turn 0: text %q, reasoning %q, activities %+v", t0.Text(), t0.Reasoning, t0.Activities)
	}
	t1 := tr.Turns[1]
	if t1.Text() != "Researched." || len(t1.Reasoning) != 0 || len(t1.ToolCalls) != 1 || t1.ToolCalls[0].Agent != "researcher" ||
		len(t1.Subagents) != 1 || t1.Subagents[0].Status != trace.SubagentFinished {
		t.Errorf("turn 1: text %q, reasoning %q, calls %+v, subagents %+v", t1.Text(), t1.Reasoning, t1.ToolCalls, t1.Subagents)
	}
	var ids []string
	for _, m := range srv.Requests()[1].Input.Messages {
		ids = append(ids, m.ID)
	}
	if want := []string{"u-thread", "m1-reasoning-0", "m1", "id4"}; !slices.Equal(ids, want) {
		t.Errorf("turn 1 sent messages %q, want the snapshot's, then the user's", ids)
	}
}
