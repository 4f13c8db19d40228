package trace

import (
	"encoding/json"
	"time"
)

// The methods below record what a session saw whole: a message in an
// envelope, a text delta, a call with its result, where a stream of
// events is recorded event by event (Event, StartCall, SetText).

// Record keeps one raw protocol message of the current run and returns its
// sequence number. It is kept in an envelope naming its type, for
// messages that do not name their own: {"type": typ, "data": data}, typ
// being e.g. "a2a:status-update" or "mcp:tools/call", data the message as
// received (a JSON string when it is not JSON).
func (r *Recorder) Record(typ string, data json.RawMessage, at time.Time) int64 {
	if !json.Valid(data) {
		data, _ = json.Marshal(string(data))
	}
	env, _ := json.Marshal(struct {
		Type string          `json:"type"`
		Data json.RawMessage `json:"data"`
	}{typ, data})
	return r.Event(typ, 0, env, at)
}

// Text appends delta to the assistant message id of the current turn (a
// new message when id is new); seq is the event it came in.
func (r *Recorder) Text(id, delta string, at time.Time, seq int64) {
	r.StartText(id)
	r.texts[id] += delta
	if delta != "" {
		r.TextArrived(id, at, seq)
	}
}

// AddCall records a tool call the adapter observed whole: its name,
// arguments (Args; ArgsJSON is worked out), result, times and sequence
// numbers. The call's turn is the current one.
func (r *Recorder) AddCall(c ToolCall) {
	c.Turn = r.turn.Index
	c.ArgsJSON = json.Valid([]byte(c.Args))
	if c.TimestampMs == 0 {
		c.TimestampMs = max(c.EndedMs, c.StartedMs)
	}
	r.turn.ToolCalls = append(r.turn.ToolCalls, c)
}

// SetResult sets the result of the current turn's call id, completed at
// at by the event seq (a result that came after its call).
func (r *Recorder) SetResult(id string, res *Result, at time.Time, seq int64) bool {
	for i := range r.turn.ToolCalls {
		if c := &r.turn.ToolCalls[i]; c.ID == id {
			c.Result, c.TimestampMs, c.ResultSeq = res, at.UnixMilli(), seq
			if c.EndedMs == 0 {
				c.EndedMs = c.TimestampMs
			}
			return true
		}
	}
	return false
}

// RunError records an error the agent reported in event seq (an AG-UI
// RUN_ERROR, a failed task, an error answer): it fails the turn.
func (r *Recorder) RunError(message, code string, seq int64) {
	r.turn.RunErrors = append(r.turn.RunErrors, RunError{Message: message, Code: code, Seq: seq})
}

// SetSource records where the trace came from and what it can show.
func (r *Recorder) SetSource(s Source) { r.t.Source = &s }
