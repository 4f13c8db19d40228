package trace

import (
	"encoding/json"
	"time"

	"github.com/ananke/action/internal/agui"
)

// The methods below record a run of a protocol other than AG-UI (A2A,
// MCP): its adapter decodes the protocol itself and says what happened,
// where an AG-UI run is recorded from its events (Observe).

// Record keeps one raw protocol message of the current run and returns its
// sequence number. It is kept in an envelope naming its type, as an AG-UI
// event names its own: {"type": typ, "data": data}, typ being e.g.
// "a2a:status-update" or "mcp:tools/call", data the message as received
// (a JSON string when it is not JSON).
func (r *Recorder) Record(typ string, data json.RawMessage, at time.Time) int64 {
	if !json.Valid(data) {
		data, _ = json.Marshal(string(data))
	}
	env, _ := json.Marshal(struct {
		Type string          `json:"type"`
		Data json.RawMessage `json:"data"`
	}{typ, data})
	r.Observe(agui.Frame{Index: 1, Received: at, Type: typ, Data: env}, nil, nil)
	return r.seq
}

// Text appends delta to the assistant message id of the current turn (a
// new message when id is new); seq is the event it came in.
func (r *Recorder) Text(id, delta string, at time.Time, seq int64) {
	if _, ok := r.texts[id]; !ok {
		r.texts[id] = ""
		r.order = append(r.order, id)
	}
	r.texts[id] += delta
	if r.turn.FirstTextMs == 0 && delta != "" {
		r.turn.FirstTextMs, r.turn.FirstTextSeq = at.UnixMilli(), seq
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

// RunError records an error the agent reported (a failed task, an error
// answer): it fails the turn as an AG-UI RUN_ERROR does.
func (r *Recorder) RunError(message, code string, seq int64) {
	r.turn.RunErrors = append(r.turn.RunErrors, RunError{Message: message, Code: code, Seq: seq})
}

// SetSource records where the trace came from and what it can show.
func (r *Recorder) SetSource(s Source) { r.t.Source = &s }
