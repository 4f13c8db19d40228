// Package spanstore holds the spans Ananke's OTLP receiver gets
// (docs/opentelemetry.md), by trace id, until the test attempt whose
// trace id it is takes them: each attempt has a trace id of its own, so
// spans are attributed right however many tests run at once. The engine
// knows this package alone; the CLI starts the receiver
// (internal/otel/receiver), which adds to the store.
package spanstore

import (
	"sync"
	"time"

	"github.com/ananke/action/internal/trace"
)

// Defaults of Options.
const (
	DefaultGrace = 2 * time.Second
	// DefaultQuiet is how long no span may arrive, once the last request
	// of a turn has its span from the agent, before the turn's spans are
	// taken as complete: an exporter sends a request's spans within a
	// batch or a few close together.
	DefaultQuiet = 100 * time.Millisecond
	// DefaultMaxPerTrace bounds the spans one attempt may hold.
	DefaultMaxPerTrace = 10_000
)

// Options configures a Store.
type Options struct {
	// Grace bounds the wait, after each turn, for the turn's spans
	// (otel.grace_ms); 0 waits for nothing but takes what has arrived.
	// Negative: DefaultGrace.
	Grace time.Duration
	// Quiet is how long no new span may arrive before a turn whose last
	// request has its span is taken as complete (0: DefaultQuiet).
	Quiet time.Duration
	// MaxPerTrace bounds the spans an attempt holds; more are dropped and
	// counted (0: DefaultMaxPerTrace).
	MaxPerTrace int
	// After is the wait of the store's timers (nil: time.After); tests
	// pass one they drive.
	After func(time.Duration) <-chan time.Time
}

// Store holds received spans by trace id. Its methods are safe for
// concurrent use.
type Store struct {
	opts Options

	mu     sync.Mutex
	traces map[string]*pending
	// ended are the trace ids of attempts that ended: what arrives for
	// them is late, and dropped.
	ended map[string]bool
	stats Stats
}

// pending is what a begun attempt has not taken yet.
type pending struct {
	spans []trace.Span
	// kept counts every span kept for the attempt, taken or not;
	// dropped those over the limit since the last Take.
	kept, dropped int
	// changed is closed, and replaced, when a span arrives.
	changed chan struct{}
}

// Stats counts what the store received in the run.
type Stats struct {
	// Received is every span the receiver gave the store.
	Received int
	// Unattributed are the spans whose trace id is no attempt's (the
	// agent's own traces, or an attempt's that never began): dropped.
	// FirstUnattributed is the first of them, to name in a warning (an
	// agent whose instrumentation does not continue the incoming
	// traceparent sends only such spans).
	Unattributed      int
	FirstUnattributed *trace.Span
	// Late are the spans that arrived after their attempt ended: dropped.
	Late int
	// Dropped are the spans over an attempt's limit.
	Dropped int
}

// New returns an empty store.
func New(opts Options) *Store {
	if opts.Grace < 0 {
		opts.Grace = DefaultGrace
	}
	if opts.Quiet <= 0 {
		opts.Quiet = DefaultQuiet
	}
	if opts.MaxPerTrace <= 0 {
		opts.MaxPerTrace = DefaultMaxPerTrace
	}
	if opts.After == nil {
		opts.After = time.After
	}
	return &Store{opts: opts, traces: map[string]*pending{}, ended: map[string]bool{}}
}

// Begin starts keeping the spans of trace id, an attempt's, before its
// first request to the agent. Beginning twice is beginning once.
func (s *Store) Begin(traceID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.traces[traceID] == nil && !s.ended[traceID] {
		s.traces[traceID] = &pending{changed: make(chan struct{})}
	}
}

// End stops keeping the spans of trace id: what it still holds is
// returned, with the count of spans dropped over the limit, and what
// arrives later is counted late.
func (s *Store) End(traceID string) ([]trace.Span, int) {
	spans, dropped := s.Take(traceID)
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.traces, traceID)
	s.ended[traceID] = true
	return spans, dropped
}

// Add keeps each span under its trace id, when an attempt begun and not
// ended has it; the others are counted and dropped.
func (s *Store) Add(spans []trace.Span) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats.Received += len(spans)
	var woken map[*pending]bool
	for i := range spans {
		sp := &spans[i]
		p := s.traces[sp.TraceID]
		switch {
		case p != nil && p.kept >= s.opts.MaxPerTrace:
			p.dropped++
			s.stats.Dropped++
		case p != nil:
			p.spans = append(p.spans, *sp)
			p.kept++
			if woken == nil {
				woken = map[*pending]bool{}
			}
			woken[p] = true
		case s.ended[sp.TraceID]:
			s.stats.Late++
		default:
			s.stats.Unattributed++
			if s.stats.FirstUnattributed == nil {
				first := *sp
				first.Attributes, first.Events = nil, nil
				s.stats.FirstUnattributed = &first
			}
		}
	}
	for p := range woken {
		close(p.changed)
		p.changed = make(chan struct{})
	}
}

// Take returns the spans of trace id that arrived since the last Take,
// in the order they arrived, and how many were dropped over the limit
// since.
func (s *Store) Take(traceID string) ([]trace.Span, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.traces[traceID]
	if p == nil {
		return nil, 0
	}
	spans, dropped := p.spans, p.dropped
	p.spans, p.dropped = nil, 0
	return spans, dropped
}

// changed returns a channel closed when a span of trace id arrives after
// this call (nil, which never fires, when the id is not begun).
func (s *Store) changed(traceID string) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.traces[traceID]; p != nil {
		return p.changed
	}
	return nil
}

// MaxPerTrace is how many spans an attempt keeps at most.
func (s *Store) MaxPerTrace() int { return s.opts.MaxPerTrace }

// Stats returns what the store received so far.
func (s *Store) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}
