package openai

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/ananke/action/internal/oaiwire"
	"github.com/ananke/action/internal/sse"
	"github.com/ananke/action/internal/target"
)

// StatusError is an answer the API gave with a status that says to come
// back later — 429 or 5xx: the test errors, naming the status, the
// Retry-After the API asked for and its message. Ananke does not retry.
type StatusError struct {
	Status int
	// RetryAfter is the Retry-After header as sent ("": none), or
	// retry-after-ms's milliseconds.
	RetryAfter string
	Message    string
}

func (e *StatusError) Error() string {
	s := "the API answered " + statusPhrase(e.Status)
	if e.RetryAfter != "" {
		s += " (Retry-After: " + e.RetryAfter + "; not retried)"
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// statusPhrase is "HTTP 429 Too Many Requests".
func statusPhrase(status int) string {
	s := fmt.Sprintf("HTTP %d", status)
	if t := http.StatusText(status); t != "" {
		s += " " + t
	}
	return s
}

// reader reads the answer of one API: a stream, event by event, or a
// whole body.
type reader interface {
	// event reads one event's data (JSON) into r.
	event(r *reply, data []byte)
	// body reads a whole JSON body into r.
	body(r *reply, data []byte)
	// unended says what a stream that ended before its end is missing.
	unended() string
}

// post sends one request and reads its answer into r through rd. A
// request that takes longer than the timeout ends with an error wrapping
// target.ErrRunTimeout.
func (s *Session) post(ctx context.Context, body []byte, r *reply, rd reader) error {
	if s.o.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, s.o.Timeout, target.ErrRunTimeout)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("make the request: %w", err)
	}
	for k, vs := range s.o.Header {
		req.Header[k] = vs
	}
	req.Header.Set("Content-Type", "application/json")
	if s.o.Stream {
		req.Header.Set("Accept", "text/event-stream")
	} else {
		req.Header.Set("Accept", "application/json")
	}
	hc := s.o.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return s.failed(ctx, r, "the API did not answer", unwrapURL(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return s.statusError(ctx, resp, r)
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "text/event-stream" {
		return s.stream(ctx, resp.Body, r, rd)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return s.failed(ctx, r, "reading the answer", err)
	}
	if len(data) > maxBody {
		return fmt.Errorf("the API's answer is over %d MiB", maxBody>>20)
	}
	if !json.Valid(data) {
		r.other("body", data)
		return fmt.Errorf("the API's answer is not JSON (%s): %s", contentType(resp.Header), excerpt(data))
	}
	rd.body(r, data)
	r.done = true
	return nil
}

// stream reads an event stream into r.
func (s *Session) stream(ctx context.Context, body io.Reader, r *reply, rd reader) error {
	max := s.o.MaxEventSize
	if max <= 0 {
		max = DefaultMaxEventSize
	}
	sr := sse.NewReader(body, max)
	defer sr.Release()
	for {
		data, err := sr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if errors.Is(err, bufio.ErrTooLong) {
				return fmt.Errorf("event %d of the stream is over %d bytes (the largest read)", r.frames+1, max)
			}
			return s.failed(ctx, r, "reading the stream", err)
		}
		switch {
		case len(data) == 0: // an event without data
		case string(data) == "[DONE]":
			r.done = true
		case !json.Valid(data):
			r.other("data", data)
			return fmt.Errorf("event %d of the stream is not JSON: %s", r.frames, excerpt(data))
		default:
			rd.event(r, data)
		}
	}
	if !r.done && !r.failed {
		return fmt.Errorf("the stream ended without %s after %d events: the answer is cut short", rd.unended(), r.frames)
	}
	return nil
}

// statusError reads an answer whose status is not 2xx: its error is the
// API's (a run error); 429 and 5xx also end the turn with a StatusError.
func (s *Session) statusError(ctx context.Context, resp *http.Response, r *reply) error {
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	if err != nil && ctx.Err() != nil {
		return s.failed(ctx, r, "reading the error answer", err)
	}
	var seq int64
	if json.Valid(data) {
		seq = r.event("error", data)
	} else {
		seq = r.other("error", data)
	}
	msg := oaiwire.ErrorMessage(data)
	what := statusPhrase(resp.StatusCode)
	if msg != "" {
		what += ": " + msg
	}
	r.runError(what, errorCode(data), seq)
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
		return &StatusError{Status: resp.StatusCode, RetryAfter: retryAfter(resp.Header), Message: msg}
	}
	return nil
}

// retryAfter is the wait an answer asks for, as it wrote it: Retry-After,
// else OpenAI's retry-after-ms.
func retryAfter(h http.Header) string {
	if v := strings.TrimSpace(h.Get("Retry-After")); v != "" {
		return v
	}
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		return v + " ms"
	}
	return ""
}

// errorCode is the code of an error object ({"error": {"code": …}}; its
// type when it has none), "" when there is none.
func errorCode(data []byte) string {
	var body struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(data, &body) != nil {
		return ""
	}
	return objectCode(body.Error)
}

// objectCode is the code of an error object, else its type.
func objectCode(raw json.RawMessage) string {
	var e struct {
		Code json.RawMessage `json:"code"`
		Type string          `json:"type"`
	}
	if json.Unmarshal(raw, &e) != nil {
		return ""
	}
	var s string
	switch {
	case json.Unmarshal(e.Code, &s) == nil && s != "":
		return s
	case len(e.Code) > 0 && string(e.Code) != "null" && e.Code[0] != '"':
		return string(e.Code) // a number
	}
	return e.Type
}

// failed says what a transport error was: a timeout (wrapping
// target.ErrRunTimeout) or a cancellation when the context ended, else
// err in context.
func (s *Session) failed(ctx context.Context, r *reply, what string, err error) error {
	if ctx.Err() != nil {
		cause := context.Cause(ctx)
		if errors.Is(cause, target.ErrRunTimeout) {
			return fmt.Errorf("no answer within target.timeout_ms (%d ms) after %d events: %w", s.o.Timeout.Milliseconds(), r.frames, cause)
		}
		return cause
	}
	if errors.Is(err, sse.ErrTruncated) {
		return fmt.Errorf("the stream ended in the middle of event %d: the answer is cut short", r.frames+1)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// unwrapURL drops net/http's `Post "url": ` prefix: the error names the
// API, and the URL may hold a key.
func unwrapURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// contentType names a response's Content-Type for a message.
func contentType(h http.Header) string {
	if ct := h.Get("Content-Type"); ct != "" {
		return "Content-Type " + ct
	}
	return "no Content-Type"
}

// excerpt is the start of data for a message: one line, at most 200
// characters.
func excerpt(data []byte) string {
	s := strings.Join(strings.Fields(strings.ToValidUTF8(string(data), "�")), " ")
	if utf8.RuneCountInString(s) <= 200 {
		return s
	}
	return string([]rune(s)[:200]) + "…"
}
