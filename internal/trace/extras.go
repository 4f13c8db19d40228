package trace

import (
	"encoding/json"
	"time"
)

// What a turn shows beside its text and tool calls: the agent's visible
// reasoning, its activity messages and the sub-agent runs it started. The
// recorder's methods for them name no protocol either (docs/protocol.md
// says what AG-UI maps to them).

// Sub-agent run statuses.
const (
	SubagentRunning   = "running"   // started, not ended (a truncated run)
	SubagentFinished  = "finished"  // ended with success
	SubagentSuspended = "suspended" // ended waiting on interrupts
	SubagentFailed    = "error"     // ended with an error
)

// Activity is one activity message of the agent (a progress card, a plan,
// a search's status: anything the agent shows beside the conversation),
// as it stood after the turn's last update of it.
type Activity struct {
	// ID is the activity message's id, Type its activity type.
	ID   string `json:"id"`
	Type string `json:"type"`
	// Content is the activity's content after the turn's last update.
	Content json.RawMessage `json:"content"`
	// Updates counts the turn's snapshots and patches of it; FirstSeq and
	// LastSeq are the first and the last, at FirstMs and LastMs.
	Updates  int   `json:"updates"`
	FirstSeq int64 `json:"first_seq"`
	LastSeq  int64 `json:"last_seq"`
	FirstMs  int64 `json:"first_ms"`
	LastMs   int64 `json:"last_ms"`
}

// Subagent is one sub-agent run the agent started in the turn; the tool
// calls made in it name it (ToolCall.Agent, ToolCall.SubagentRunID).
type Subagent struct {
	RunID       string `json:"run_id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// ParentRunID is the sub-agent run that started this one ("": the
	// main agent); ParentToolCallID the tool call that started it, when
	// the agent says.
	ParentRunID      string `json:"parent_run_id,omitempty"`
	ParentToolCallID string `json:"parent_tool_call_id,omitempty"`
	// Status is SubagentRunning, SubagentFinished, SubagentSuspended or
	// SubagentFailed; Error and Code say why it failed.
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
	Code   string `json:"code,omitempty"`
	// Result is what it returned, when the agent said.
	Result    json.RawMessage `json:"result,omitempty"`
	StartedMs int64           `json:"started_ms"`
	EndedMs   int64           `json:"ended_ms,omitempty"`
	StartSeq  int64           `json:"start_seq"`
	EndSeq    int64           `json:"end_seq,omitempty"`
}

// extras is the recorder's per-turn assembly of reasoning, activities and
// sub-agents.
type extras struct {
	reasoning map[string]string // reasoning message id → its text so far
	order     []string          // the ids, in the order they started
	// activities and subagents index the turn's Activities and Subagents.
	activities map[string]int
	subagents  map[string]int
	// names holds every sub-agent run of the test by id, for calls made in
	// a run that started in an earlier turn.
	names map[string]string
}

func (x *extras) startTurn() {
	x.reasoning, x.order = map[string]string{}, nil
	x.activities, x.subagents = map[string]int{}, map[string]int{}
}

// endTurn gives the turn its reasoning texts.
func (x *extras) endTurn(t *Turn) {
	for _, id := range x.order {
		t.Reasoning = append(t.Reasoning, x.reasoning[id])
	}
	x.reasoning, x.order = nil, nil
}

// StartReasoning starts reasoning message id in the current turn (nothing
// when it started already): its text comes whole (SetReasoning).
func (r *Recorder) StartReasoning(id string) {
	if _, ok := r.x.reasoning[id]; !ok {
		r.x.reasoning[id] = ""
		r.x.order = append(r.x.order, id)
	}
}

// SetReasoning sets the text of started reasoning message id from its
// whole text so far; a message the turn did not start is left alone.
func (r *Recorder) SetReasoning(id, whole string) {
	if _, ok := r.x.reasoning[id]; ok {
		r.x.reasoning[id] = whole
	}
}

// ReasoningStarted reports whether the current turn started reasoning
// message id.
func (r *Recorder) ReasoningStarted(id string) bool {
	_, ok := r.x.reasoning[id]
	return ok
}

// Activity records an update of activity message id, of type typ, whose
// content is now content; seq is the event it came in.
func (r *Recorder) Activity(id, typ string, content json.RawMessage, at time.Time, seq int64) {
	ms := at.UnixMilli()
	i, ok := r.x.activities[id]
	if !ok {
		r.turn.Activities = append(r.turn.Activities, Activity{ID: id, FirstSeq: seq, FirstMs: ms})
		i = len(r.turn.Activities) - 1
		r.x.activities[id] = i
	}
	a := &r.turn.Activities[i]
	a.Type, a.Content, a.LastSeq, a.LastMs = typ, content, seq, ms
	a.Updates++
}

// StartSubagent records the start of sub-agent run s (its RunID, Name,
// Description and parents) in event seq; a run started already is left
// alone.
func (r *Recorder) StartSubagent(s Subagent, at time.Time, seq int64) {
	if _, ok := r.x.subagents[s.RunID]; ok {
		return
	}
	s.Status, s.StartedMs, s.StartSeq = SubagentRunning, at.UnixMilli(), seq
	r.turn.Subagents = append(r.turn.Subagents, s)
	r.x.subagents[s.RunID] = len(r.turn.Subagents) - 1
	if r.x.names == nil {
		r.x.names = map[string]string{}
	}
	r.x.names[s.RunID] = s.Name
}

// EndSubagent records the end of sub-agent run id, started in this turn,
// with status (SubagentFinished, SubagentSuspended or SubagentFailed), the
// error and code of a failure and the result it returned.
func (r *Recorder) EndSubagent(id, status, message, code string, result json.RawMessage, at time.Time, seq int64) {
	i, ok := r.x.subagents[id]
	if !ok {
		return
	}
	s := &r.turn.Subagents[i]
	s.Status, s.Error, s.Code, s.Result = status, message, code, result
	s.EndedMs, s.EndSeq = at.UnixMilli(), seq
}

// CallAgent attributes started call callID to sub-agent run runID: the
// call's Agent is the run's name (its id, for a run never started).
func (r *Recorder) CallAgent(callID, runID string) {
	c := r.calls[callID]
	if c == nil || runID == "" {
		return
	}
	tc := &r.turn.ToolCalls[c.index]
	tc.SubagentRunID, tc.Agent = runID, runID
	if name := r.x.names[runID]; name != "" {
		tc.Agent = name
	}
}
