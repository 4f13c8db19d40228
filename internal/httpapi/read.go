package httpapi

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/jsonpath"
	"github.com/ananke/action/internal/sse"
	"github.com/ananke/action/internal/trace"
)

// Types of the raw events a turn records, each in an envelope
// (trace.Recorder.Record).
const (
	// EventResponse is a plain response's body.
	EventResponse = "http:response"
	// EventStream is one event of a streamed response: its data (a JSON
	// string when it is not JSON, as the done event's).
	EventStream = "http:event"
	// EventError is the body of a response with an error status.
	EventError = "http:error"
)

// errorExcerpt bounds what is read of an error response's body.
const errorExcerpt = 64 << 10

// reading is what one turn's answer said, as it is read.
type reading struct {
	s      *Session
	rec    *trace.Recorder
	turn   int
	frames int // raw events recorded
	// text is the reply so far; nil until the text path matched.
	text *strings.Builder
	// errored says the agent reported an error (response.error).
	errored        bool
	conversationID string
	calls          int
	tokens         cost.Tokens
	model          string // the model the response names (response.model)
}

// exchange sends req and reads its answer into r.
func (s *Session) exchange(ctx context.Context, req *http.Request, r *reading) error {
	resp, err := s.hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%s %s: %w", req.Method, req.URL.Redacted(), context.Cause(ctx))
		}
		return fmt.Errorf("the agent could not be reached: %w", err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return r.status(ctx, resp)
	case s.o.Stream != nil:
		return r.stream(ctx, resp)
	}
	return r.plain(ctx, resp)
}

// status reads a response with an error status. 429 and 5xx are the
// exchange's failure, naming the status and when the agent asks to be
// retried (Retry-After; Ananke does not retry a turn by itself: a test's
// retries run it again). Any other is the agent's error when its body
// holds one response.error names, and the exchange's failure otherwise.
func (r *reading) status(ctx context.Context, resp *http.Response) error {
	body, err := io.ReadAll(io.LimitReader(resp.Body, errorExcerpt))
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("the agent answered HTTP %d, then no more: %w", resp.StatusCode, context.Cause(ctx))
	}
	seq := r.record(EventError, body, r.s.now())
	what := fmt.Sprintf("the agent answered HTTP %d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
	if after := resp.Header.Get("Retry-After"); after != "" {
		what += " (Retry-After: " + after + ")"
	}
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode < 500 && r.s.p.errPath != nil {
		if doc, err := jsonpath.Decode(body); err == nil && r.agentError(doc, seq, strconv.Itoa(resp.StatusCode)) {
			return nil
		}
	}
	return fmt.Errorf("%s%s", what, bodySuffix(body))
}

// plain reads a response that is one JSON document.
func (r *reading) plain(ctx context.Context, resp *http.Response) error {
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(r.s.max)+1))
	switch {
	case ctx.Err() != nil && (err != nil || !json.Valid(body)):
		// Cut by the timeout: the transport may end the body with an
		// error or as if it were whole.
		return fmt.Errorf("the response stopped after %d bytes: %w", len(body), context.Cause(ctx))
	case err != nil:
		return fmt.Errorf("the response broke after %d bytes: %w", len(body), err)
	case len(body) > r.s.max:
		return fmt.Errorf("the response is larger than %d bytes", r.s.max)
	}
	doc, derr := jsonpath.Decode(body)
	at := r.s.now()
	seq := r.record(EventResponse, body, at)
	if derr != nil {
		return fmt.Errorf("the agent answered with a body that is not JSON (%s): %v%s", contentType(resp), derr, bodySuffix(body))
	}
	return r.read(doc, body, seq, at, "the response")
}

// stream reads a response of server-sent events, each event's data one
// JSON document, to the done event or the end of the body.
func (r *reading) stream(ctx context.Context, resp *http.Response) error {
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "text/event-stream" {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, errorExcerpt))
		r.record(EventResponse, body, r.s.now())
		return fmt.Errorf("the agent answered with %s, not an event stream%s", contentType(resp), bodySuffix(body))
	}
	sr := sse.NewReader(resp.Body, r.s.max)
	defer sr.Release()
	done := r.s.o.Stream.Done
	var last []byte
	for {
		data, err := sr.Next()
		if err != nil && ctx.Err() != nil {
			// Cut by the timeout, however the transport ends the body.
			return r.broke(ctx, err)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return r.broke(ctx, err)
		}
		if len(data) == 0 {
			continue // an event without data: a keep-alive
		}
		at := r.s.now()
		if done != "" && string(data) == done {
			r.record(EventStream, data, at)
			return r.ended(last)
		}
		doc, derr := jsonpath.Decode(data)
		seq := r.record(EventStream, data, at)
		if derr != nil {
			return fmt.Errorf("event %d of the stream is not JSON: %v%s", r.frames, derr, bodySuffix(data))
		}
		last = append(last[:0], data...)
		if err := r.read(doc, data, seq, at, fmt.Sprintf("event %d", r.frames)); err != nil {
			return err
		}
	}
	if done != "" {
		return fmt.Errorf("the stream ended without its done event %q, after %d events", done, r.frames)
	}
	return r.ended(last)
}

// ended checks a stream that ended: its text path matched some event,
// unless the agent reported an error.
func (r *reading) ended(last []byte) error {
	if r.text != nil || r.errored {
		return nil
	}
	if last == nil {
		return fmt.Errorf("stream.text %s matched nothing: the stream held no event with data", r.s.p.text)
	}
	return fmt.Errorf("stream.text %s matched nothing in the %d events; the last: %s", r.s.p.text, r.frames, excerpt(last))
}

// broke explains a stream that could not be read to its end.
func (r *reading) broke(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("the stream stopped after %d events: %w", r.frames, context.Cause(ctx))
	case errors.Is(err, sse.ErrTruncated):
		return fmt.Errorf("the stream was cut off in the middle of an event, after %d events", r.frames)
	case errors.Is(err, bufio.ErrTooLong):
		return fmt.Errorf("event %d of the stream is larger than %d bytes", r.frames+1, r.s.max)
	}
	return fmt.Errorf("the stream broke after %d events: %w", r.frames, err)
}

// record keeps a raw event.
func (r *reading) record(typ string, data []byte, at time.Time) int64 {
	r.frames++
	return r.rec.Record(typ, data, at)
}

// read applies the mapping to doc, a plain response or one event (seq,
// received at at), which where names in errors: the agent's error, the
// text (required to match a plain response), the conversation id, the
// tool calls and the usage.
func (r *reading) read(doc any, raw []byte, seq int64, at time.Time, where string) error {
	p := &r.s.p
	r.agentError(doc, seq, "")
	texts := p.text.Eval(doc)
	if r.s.o.Stream != nil {
		for _, t := range texts {
			r.addText("t"+strconv.Itoa(r.turn), textOf(t), at, seq)
		}
	} else {
		if len(texts) == 0 && !r.errored {
			return fmt.Errorf("response.text %s matched nothing in %s: %s", p.text, where, excerpt(raw))
		}
		for i, t := range texts {
			if i > 0 {
				r.text.WriteByte('\n') // as the trace joins a turn's messages
			}
			r.addText(fmt.Sprintf("t%d.%d", r.turn, i), textOf(t), at, seq)
		}
	}
	if p.conversationID != nil {
		for _, v := range p.conversationID.Eval(doc) {
			if v != nil {
				r.conversationID = textOf(v)
				break
			}
		}
	}
	if err := r.toolCalls(doc, seq, at); err != nil {
		return err
	}
	return r.usage1(doc)
}

// addText appends text to the reply's message id.
func (r *reading) addText(id, text string, at time.Time, seq int64) {
	if r.text == nil {
		r.text = &strings.Builder{}
	}
	r.text.WriteString(text)
	r.rec.Text(id, text, at, seq)
}

// agentError records each value response.error matches in doc that is
// not empty as an error the agent reported, and says whether there was
// one.
func (r *reading) agentError(doc any, seq int64, code string) bool {
	if r.s.p.errPath == nil {
		return false
	}
	found := false
	for _, v := range r.s.p.errPath.Eval(doc) {
		if msg := errorText(v); msg != "" {
			r.rec.RunError(msg, code, seq)
			r.errored, found = true, true
		}
	}
	return found
}

// toolCalls records the calls response.tool_calls selects in doc: each a
// call whole, its name (and each other path mapped) required to match.
func (r *reading) toolCalls(doc any, seq int64, at time.Time) error {
	cp := r.s.p.calls
	if cp == nil {
		return nil
	}
	for _, c := range cp.each.Eval(doc) {
		field := func(name string, p *jsonpath.Path) (any, error) {
			ms := p.Eval(c)
			if len(ms) == 0 {
				return nil, fmt.Errorf("response.tool_calls.%s %s matched nothing in the call %s selected: %s", name, p, cp.each, excerptValue(c))
			}
			return ms[0], nil
		}
		name, err := field("name", cp.name)
		if err != nil {
			return err
		}
		call := trace.ToolCall{Name: textOf(name), StartedMs: at.UnixMilli(), EndedMs: at.UnixMilli(), StartSeq: seq, EndSeq: seq,
			ID: fmt.Sprintf("call-%d-%d", r.turn, r.calls)}
		if call.Name == "" {
			return fmt.Errorf("response.tool_calls.name %s is empty in the call %s selected: %s", cp.name, cp.each, excerptValue(c))
		}
		if cp.arguments != nil {
			v, err := field("arguments", cp.arguments)
			if err != nil {
				return err
			}
			call.Args = textOf(v)
		}
		if cp.result != nil {
			v, err := field("result", cp.result)
			if err != nil {
				return err
			}
			if v != nil {
				content := textOf(v)
				call.Result = &trace.Result{Content: content, JSON: validJSON(content)}
				call.ResultSeq = seq
			}
		}
		if cp.id != nil {
			v, err := field("id", cp.id)
			if err != nil {
				return err
			}
			call.ID = textOf(v)
		}
		r.calls++
		r.rec.AddCall(call)
	}
	return nil
}

// usage1 reads the token counts doc reports: a later event's replace an
// earlier's.
func (r *reading) usage1(doc any) error {
	for _, u := range []struct {
		field string
		path  *jsonpath.Path
		f     cost.Field
	}{{"input_tokens", r.s.p.inputTokens, cost.Input}, {"output_tokens", r.s.p.outputTokens, cost.Output}} {
		if u.path == nil {
			continue
		}
		ms := u.path.Eval(doc)
		if len(ms) == 0 || ms[0] == nil {
			continue
		}
		n, ok := count(ms[0])
		if !ok {
			return fmt.Errorf("response.%s %s is %s, not a token count", u.field, u.path, excerptValue(ms[0]))
		}
		r.tokens.Set(u.f, n)
	}
	if r.s.p.model != nil {
		if ms := r.s.p.model.Eval(doc); len(ms) > 0 {
			if s, ok := ms[0].(string); ok && s != "" {
				r.model = s
			}
		}
	}
	return nil
}

// usage is what the turn reported using; nil when it reported nothing.
func (r *reading) usage() *cost.Spend {
	if r.tokens.Empty() {
		return nil
	}
	s := &cost.Spend{}
	s.Add(cost.Usage{Model: r.model, Tokens: r.tokens})
	return s
}

// contentType names a response's Content-Type for a message.
func contentType(resp *http.Response) string {
	if ct := resp.Header.Get("Content-Type"); ct != "" {
		return "Content-Type " + ct
	}
	return "no Content-Type"
}
