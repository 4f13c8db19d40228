package tracectx

import (
	"context"
	"io"
	"net/http"
	"sync"
	"time"

	oteltrace "go.opentelemetry.io/otel/trace"

	"github.com/ananke/action/internal/trace"
)

// request is the span of one HTTP request: from when it was sent to when
// its response was read to its end or closed (or the exchange failed).
type request struct {
	id oteltrace.SpanID

	mu         sync.Mutex
	start, end time.Time
	// stamped: a transport beneath set start and end (Stamp), which win.
	stamped bool
}

func (r *request) begin(t time.Time) {
	r.mu.Lock()
	if !r.stamped {
		r.start = t
	}
	r.mu.Unlock()
}

func (r *request) finish(now func() time.Time) {
	r.mu.Lock()
	if !r.stamped && r.end.IsZero() {
		r.end = now()
	}
	r.mu.Unlock()
}

// span is the request's span; one not finished ends now.
func (r *request) span(now func() time.Time) trace.RequestSpan {
	r.finish(now)
	r.mu.Lock()
	defer r.mu.Unlock()
	return trace.RequestSpan{SpanID: r.id.String(), StartNs: r.start.UnixNano(), EndNs: r.end.UnixNano()}
}

type stampKey struct{}

// Stamp sets the times of the request span of the request whose context is
// ctx: a transport beneath the attempt's calls it when it keeps times of
// its own — the tape of --record and --replay, so that a replayed request
// span has the recorded times exactly. It does nothing for a request sent
// without a trace context.
func Stamp(ctx context.Context, start, end time.Time) {
	r, _ := ctx.Value(stampKey{}).(*request)
	if r == nil {
		return
	}
	r.mu.Lock()
	r.start, r.end, r.stamped = start, end, true
	r.mu.Unlock()
}

// Client returns a copy of c whose requests carry the attempt's trace
// context (Transport).
func (a *Attempt) Client(c *http.Client) *http.Client {
	out := *c
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	out.Transport = a.Transport(base)
	return &out
}

// Transport returns a RoundTripper that sends each request through base
// with a span of its own: a traceparent naming a fresh span id, under the
// turn playing (or the attempt's root span between turns), and the
// attempt's tracestate. The request span is kept for the turn (EndTurn).
func (a *Attempt) Transport(base http.RoundTripper) http.RoundTripper {
	return &transport{a: a, base: base}
}

type transport struct {
	a    *Attempt
	base http.RoundTripper
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	r, err := t.a.child()
	if err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	r.begin(t.a.now())
	out := req.Clone(context.WithValue(req.Context(), stampKey{}, r))
	t.a.header(out.Header, r.id)
	resp, err := t.base.RoundTrip(out)
	if err != nil {
		r.finish(t.a.now)
		return nil, err
	}
	resp.Body = &body{ReadCloser: resp.Body, r: r, now: t.a.now}
	return resp, nil
}

// body ends the request's span when the response is read to its end or
// closed.
type body struct {
	io.ReadCloser
	r   *request
	now func() time.Time
}

func (b *body) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil {
		b.r.finish(b.now)
	}
	return n, err
}

func (b *body) Close() error {
	err := b.ReadCloser.Close()
	b.r.finish(b.now)
	return err
}
