package trace

import (
	"slices"

	"github.com/ananke/action/internal/capability"
)

// Source says where a trace came from (docs/imports.md): the adapter that
// produced it, its version, what it can observe, and the runtime context it
// preserved (group, session, task).
type Source struct {
	// Adapter is "ag-ui" for runs of an AG-UI agent (live or replayed),
	// or the format of an imported transcript ("claude-transcript",
	// "nanoclaw").
	Adapter string `json:"adapter"`
	Version string `json:"version"`
	// Mode is "live", "replay" or "import".
	Mode         string   `json:"mode"`
	Capabilities []string `json:"capabilities"`
	// Path is the imported file or folder, as the test wrote it.
	Path      string `json:"path,omitempty"`
	AgentID   string `json:"agent_id,omitempty"`
	GroupID   string `json:"group_id,omitempty"`
	SessionID string `json:"session_id,omitempty"`
	TaskID    string `json:"task_id,omitempty"`
	// Scheduler is the scheduled task the trace's run served, when it was
	// triggered by a scheduler.
	Scheduler *Scheduler `json:"scheduler,omitempty"`
}

// Caps returns the source's capabilities. A trace without a source is an
// AG-UI run.
func (s *Source) Caps() []string {
	if s == nil {
		return capability.AGUI
	}
	return s.Capabilities
}

// UsageReported reports whether some turn of the trace reported usage.
func (t *Trace) UsageReported() bool {
	for i := range t.Turns {
		if t.Turns[i].Usage != nil {
			return true
		}
	}
	return false
}

// Caps returns the trace's capabilities: its source's, capability.Usage
// when some turn reported usage, and what Ananke's backend observed
// (Backend).
func (t *Trace) Caps() []string {
	return withCaps(t.Source.Caps(), t.UsageReported(), t.Backend())
}

// Backend lists the capabilities the trace has from Ananke's backend
// (docs/backend.md), beyond its source's: capability.ToolTrace when the
// attempt was bound to the tool doubles or some call was served by them
// (every call to a double is recorded, streamed or not), or some call was
// found in the agent's spans (an agent that reports its tool calls in
// GenAI spans, docs/opentelemetry.md); capability.ModelCalls when it was
// bound to the model gateway; capability.Spans when the agent's spans
// arrived.
func (t *Trace) Backend() []string {
	var out []string
	if t.Doubles || t.callWhere(func(c *ToolCall) bool { return c.Served != nil || c.Source == SourceSpans }) {
		out = append(out, capability.ToolTrace)
	}
	if t.Gateway {
		out = append(out, capability.ModelCalls)
	}
	if len(t.Spans) > 0 {
		out = append(out, capability.Spans)
	}
	return out
}

// callWhere reports whether some call of the trace is one ok accepts.
func (t *Trace) callWhere(ok func(*ToolCall) bool) bool {
	for i := range t.Turns {
		for j := range t.Turns[i].ToolCalls {
			if ok(&t.Turns[i].ToolCalls[j]) {
				return true
			}
		}
	}
	return false
}

// withCaps adds capability.Usage, when usage was reported, and more to a
// source's capabilities, in capability.All's order.
func withCaps(caps []string, usage bool, more []string) []string {
	if usage {
		more = append(more, capability.Usage)
	}
	var add []string
	for _, c := range more {
		if !slices.Contains(caps, c) && !slices.Contains(add, c) {
			add = append(add, c)
		}
	}
	if len(add) == 0 {
		return caps
	}
	out := make([]string, 0, len(caps)+len(add))
	for _, c := range capability.All {
		if slices.Contains(caps, c) || slices.Contains(add, c) {
			out = append(out, c)
		}
	}
	for _, c := range caps { // none today: a flag All does not know
		if !capability.Known(c) {
			out = append(out, c)
		}
	}
	return out
}

// Has reports whether the source declares capability c.
func (s *Source) Has(c string) bool { return slices.Contains(s.Caps(), c) }

// Scheduler is a scheduled task and its recorded runs.
type Scheduler struct {
	TaskID string `json:"task_id"`
	// Trigger is how the run started: "scheduler" (or "user_message").
	Trigger       string `json:"trigger"`
	ScheduleType  string `json:"schedule_type,omitempty"`  // cron, interval, once
	ScheduleValue string `json:"schedule_value,omitempty"` // the cron expression, milliseconds, or time
	ScheduledFor  string `json:"scheduled_for,omitempty"`
	Timezone      string `json:"timezone,omitempty"`
	ContextMode   string `json:"context_mode,omitempty"` // group or isolated
	Prompt        string `json:"prompt,omitempty"`
	// Runs are the task's recorded runs, oldest first: one per attempt
	// when the scheduler retried.
	Runs []TaskRun `json:"runs"`
}

// TaskRun is one recorded run of a scheduled task.
type TaskRun struct {
	Seq        int64  `json:"seq"`
	RunAt      string `json:"run_at"`
	DurationMs int64  `json:"duration_ms"`
	Status     string `json:"status"` // success or error
	Result     string `json:"result,omitempty"`
	Error      string `json:"error,omitempty"`
}

// Memory operations.
const (
	MemoryRead  = "read"
	MemoryWrite = "write"
)

// MemoryEvent is one read or write of the agent's memory, e.g. a group's
// CLAUDE.md loaded at session start or edited by a tool call.
type MemoryEvent struct {
	Seq         int64  `json:"seq"`
	TimestampMs int64  `json:"timestamp"`
	Op          string `json:"op"`
	// Group is the group whose memory it is ("" when not a group's).
	Group string `json:"group,omitempty"`
	Path  string `json:"path"`
	// Content is what was read or written, when known.
	Content string `json:"content,omitempty"`
	// CallID is the tool call that read or wrote it ("" when the runtime
	// loaded it by itself).
	CallID string `json:"call_id,omitempty"`
}

// Outbound is a message the agent sent out of the conversation, e.g. to a
// chat, by a tool or as a scheduled task's output.
type Outbound struct {
	Seq         int64  `json:"seq"`
	TimestampMs int64  `json:"timestamp"`
	To          string `json:"to,omitempty"`
	Text        string `json:"text"`
	// CallID is the tool call that sent it ("": the runtime sent the
	// run's output).
	CallID string `json:"call_id,omitempty"`
}
