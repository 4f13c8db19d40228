package trace

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"
	"unsafe"

	"github.com/ananke/action/internal/cost"
)

// Recorder builds a Trace from the events of a test's runs. Its methods
// name no protocol: a session (a target.Session) says what its protocol's
// messages mean — an event kept, a text, a tool call, an error — and the
// recorder numbers, times and spools them. It is not safe for concurrent
// use: one test, one recorder.
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
	// stream. A session whose client assembles the assistant's texts for
	// its conversation already gives them whole (SetText), so a long reply
	// is held once.
	calls map[string]*callBuild
	texts map[string]string // assistant message id → its text so far
	order []string          // the ids, in the order the messages started
	// earlier holds, for a message id of an earlier turn, the length of
	// its text then: a producer that reuses an id appends to that
	// message, and this turn's text is what follows (SetText).
	earlier map[string]int
	// x assembles the turn's reasoning, activities and sub-agents
	// (extras.go).
	x extras
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
	r.x.startTurn()
}

// Attach records the files the current turn's user message carries.
func (r *Recorder) Attach(atts []Attachment) { r.turn.Attachments = atts }

// AgentFile records a file the agent sent in the current turn.
func (r *Recorder) AgentFile(a Attachment) { r.turn.AgentFiles = append(r.turn.AgentFiles, a) }

// StartRun opens a run of the current turn.
func (r *Recorder) StartRun(runID string, at time.Time) {
	r.turn.Runs = append(r.turn.Runs, Run{RunID: runID, StartMs: at.UnixMilli(), FirstSeq: r.seq + 1})
}

// EndRun closes the current run: frames is how many events it received,
// request the request body that was sent.
func (r *Recorder) EndRun(frames int, request json.RawMessage, at time.Time) {
	run := &r.turn.Runs[len(r.turn.Runs)-1]
	run.EndMs, run.Frames, run.Request = at.UnixMilli(), frames, request
}

// RunUsage records what the current run reported using (nil: it
// reported nothing). EndTurn sums the turn's runs.
func (r *Recorder) RunUsage(s *cost.Spend) {
	r.turn.Runs[len(r.turn.Runs)-1].Usage = s
}

// Seq maps a frame index of the current run to its sequence number (0 for
// the response as a whole).
func (r *Recorder) Seq(frame int) int64 {
	if frame <= 0 || len(r.turn.Runs) == 0 {
		return 0
	}
	return r.turn.Runs[len(r.turn.Runs)-1].FirstSeq + int64(frame) - 1
}

// LastSeq is the sequence number of the last event kept (0: none yet).
func (r *Recorder) LastSeq() int64 { return r.seq }

// Event keeps one raw event of the current run, received at at, and
// returns its sequence number: typ is its type, producerMs the producer's
// own timestamp (0: none) and raw its bytes, which must be JSON. raw may
// be the caller's buffer: it is copied when kept in memory.
func (r *Recorder) Event(typ string, producerMs int64, raw []byte, at time.Time) int64 {
	ms := at.UnixMilli()
	r.seq++
	seq := r.seq
	if sp := r.turn.spooled; sp != nil {
		sp.to = r.spool.append(seq, ms, len(r.turn.Runs)-1, raw)
		sp.types = append(sp.types, r.names.code(typ))
	} else {
		r.turn.Events = append(r.turn.Events, Event{Seq: seq, ReceivedMs: ms, Run: len(r.turn.Runs) - 1,
			Type: typ, Timestamp: producerMs, Raw: bytes.Clone(raw)})
		if r.inMemory += len(raw) + eventSize; r.spillDir != "" && r.spool == nil && r.inMemory > r.spillBytes {
			r.spill()
		}
	}
	if run := &r.turn.Runs[len(r.turn.Runs)-1]; run.FirstEventMs == 0 {
		run.FirstEventMs = ms
	}
	return seq
}

// StartCall records the start of a tool call of the current turn whose
// arguments stream in (CallArgs) until it ends (EndCall); seq is the event
// it started in. A start of a call the turn started already is ignored.
func (r *Recorder) StartCall(id, name string, at time.Time, seq int64) {
	if r.calls[id] != nil {
		return // a replayed start of a known call
	}
	r.turn.ToolCalls = append(r.turn.ToolCalls, ToolCall{ID: id, Name: name, Turn: r.turn.Index, StartedMs: at.UnixMilli(), StartSeq: seq})
	r.calls[id] = &callBuild{index: len(r.turn.ToolCalls) - 1}
}

// CallArgs appends delta to the arguments of started call id.
func (r *Recorder) CallArgs(id, delta string) {
	if c := r.calls[id]; c != nil {
		c.args.WriteString(delta)
	}
}

// EndCall records the end of started call id (its first end only): a call
// without a result completes then.
func (r *Recorder) EndCall(id string, at time.Time, seq int64) {
	if c := r.calls[id]; c != nil && !c.ended {
		c.ended = true
		tc := &r.turn.ToolCalls[c.index]
		tc.EndedMs, tc.EndSeq = at.UnixMilli(), seq
		if tc.Result == nil {
			tc.TimestampMs = tc.EndedMs
		}
	}
}

// CallResult records the result of started call id, which completes it;
// seq is the event it came in.
func (r *Recorder) CallResult(id string, res *Result, at time.Time, seq int64) {
	if c := r.calls[id]; c != nil {
		tc := &r.turn.ToolCalls[c.index]
		tc.Result = res
		tc.TimestampMs, tc.ResultSeq = at.UnixMilli(), seq
	}
}

// StartText starts assistant message id in the current turn (nothing when
// it started already): its text comes whole (SetText) or in deltas
// (Text).
func (r *Recorder) StartText(id string) {
	if _, ok := r.texts[id]; !ok {
		r.texts[id] = ""
		r.order = append(r.order, id)
	}
}

// TextStarted reports whether the current turn started message id.
func (r *Recorder) TextStarted(id string) bool {
	_, ok := r.texts[id]
	return ok
}

// TextArrived notes that text of started message id arrived in event seq:
// the turn's first text, when it has none yet.
func (r *Recorder) TextArrived(id string, at time.Time, seq int64) {
	if _, ok := r.texts[id]; ok && r.turn.FirstTextMs == 0 {
		r.turn.FirstTextMs, r.turn.FirstTextSeq = at.UnixMilli(), seq
	}
}

// SetText sets the text of started message id from its whole text so far:
// what earlier turns recorded of the same message is cut off. A message
// the turn did not start is left alone.
func (r *Recorder) SetText(id, whole string) {
	if _, ok := r.texts[id]; !ok {
		return
	}
	if n := r.earlier[id]; n <= len(whole) {
		whole = whole[n:]
	}
	r.texts[id] = whole
}

// ClientResult records the answer Ananke gave to started call id, a call
// of a client tool.
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

// EndTurn closes the current turn: text and arguments are materialized,
// and its usage is the sum of its runs'.
func (r *Recorder) EndTurn(at time.Time, state json.RawMessage) *Turn {
	t := r.turn
	t.EndMs, t.State = at.UnixMilli(), state
	t.Usage = runsUsage(t.Runs)
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
	r.x.endTurn(t)
	return t
}

// runsUsage is what runs used: each run that reported usage a part of
// it, each that did not a part unreported; nil when none reported.
func runsUsage(runs []Run) *cost.Spend {
	var s *cost.Spend
	for i := range runs {
		if runs[i].Usage != nil {
			s = &cost.Spend{}
			break
		}
	}
	if s == nil {
		return nil
	}
	for i := range runs {
		if u := runs[i].Usage; u != nil {
			s.Merge(u, 0)
		} else {
			s.Missing()
		}
	}
	return s
}

// Trace returns the trace recorded so far.
func (r *Recorder) Trace() *Trace { return &r.t }
