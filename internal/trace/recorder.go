package trace

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/ananke/action/internal/agui"
)

// Recorder builds a Trace from the events of a test's runs. It is not safe
// for concurrent use: one test, one recorder.
type Recorder struct {
	t    Trace
	seq  int64
	turn *Turn
	// per-turn assembly; builders keep text and arguments linear in the
	// size of the stream.
	calls map[string]*callBuild
	texts map[string]*strings.Builder
	order []*strings.Builder
}

type callBuild struct {
	index int // in turn.ToolCalls
	args  strings.Builder
	ended bool
}

// NewRecorder starts an empty trace.
func NewRecorder() *Recorder { return &Recorder{} }

// SetHistory records the messages placed before the first turn.
func (r *Recorder) SetHistory(msgs []Message) { r.t.History = msgs }

// StartTurn opens turn index.
func (r *Recorder) StartTurn(index int, kind, user string, at time.Time) {
	r.t.Turns = append(r.t.Turns, Turn{Index: index, Kind: kind, UserText: user, StartMs: at.UnixMilli(),
		ToolCalls: []ToolCall{}, Texts: []string{}, Runs: []Run{}, Events: []Event{}})
	r.turn = &r.t.Turns[len(r.t.Turns)-1]
	if len(r.t.Turns) == 1 {
		r.t.TestStartMs = r.turn.StartMs
	}
	r.calls, r.texts, r.order = map[string]*callBuild{}, map[string]*strings.Builder{}, nil
}

// Attach records the files the current turn's user message carries.
func (r *Recorder) Attach(atts []Attachment) { r.turn.Attachments = atts }

// StartRun opens a run of the current turn.
func (r *Recorder) StartRun(runID string, at time.Time) {
	r.turn.Runs = append(r.turn.Runs, Run{RunID: runID, StartMs: at.UnixMilli(), FirstSeq: r.seq + 1})
}

// EndRun closes the current run, keeping the request body that was sent.
func (r *Recorder) EndRun(frames int, request json.RawMessage, at time.Time) {
	run := &r.turn.Runs[len(r.turn.Runs)-1]
	run.EndMs, run.Frames, run.Request = at.UnixMilli(), frames, request
}

// Seq maps a frame index of the current run to its sequence number (0 for
// the response as a whole).
func (r *Recorder) Seq(frame int) int64 {
	if frame <= 0 || len(r.turn.Runs) == 0 {
		return 0
	}
	return r.turn.Runs[len(r.turn.Runs)-1].FirstSeq + int64(frame) - 1
}

// Observe is an agui.Observer: it records the raw frame and applies the
// events it expanded to.
func (r *Recorder) Observe(f agui.Frame, events []agui.Event, _ []agui.Problem) {
	at := f.Received.UnixMilli()
	seq := r.seq
	if f.Index > 0 {
		r.seq++
		seq = r.seq
		r.turn.Events = append(r.turn.Events, Event{Seq: seq, ReceivedMs: at, Run: len(r.turn.Runs) - 1,
			Type: f.Type, Timestamp: f.Timestamp, Raw: json.RawMessage(f.Data)})
		if run := &r.turn.Runs[len(r.turn.Runs)-1]; run.FirstEventMs == 0 {
			run.FirstEventMs = at
		}
	}
	for i := range events {
		r.apply(&events[i], at, seq)
	}
}

func (r *Recorder) apply(ev *agui.Event, at, seq int64) {
	switch ev.Type {
	case agui.ToolCallStart:
		if r.calls[ev.ToolCallID] != nil {
			return // a replayed start of a known call
		}
		r.turn.ToolCalls = append(r.turn.ToolCalls, ToolCall{ID: ev.ToolCallID, Name: ev.ToolCallName, Turn: r.turn.Index, StartedMs: at, StartSeq: seq})
		r.calls[ev.ToolCallID] = &callBuild{index: len(r.turn.ToolCalls) - 1}
	case agui.ToolCallArgs:
		if c := r.calls[ev.ToolCallID]; c != nil {
			c.args.WriteString(ev.Delta)
		}
	case agui.ToolCallEnd:
		if c := r.calls[ev.ToolCallID]; c != nil && !c.ended {
			c.ended = true
			tc := &r.turn.ToolCalls[c.index]
			tc.EndedMs, tc.EndSeq = at, seq
			if tc.Result == nil {
				tc.TimestampMs = at
			}
		}
	case agui.ToolCallResult:
		if c := r.calls[ev.ToolCallID]; c != nil {
			tc := &r.turn.ToolCalls[c.index]
			tc.Result = resultOf(ev.Content)
			tc.TimestampMs, tc.ResultSeq = at, seq
		}
	case agui.TextMessageStart:
		if ev.Role != "" && ev.Role != agui.RoleAssistant {
			return // developer/system/user text is not the assistant's answer
		}
		if r.texts[ev.MessageID] == nil {
			b := &strings.Builder{}
			r.texts[ev.MessageID] = b
			r.order = append(r.order, b)
		}
	case agui.TextMessageContent:
		if b := r.texts[ev.MessageID]; b != nil {
			b.WriteString(ev.Delta)
			if r.turn.FirstTextMs == 0 && ev.Delta != "" {
				r.turn.FirstTextMs, r.turn.FirstTextSeq = at, seq
			}
		}
	case agui.RunError:
		r.turn.RunErrors = append(r.turn.RunErrors, RunError{Message: ev.Message, Code: ev.Code, Seq: seq})
	}
}

// resultOf turns TOOL_CALL_RESULT content (a JSON string, or a list of
// content parts) into a Result.
func resultOf(content json.RawMessage) *Result {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return &Result{Content: s, JSON: json.Valid([]byte(s))}
	}
	return &Result{Content: string(content), JSON: true}
}

// ClientResult records the answer Ananke gave to a client tool call.
func (r *Recorder) ClientResult(callID, content string, at time.Time) {
	c := r.calls[callID]
	if c == nil {
		return
	}
	tc := &r.turn.ToolCalls[c.index]
	tc.Client = true
	tc.Result = &Result{Content: content, JSON: json.Valid([]byte(content))}
	tc.TimestampMs = at.UnixMilli()
}

// EndTurn closes the current turn: text and arguments are materialized.
func (r *Recorder) EndTurn(at time.Time, state json.RawMessage) *Turn {
	t := r.turn
	t.EndMs, t.State = at.UnixMilli(), state
	r.t.TestEndMs = t.EndMs
	for _, c := range r.calls {
		tc := &t.ToolCalls[c.index]
		tc.Args = c.args.String()
		tc.ArgsJSON = json.Valid([]byte(tc.Args))
		if tc.TimestampMs == 0 {
			tc.TimestampMs = tc.StartedMs // never completed
		}
	}
	for _, b := range r.order {
		t.Texts = append(t.Texts, b.String())
	}
	r.calls, r.texts, r.order = nil, nil, nil
	return t
}

// Trace returns the trace recorded so far.
func (r *Recorder) Trace() *Trace { return &r.t }
