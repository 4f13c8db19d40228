package agui

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/sse"
)

// Frame is one SSE event as received.
type Frame struct {
	Index    int // 1-based, in the response
	Received time.Time
	// Data is the event's bytes, valid only until the observer returns
	// (the reader reuses its buffer): an observer that keeps them copies.
	Data []byte
	// Type is the frame's event type ("" when unreadable); Timestamp the
	// producer's timestamp (0 when absent).
	Type      string
	Timestamp int64
}

// Observer sees each frame as it arrives, with the events it expanded to
// (none when it was malformed or of an unknown type) and the problems it
// raised. Events that close chunk streams left open at the end of the
// stream come last, in a frame with Index 0 and no data. The frame's data,
// the events' Raw and the events slice are reused after the call returns;
// the events' other fields stay valid. The observer runs on the reading
// goroutine and must not block for long.
type Observer func(f Frame, events []Event, problems []Problem)

// Result is what one run produced.
type Result struct {
	// Request is the body that was sent.
	Request  json.RawMessage
	Frames   int
	Problems []Problem
	// Messages is the whole history after the run: the input's messages
	// and those rebuilt from the stream.
	Messages []Message
	// Streamed are the text and reasoning messages the run streamed, each
	// with its whole text, in the order they started: what the agent said,
	// even where a MESSAGES_SNAPSHOT left it out of Messages.
	Streamed []Message
	State    json.RawMessage
	// Pending are the tool calls started without a result: client tools
	// the caller must answer in a follow-up run.
	Pending   []ToolCall
	RunErrors []RunErrorInfo
	// Outcome of the last RUN_FINISHED (nil: success or none).
	Outcome *Outcome
	// Usage is what the run reported using: the usage of its RUN_FINISHED
	// and RUN_ERROR events, per provider and model, as one part; nil when
	// none of them carried usage (unknown, not zero).
	Usage *cost.Spend
}

// RunErrorInfo is a RUN_ERROR the agent sent.
type RunErrorInfo struct {
	Frame   int
	Message string
	Code    string
}

// Failed reports whether a problem of Error severity was found.
func (r *Result) Failed() bool {
	for _, p := range r.Problems {
		if p.Severity == Error {
			return true
		}
	}
	return false
}

// Run posts in and consumes the response to its end. It returns a
// *TransportError when the exchange itself failed (the agent could not be
// reached, answered an error status or a non-stream, the stream broke, or
// ctx ended); the Result then holds whatever was received before. Protocol
// problems are not errors: they are in Result.Problems.
func (c *Client) Run(ctx context.Context, in RunAgentInput, observe Observer) (*Result, error) {
	normalize(&in)
	resp, body, err := c.post(ctx, &in)
	if err != nil {
		return &Result{Request: body, Messages: in.Messages, State: in.State}, err
	}
	defer resp.Body.Close()
	res, err := c.ReadStream(ctx, resp.Body, in, observe)
	res.Request = body
	return res, err
}

// normalize fills the fields every request carries.
func normalize(in *RunAgentInput) {
	if in.State == nil {
		in.State = json.RawMessage("{}")
	}
	if in.ForwardedProps == nil {
		in.ForwardedProps = json.RawMessage("{}")
	}
	in.Messages, in.Tools, in.Context = nonNil(in.Messages), nonNil(in.Tools), nonNil(in.Context)
}

// ReadStream consumes an event stream answering in, as Run does after the
// HTTP exchange; it also replays recorded streams.
func (c *Client) ReadStream(ctx context.Context, body io.Reader, in RunAgentInput, observe Observer) (*Result, error) {
	normalize(&in)
	res := &Result{}
	p := newPipeline(c, &in)
	sr := sse.NewReader(body, c.maxEventSize())
	defer sr.Release()
	for {
		data, err := sr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if terr := c.streamErr(ctx, err); terr != nil {
				p.finish(res, sr.SawCR(), c.now(), observe)
				return res, terr
			}
			// The stream ended in the middle of an event: a truncated run.
			p.ps.frame = 0
			p.ps.errorf(RuleTruncated, "the stream ended in the middle of an event")
			break
		}
		if len(data) == 0 {
			p.ps.frame = p.frames + 1
			p.ps.warnf(RuleEmpty, "an SSE event without data was ignored")
			continue
		}
		// data is the reader's buffer, reused for the next event: an
		// event that keeps part of it gets a copy (frame).
		p.frame(Frame{Index: p.frames + 1, Received: c.now(), Data: data}, observe)
	}
	p.finish(res, sr.SawCR(), c.now(), observe)
	if err := ctx.Err(); err != nil {
		return res, ctxErr(ctx, err)
	}
	return res, nil
}

// streamErr classifies an error met while reading the stream. nil means it
// is a truncation of the stream (a protocol problem, not a transport one).
func (c *Client) streamErr(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return ctxErr(ctx, err)
	case errors.Is(err, sse.ErrTruncated), errors.Is(err, io.ErrUnexpectedEOF):
		// The body ended cleanly but mid-event, or the chunked body was cut
		// (the agent went away): either way the run was truncated.
		return nil
	case errors.Is(err, bufio.ErrTooLong):
		return &TransportError{Op: "event-size", Err: fmt.Errorf("an SSE event is larger than the limit of %s (raise target.max_event_bytes)", size(c.maxEventSize()))}
	}
	return &TransportError{Op: "read", Err: err}
}

// size formats a byte count for messages.
func size(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

func (c *Client) maxEventSize() int {
	if c.MaxEventSize > 0 {
		return c.MaxEventSize
	}
	return DefaultMaxEventSize
}

func (c *Client) now() time.Time {
	now := c.Now
	if now == nil {
		now = time.Now // the default of the injected clock
	}
	return now()
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// pipeline runs decode → expand → verify → reduce over the frames of one
// response.
type pipeline struct {
	strict    bool
	ps        problems
	frames    int
	expander  expander
	verifier  *verifier
	reducer   *reducer
	runErrors []RunErrorInfo
	outcome   *Outcome
	buf       []Event
	ids       interner
	// usage is the usage the run's terminal events reported; reported
	// says whether one carried it.
	usage    []cost.Usage
	reported bool
}

func newPipeline(c *Client, in *RunAgentInput) *pipeline {
	return &pipeline{strict: c.Strict, verifier: newVerifier(in.ThreadID, in.RunID), reducer: newReducer(in.Messages, in.State)}
}

func (p *pipeline) frame(f Frame, observe Observer) {
	p.frames = f.Index
	p.ps.frame = f.Index
	first := len(p.ps.list)
	ev := decode(f.Data, &p.ps, &p.ids)
	if ev.borrowed {
		// The state, a tool result or a snapshot outlives the frame.
		f.Data = ev.own(f.Data)
	}
	f.Type, f.Timestamp = ev.Type, ev.Timestamp
	p.buf = p.buf[:0]
	if !hasError(p.ps.list[first:]) && (Known(ev.Type) || isRetired(ev.Type)) {
		p.buf = p.expander.expand(ev, &p.ps, p.buf)
		p.apply(p.buf)
	}
	if observe != nil {
		observe(f, p.buf, p.strictify(p.ps.list[first:]))
	}
}

func (p *pipeline) apply(events []Event) {
	for i := range events {
		ev := &events[i]
		p.verifier.check(ev, &p.ps)
		p.reducer.apply(ev, &p.ps)
		switch ev.Type {
		case RunError:
			p.runErrors = append(p.runErrors, RunErrorInfo{Frame: p.frames, Message: ev.Message, Code: ev.Code})
			p.addUsage(ev)
		case RunFinished:
			p.outcome = ev.Outcome
			p.addUsage(ev)
		}
	}
}

// addUsage keeps the usage a terminal event carried.
func (p *pipeline) addUsage(ev *Event) {
	if ev.HasUsage() {
		p.usage, p.reported = append(p.usage, ev.Usage...), true
	}
}

// finish closes open chunk streams (reporting the closing events as frame
// 0), runs the end-of-stream checks and fills the result.
func (p *pipeline) finish(res *Result, sawCR bool, now time.Time, observe Observer) {
	p.ps.frame = 0
	if closing := p.expander.flush(nil); len(closing) > 0 {
		p.apply(closing)
		if observe != nil {
			observe(Frame{Received: now}, closing, nil)
		}
	}
	p.verifier.end(p.frames, &p.ps)
	if sawCR {
		p.ps.mustf(RuleFraming, "the stream uses CR or CRLF line endings; producers must use LF (the official TypeScript client cannot parse this stream)")
	}
	res.Frames = p.frames
	res.Problems = p.strictify(p.ps.list)
	res.Messages = p.reducer.messages()
	res.Streamed = p.reducer.streamedMessages()
	res.State = p.reducer.state
	res.Pending = p.reducer.pending(p.outcome)
	res.RunErrors = p.runErrors
	res.Outcome = p.outcome
	if p.reported {
		res.Usage = &cost.Spend{}
		res.Usage.Add(p.usage...)
	}
}

// strictify returns the problems with Must warnings as errors in strict
// mode.
func (p *pipeline) strictify(ps []Problem) []Problem {
	if !p.strict {
		return ps
	}
	for i := range ps {
		if ps[i].Must {
			ps[i].Severity = Error
		}
	}
	return ps
}

func hasError(ps []Problem) bool {
	for _, p := range ps {
		if p.Severity == Error {
			return true
		}
	}
	return false
}
