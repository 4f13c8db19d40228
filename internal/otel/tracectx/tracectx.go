// Package tracectx gives a test attempt its W3C trace context
// (docs/opentelemetry.md#trace-context): a trace id and a root span for
// the attempt, a span per turn, and a span per HTTP request the attempt
// sends the agent, named by the request's traceparent header, so that the
// agent's own spans nest under the test, the turn and the request that
// caused them.
package tracectx

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"go.opentelemetry.io/otel/propagation"
	oteltrace "go.opentelemetry.io/otel/trace"

	"github.com/ananke/action/internal/trace"
)

// Options configure an attempt's trace context.
type Options struct {
	// Rand is where ids come from (nil: crypto/rand).
	Rand io.Reader
	// State is the tracestate every request sends beside its traceparent
	// ("": none); ParseState checks it.
	State string
	// Now stamps the requests' spans (nil: time.Now). A transport beneath
	// the attempt's may stamp them instead (Stamp).
	Now func() time.Time
}

// ParseState checks a W3C tracestate value ("vendor=value,other=x").
func ParseState(s string) error {
	_, err := oteltrace.ParseTraceState(s)
	if err != nil {
		return fmt.Errorf("tracestate %q: %w", s, err)
	}
	return nil
}

// Attempt is one attempt's trace context. Its methods are safe for
// concurrent use: a session may send requests from several goroutines.
type Attempt struct {
	traceID oteltrace.TraceID
	root    oteltrace.SpanID
	state   oteltrace.TraceState
	now     func() time.Time

	mu   sync.Mutex
	rand io.Reader
	// turn is the turn playing (-1: none) and span its span; requests
	// holds each turn's request spans, in the order they were sent.
	turn     int
	span     oteltrace.SpanID
	requests map[int][]*request
}

// New starts an attempt's trace: a fresh trace id and root span id.
func New(o Options) (*Attempt, error) {
	a := &Attempt{rand: o.Rand, now: o.Now, turn: -1, requests: map[int][]*request{}}
	if a.rand == nil {
		a.rand = rand.Reader
	}
	if a.now == nil {
		a.now = time.Now
	}
	if o.State != "" {
		st, err := oteltrace.ParseTraceState(o.State)
		if err != nil {
			return nil, fmt.Errorf("tracestate %q: %w", o.State, err)
		}
		a.state = st
	}
	if err := a.read(a.traceID[:]); err != nil {
		return nil, err
	}
	if err := a.read(a.root[:]); err != nil {
		return nil, err
	}
	return a, nil
}

// read fills b with random bytes, never all zero (an invalid W3C id).
// The caller holds mu, or a is not yet shared.
func (a *Attempt) read(b []byte) error {
	for range 8 {
		if _, err := io.ReadFull(a.rand, b); err != nil {
			return fmt.Errorf("make a trace id: %w", err)
		}
		for _, x := range b {
			if x != 0 {
				return nil
			}
		}
	}
	return fmt.Errorf("make a trace id: the id source gives only zeros")
}

// TraceID is the attempt's trace id (32 lowercase hex digits).
func (a *Attempt) TraceID() string { return a.traceID.String() }

// SpanID is the attempt's root span id (16 lowercase hex digits).
func (a *Attempt) SpanID() string { return a.root.String() }

// StartTurn opens turn i's span, under the attempt's root span, and
// returns its id: the requests sent until EndTurn are its children.
func (a *Attempt) StartTurn(i int) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var id oteltrace.SpanID
	if err := a.read(id[:]); err != nil {
		return "", err
	}
	a.turn, a.span = i, id
	return id.String(), nil
}

// EndTurn closes turn i's span and returns the spans of the requests it
// sent, in the order they were sent. A request still open (a stream the
// session has not finished reading) ends now. Requests sent after it, until
// the next turn, are children of the attempt's root span and belong to no
// turn.
func (a *Attempt) EndTurn(i int) []trace.RequestSpan {
	a.mu.Lock()
	reqs := a.requests[i]
	delete(a.requests, i)
	if a.turn == i {
		a.turn, a.span = -1, oteltrace.SpanID{}
	}
	a.mu.Unlock()
	out := make([]trace.RequestSpan, 0, len(reqs))
	for _, r := range reqs {
		out = append(out, r.span(a.now))
	}
	return out
}

// child makes the span of a request sent now: a child of the turn
// playing, kept for it, or of the root span between turns.
func (a *Attempt) child() (*request, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	r := &request{}
	if err := a.read(r.id[:]); err != nil {
		return nil, err
	}
	if a.turn >= 0 {
		a.requests[a.turn] = append(a.requests[a.turn], r)
	}
	return r, nil
}

// header sets the W3C traceparent (sampled) naming span, and the
// tracestate when the attempt has one.
func (a *Attempt) header(h http.Header, span oteltrace.SpanID) {
	sc := oteltrace.NewSpanContext(oteltrace.SpanContextConfig{
		TraceID: a.traceID, SpanID: span, TraceFlags: oteltrace.FlagsSampled, TraceState: a.state, Remote: false,
	})
	ctx := oteltrace.ContextWithSpanContext(context.Background(), sc)
	propagation.TraceContext{}.Inject(ctx, propagation.HeaderCarrier(h))
}
