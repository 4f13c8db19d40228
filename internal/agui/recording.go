package agui

import (
	"encoding/json"
	"time"

	"github.com/ananke/action/internal/trace"
)

// Recording writes the runs of a turn into a trace: each frame is kept as
// an event, and the events say what the trace shows of them — tool calls
// with their arguments and results, the assistant's messages, the errors
// the agent sent. The engine's recorder opens and closes turns and runs;
// Recording fills them.
type Recording struct {
	rec *trace.Recorder
	// activities holds each activity message's content as the agent's
	// snapshots and patches left it, across the session's turns.
	activities map[string]json.RawMessage
}

// NewRecording records into rec.
func NewRecording(rec *trace.Recorder) *Recording { return &Recording{rec: rec} }

// Observe is an Observer: it keeps the raw frame and applies the events
// it expanded to. Events without a frame of their own (Index 0, closing
// chunk streams at the end) belong to the last event kept.
func (w *Recording) Observe(f Frame, events []Event, _ []Problem) {
	seq := w.rec.LastSeq()
	if f.Index > 0 {
		data := f.Data
		if len(events) == 0 && !json.Valid(data) {
			// Kept as a JSON string, so the trace file stays JSON.
			data, _ = json.Marshal(string(data))
		}
		seq = w.rec.Event(f.Type, f.Timestamp, data, f.Received)
	}
	for i := range events {
		w.apply(&events[i], f.Received, seq)
	}
}

func (w *Recording) apply(ev *Event, at time.Time, seq int64) {
	switch ev.Type {
	case ToolCallStart:
		w.rec.StartCall(ev.ToolCallID, ev.ToolCallName, at, seq)
	case ToolCallArgs:
		w.rec.CallArgs(ev.ToolCallID, ev.Delta)
	case ToolCallEnd:
		w.rec.EndCall(ev.ToolCallID, at, seq)
	case ToolCallResult:
		w.rec.CallResult(ev.ToolCallID, resultOf(ev.Content), at, seq)
	case TextMessageStart:
		if ev.Role != "" && ev.Role != RoleAssistant {
			return // developer/system/user text is not the assistant's answer
		}
		w.rec.StartText(ev.MessageID)
	case TextMessageContent:
		if ev.Delta != "" {
			w.rec.TextArrived(ev.MessageID, at, seq)
		}
	case RunError:
		w.rec.RunError(ev.Message, ev.Code, seq)
	default:
		w.applyExtra(ev, at, seq)
	}
	if ev.Type == ToolCallStart && ev.SubagentRunID != "" {
		w.rec.CallAgent(ev.ToolCallID, ev.SubagentRunID)
	}
}

// resultOf turns TOOL_CALL_RESULT content (a JSON string, or a list of
// content parts) into a Result.
func resultOf(content json.RawMessage) *trace.Result {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return &trace.Result{Content: s, JSON: json.Valid([]byte(s))}
	}
	return &trace.Result{Content: string(content), JSON: true}
}

// EndRun closes the run, keeping the request body that was sent, and
// takes the texts of the assistant and reasoning messages the run
// streamed from the client (msgs, its Result.Streamed): the client holds
// them already, so a long reply is held once. A message reopened in a
// later run carries its whole text.
func (w *Recording) EndRun(frames int, request json.RawMessage, msgs []Message, at time.Time) {
	w.rec.EndRun(frames, request, at)
	for i := range msgs {
		m := &msgs[i]
		switch {
		case m.Role == RoleAssistant && w.rec.TextStarted(m.ID):
			if s, ok := m.TextContent(); ok {
				w.rec.SetText(m.ID, s)
			}
		case m.Role == RoleReasoning && w.rec.ReasoningStarted(m.ID):
			if s, ok := m.TextContent(); ok {
				w.rec.SetReasoning(m.ID, s)
			}
		}
	}
}
