package agui

import (
	"encoding/json"
	"time"

	"github.com/ananke/action/internal/trace"
)

// applyExtra records what a turn shows beside its text and calls: the
// reasoning messages started, the activity messages updated and the
// sub-agent runs started and ended (docs/protocol.md, "What the trace
// keeps").
func (w *Recording) applyExtra(ev *Event, at time.Time, seq int64) {
	switch ev.Type {
	case ReasoningMessageStart:
		w.rec.StartReasoning(ev.MessageID)
	case ActivitySnapshot:
		if w.activities == nil {
			w.activities = map[string]json.RawMessage{}
		}
		old, known := w.activities[ev.MessageID]
		content := old
		if !known || ev.Replace == nil || *ev.Replace {
			content = ev.Content
		}
		w.activities[ev.MessageID] = content
		w.rec.Activity(ev.MessageID, ev.ActivityType, content, at, seq)
	case ActivityDelta:
		old, known := w.activities[ev.MessageID]
		if !known {
			return // the client warned: a patch of an activity never created
		}
		next, err := patch(old, ev.Patch)
		if err != nil {
			return // the client warned: the patch does not apply
		}
		w.activities[ev.MessageID] = next
		w.rec.Activity(ev.MessageID, ev.ActivityType, next, at, seq)
	case SubagentStarted:
		w.rec.StartSubagent(trace.Subagent{RunID: ev.SubagentRunID, Name: ev.Name, Description: ev.Description,
			ParentRunID: ev.ParentSubagentRunID, ParentToolCallID: ev.ParentToolCallID}, at, seq)
	case SubagentFinished:
		status := trace.SubagentFinished
		if ev.Outcome != nil && ev.Outcome.Type == "suspended" {
			status = trace.SubagentSuspended
		}
		w.rec.EndSubagent(ev.SubagentRunID, status, "", "", ev.Result, at, seq)
	case SubagentError:
		w.rec.EndSubagent(ev.SubagentRunID, trace.SubagentFailed, ev.Message, ev.Code, nil, at, seq)
	}
}
