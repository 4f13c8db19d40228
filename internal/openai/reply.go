package openai

import (
	"fmt"
	"strings"
	"time"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// reply is what one request's answer said, recorded into the trace as it
// arrives: its events, the assistant's text, its tool calls, its usage,
// the errors the API reported, and what the turn's outcome notes.
type reply struct {
	rec   *trace.Recorder
	now   func() time.Time
	runID string
	// id is the response's id, model the model that answered.
	id, model string
	// text is the assistant's answer (refusals among it), refusal what of
	// it the model refused with.
	text, refusal strings.Builder
	refusalSeq    int64
	// calls are the tool calls the answer asked for, in the order they
	// started, keyed by byKey (a chunk's tool call index, an item's id).
	calls []*call
	byKey map[string]*call
	// texts are the keys of the messages whose text arrived.
	texts map[string]bool
	usage *cost.Usage
	// warnings are what the outcome notes: a refusal, an answer cut
	// short.
	warnings []target.Problem
	// done: the answer ended as its API ends one ([DONE], a terminal
	// event, a whole body); failed: the API reported an error.
	done, failed bool
	frames       int
}

// call is one tool call of an answer.
type call struct {
	id, name string
	args     strings.Builder
	// whole, when set, are the arguments as the call's end gave them.
	whole            *string
	started, ended   time.Time
	startSeq, endSeq int64
}

func newReply(rec *trace.Recorder, now func() time.Time, runID string) *reply {
	return &reply{rec: rec, now: now, runID: runID, byKey: map[string]*call{}, texts: map[string]bool{}}
}

// event keeps one raw event, which must be JSON, and returns its
// sequence number.
func (r *reply) event(typ string, raw []byte) int64 {
	r.frames++
	return r.rec.Event(typ, 0, raw, r.now())
}

// other keeps what is not JSON (a string in an envelope).
func (r *reply) other(typ string, raw []byte) int64 {
	r.frames++
	return r.rec.Record(typ, raw, r.now())
}

// addText appends delta to the text of message key, which arrived in
// event seq.
func (r *reply) addText(key, delta string, seq int64) {
	if delta == "" {
		return
	}
	r.texts[key] = true
	r.text.WriteString(delta)
	r.rec.Text(r.runID+"/"+key, delta, r.now(), seq)
}

// addRefusal appends delta to the refusal of message key: the turn's text
// too.
func (r *reply) addRefusal(key, delta string, seq int64) {
	if r.refusalSeq == 0 {
		r.refusalSeq = seq
	}
	r.refusal.WriteString(delta)
	r.addText(key, delta, seq)
}

// startCall starts the call key, with id and name, in event seq; a call
// started already is returned as it is.
func (r *reply) startCall(key, id, name string, seq int64) *call {
	if c := r.byKey[key]; c != nil {
		if c.name == "" {
			c.name = name
		}
		if c.id == "" {
			c.id = id
		}
		return c
	}
	c := &call{id: id, name: name, started: r.now(), startSeq: seq}
	r.calls = append(r.calls, c)
	r.byKey[key] = c
	return c
}

// endCall ends call c in event seq, with its whole arguments when given.
func (r *reply) endCall(c *call, whole *string, seq int64) {
	if whole != nil {
		c.whole = whole
	}
	if c.ended.IsZero() {
		c.ended, c.endSeq = r.now(), seq
	}
}

// arguments are the call's arguments: whole, as its end gave them, or as
// they streamed in.
func (c *call) arguments() string {
	if c.whole != nil && (*c.whole != "" || c.args.Len() == 0) {
		return *c.whole
	}
	return c.args.String()
}

// runError records an error the API reported in event seq.
func (r *reply) runError(message, code string, seq int64) {
	r.failed = true
	r.rec.RunError(message, code, seq)
}

// warn notes a problem at event seq.
func (r *reply) warn(seq int64, rule, format string, args ...any) {
	r.warnings = append(r.warnings, target.Problem{Seq: seq, Rule: rule, Message: fmt.Sprintf(format, args...)})
}

// finishReason notes how a choice finished, in event seq: cut short by
// the token limit or by a content filter.
func (r *reply) finishReason(reason string, seq int64) {
	switch reason {
	case "length":
		r.warn(seq, "finish_reason", "the answer was cut short: finish_reason length (the output token limit)")
	case "content_filter":
		r.warn(seq, "finish_reason", "the answer was cut short: finish_reason content_filter")
	}
}

// finish records the calls, whole, and notes a refusal: what the trace
// and the conversation hold of the answer, however it ended. It returns
// the run's usage (nil: none reported).
func (r *reply) finish(requested string) *cost.Spend {
	for i, c := range r.calls {
		if c.id == "" {
			c.id = fmt.Sprintf("%s-call-%d", r.runID, i)
		}
		if c.ended.IsZero() {
			c.ended, c.endSeq = r.now(), r.rec.LastSeq()
		}
		r.rec.StartCall(c.id, c.name, c.started, c.startSeq)
		r.rec.CallArgs(c.id, c.arguments())
		r.rec.EndCall(c.id, c.ended, c.endSeq)
	}
	if s := strings.TrimSpace(r.refusal.String()); s != "" {
		r.warn(r.refusalSeq, "refusal", "the model refused: %s", excerpt([]byte(s)))
	}
	if r.usage == nil {
		return nil
	}
	u := *r.usage
	if u.Model == "" {
		u.Model = requested
	}
	s := &cost.Spend{}
	s.Add(u)
	return s
}
