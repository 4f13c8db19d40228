package trace

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"
	"unsafe"

	"github.com/ananke/action/internal/agui"
)

// Recorder builds a Trace from the events of a test's runs. It is not safe
// for concurrent use: one test, one recorder.
type Recorder struct {
	t    Trace
	seq  int64
	turn *Turn
	// spool, when set, receives the raw events instead of memory; with
	// spillDir set, it is created once the events in memory pass
	// spillBytes.
	spool      *Spool
	names      *typeNames
	spillDir   string
	spillBytes int
	inMemory   int // bytes the events kept in memory take, raw and records
	// per-turn assembly; builders keep arguments linear in the size of the
	// stream. The assistant's texts are not assembled here: the client
	// assembles them for the conversation's history already, and EndRun
	// takes them from there, so a long reply is held once.
	calls map[string]*callBuild
	texts map[string]string // assistant message id → its text so far
	order []string          // the ids, in the order the messages started
	// earlier holds, for a message id streamed in an earlier turn, the
	// length of its text then: a producer that reuses an id appends to
	// that message, and this turn's text is what follows.
	earlier map[string]int
}

// eventSize is what an Event record takes in memory beside its raw bytes.
const eventSize = int(unsafe.Sizeof(Event{}))

type callBuild struct {
	index int // in turn.ToolCalls
	args  strings.Builder
	ended bool
}

// NewRecorder starts an empty trace that keeps its raw events in memory.
func NewRecorder() *Recorder { return &Recorder{} }

// NewSpillingRecorder starts an empty trace that keeps its raw events in
// memory until they take limit bytes (their raw bytes and their records:
// a short event's record outweighs it), then moves them to a spool in dir
// and spools the rest as they arrive: a small test costs no file, a large
// one no memory. Close closes the spool, if one was made.
func NewSpillingRecorder(dir string, limit int) *Recorder {
	return &Recorder{spillDir: dir, spillBytes: limit}
}

// Close closes the recorder's spool, if it has one, reporting a failure
// to write it.
func (r *Recorder) Close() error {
	if r.spool == nil {
		return nil
	}
	return r.spool.Close()
}

// spill moves the current turn's events to a new spool, once the events in
// memory pass the limit; the turns after it spool from their start.
func (r *Recorder) spill() {
	s, err := NewSpool(r.spillDir)
	if err != nil {
		r.spillDir = "" // no spool (a full disk): the events stay in memory
		return
	}
	r.spool, r.names = s, &typeNames{index: map[string]uint8{}}
	// Called right after an event was kept: the turn has at least one.
	t := r.turn
	sp := &spooled{spool: s, from: s.off, firstSeq: t.Events[0].Seq, names: r.names}
	for _, e := range t.Events {
		sp.to = s.append(e.Seq, e.ReceivedMs, e.Run, e.Raw)
		sp.types = append(sp.types, r.names.code(e.Type))
	}
	t.Events, t.spooled = nil, sp
}

// SetHistory records the messages placed before the first turn.
func (r *Recorder) SetHistory(msgs []Message) { r.t.History = msgs }

// StartTurn opens turn index.
func (r *Recorder) StartTurn(index int, kind, user string, at time.Time) {
	r.t.Turns = append(r.t.Turns, Turn{Index: index, Kind: kind, UserText: user, StartMs: at.UnixMilli(),
		ToolCalls: []ToolCall{}, Texts: []string{}, Runs: []Run{}, Events: []Event{}})
	r.turn = &r.t.Turns[len(r.t.Turns)-1]
	if r.spool != nil {
		r.turn.spooled = &spooled{spool: r.spool, from: r.spool.off, to: r.spool.off, firstSeq: r.seq + 1, names: r.names}
	}
	if len(r.t.Turns) == 1 {
		r.t.TestStartMs = r.turn.StartMs
	}
	r.calls, r.texts, r.order = map[string]*callBuild{}, map[string]string{}, nil
}

// Attach records the files the current turn's user message carries.
func (r *Recorder) Attach(atts []Attachment) { r.turn.Attachments = atts }

// StartRun opens a run of the current turn.
func (r *Recorder) StartRun(runID string, at time.Time) {
	r.turn.Runs = append(r.turn.Runs, Run{RunID: runID, StartMs: at.UnixMilli(), FirstSeq: r.seq + 1})
}

// EndRun closes the current run, keeping the request body that was sent,
// and takes the texts of the assistant messages the run streamed from the
// conversation the client rebuilt (msgs). A message reopened in a later
// run carries its whole text.
func (r *Recorder) EndRun(frames int, request json.RawMessage, msgs []agui.Message, at time.Time) {
	run := &r.turn.Runs[len(r.turn.Runs)-1]
	run.EndMs, run.Frames, run.Request = at.UnixMilli(), frames, request
	for i := range msgs {
		m := &msgs[i]
		if _, ok := r.texts[m.ID]; ok && m.Role == agui.RoleAssistant {
			if s, ok := m.TextContent(); ok {
				if n := r.earlier[m.ID]; n <= len(s) {
					s = s[n:]
				}
				r.texts[m.ID] = s
			}
		}
	}
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
		if len(events) == 0 && !json.Valid(f.Data) {
			// Kept as a JSON string, so the trace file stays JSON.
			f.Data, _ = json.Marshal(string(f.Data))
		}
		if sp := r.turn.spooled; sp != nil {
			sp.to = r.spool.append(seq, at, len(r.turn.Runs)-1, f.Data)
			sp.types = append(sp.types, r.names.code(f.Type))
		} else {
			// The frame's data is the client's buffer: kept, it is copied.
			r.turn.Events = append(r.turn.Events, Event{Seq: seq, ReceivedMs: at, Run: len(r.turn.Runs) - 1,
				Type: f.Type, Timestamp: f.Timestamp, Raw: bytes.Clone(f.Data)})
			if r.inMemory += len(f.Data) + eventSize; r.spillDir != "" && r.spool == nil && r.inMemory > r.spillBytes {
				r.spill()
			}
		}
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
		if _, ok := r.texts[ev.MessageID]; !ok {
			r.texts[ev.MessageID] = ""
			r.order = append(r.order, ev.MessageID)
		}
	case agui.TextMessageContent:
		if _, ok := r.texts[ev.MessageID]; ok && r.turn.FirstTextMs == 0 && ev.Delta != "" {
			r.turn.FirstTextMs, r.turn.FirstTextSeq = at, seq
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
	if r.earlier == nil {
		r.earlier = map[string]int{}
	}
	for _, id := range r.order {
		t.Texts = append(t.Texts, r.texts[id])
		r.earlier[id] += len(r.texts[id])
	}
	r.calls, r.texts, r.order = nil, nil, nil
	return t
}

// Trace returns the trace recorded so far.
func (r *Recorder) Trace() *Trace { return &r.t }
