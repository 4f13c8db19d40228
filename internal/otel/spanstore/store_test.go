package spanstore_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ananke/action/internal/otel/spanstore"
	"github.com/ananke/action/internal/trace"
)

const (
	traceA = "0af7651916cd43dd8448eb211c80319c"
	traceB = "4bf92f3577b34da6a3ce929d0e0e4736"
)

// span is a span of trace id under parent, started at start.
func span(traceID, id, parent string, start int64) trace.Span {
	return trace.Span{TraceID: traceID, SpanID: id, ParentID: parent, Name: "s" + id, StartNs: start, EndNs: start + 10, Turn: -1}
}

// twoTurns is an attempt's trace of trace id with two turns, each with
// its span and one request span ("r0", "r1").
func twoTurns(traceID string) *trace.Trace {
	return &trace.Trace{TraceID: traceID, SpanID: "root", Turns: []trace.Turn{
		{Index: 0, SpanID: "t0", Requests: []trace.RequestSpan{{SpanID: "r0"}}},
		{Index: 1, SpanID: "t1", Requests: []trace.RequestSpan{{SpanID: "r1"}}},
	}}
}

func ids(spans []trace.Span) string {
	out := ""
	for _, s := range spans {
		out += fmt.Sprintf("%s@%d ", s.SpanID, s.Turn)
	}
	return out
}

// TestStore: spans are kept by trace id only for attempts begun and not
// ended; the others are counted, and an attempt's spans over its limit
// are dropped and counted.
func TestStore(t *testing.T) {
	s := spanstore.New(spanstore.Options{MaxPerTrace: 5})
	s.Begin(traceA)
	s.Begin(traceA) // beginning twice is beginning once
	s.Begin(traceB)
	s.Add([]trace.Span{span(traceA, "a1", "", 1), span(traceB, "b1", "", 1), span("ffffffffffffffffffffffffffffffff", "x", "", 1), span(traceA, "a2", "", 2)})
	a, dropped := s.Take(traceA)
	if ids(a) != "a1@-1 a2@-1 " || dropped != 0 {
		t.Errorf("take A: %s, %d dropped", ids(a), dropped)
	}
	if a, _ := s.Take(traceA); len(a) != 0 {
		t.Errorf("taken twice: %s", ids(a))
	}
	s.Add([]trace.Span{span(traceA, "a3", "", 3), span(traceA, "a4", "", 4), span(traceA, "a5", "", 5), span(traceA, "a6", "", 6)})
	a, dropped = s.End(traceA)
	if ids(a) != "a3@-1 a4@-1 a5@-1 " || dropped != 1 {
		t.Errorf("end A: %s, %d dropped", ids(a), dropped)
	}
	s.Begin(traceA) // an ended attempt does not begin again
	s.Add([]trace.Span{span(traceA, "a7", "", 7)})
	if a, _ := s.Take(traceA); len(a) != 0 {
		t.Errorf("kept after the end: %s", ids(a))
	}
	b, _ := s.Take(traceB)
	if ids(b) != "b1@-1 " {
		t.Errorf("take B: %s", ids(b))
	}
	got := s.Stats()
	if first := got.FirstUnattributed; first == nil || first.SpanID != "x" {
		t.Errorf("first unattributed %+v", first)
	}
	got.FirstUnattributed = nil
	if want := (spanstore.Stats{Received: 9, Unattributed: 1, Late: 1, Dropped: 1}); got != want {
		t.Errorf("stats %+v, want %+v", got, want)
	}
}

// TestStoreParallel: spans of many attempts sent at once, in mixed
// batches, each reach their attempt alone.
func TestStoreParallel(t *testing.T) {
	s := spanstore.New(spanstore.Options{})
	const attempts, batches = 8, 50
	traceID := func(a int) string { return fmt.Sprintf("%032x", a+1) }
	for a := range attempts {
		s.Begin(traceID(a))
	}
	var wg sync.WaitGroup
	for b := range batches {
		wg.Go(func() {
			var batch []trace.Span
			for a := range attempts {
				batch = append(batch, span(traceID(a), fmt.Sprintf("%d-%d", a, b), "", int64(b)))
			}
			s.Add(batch)
		})
	}
	wg.Wait()
	for a := range attempts {
		got, _ := s.End(traceID(a))
		if len(got) != batches {
			t.Errorf("attempt %d: %d spans, want %d", a, len(got), batches)
		}
		for _, sp := range got {
			if sp.TraceID != traceID(a) {
				t.Errorf("attempt %d got %s of %s", a, sp.SpanID, sp.TraceID)
			}
		}
	}
}

// TestAttach: each span goes to the turn it descends from, through its
// parents; a span under the attempt's own span or under a parent not
// arrived has none until the parent comes; spans are kept in start
// order.
func TestAttach(t *testing.T) {
	tr := twoTurns(traceA)
	spanstore.Attach(tr, []trace.Span{
		span(traceA, "srv0", "r0", 20),    // the agent's span of turn 0's request
		span(traceA, "tool0", "srv0", 30), // under it
		span(traceA, "own1", "t1", 15),    // directly under turn 1's span
		span(traceA, "deep", "mid", 40),   // its parent has not arrived
		span(traceA, "bg", "root", 10),    // under the attempt's span
		span(traceA, "loop1", "loop2", 50),
		span(traceA, "loop2", "loop1", 51),
	})
	if got, want := ids(tr.Spans), "bg@-1 own1@1 srv0@0 tool0@0 deep@-1 loop1@-1 loop2@-1 "; got != want {
		t.Errorf("attached %s\nwant     %s", got, want)
	}
	spanstore.Attach(tr, []trace.Span{span(traceA, "mid", "r1", 35)})
	if got, want := ids(tr.Spans), "bg@-1 own1@1 srv0@0 tool0@0 mid@1 deep@1 loop1@-1 loop2@-1 "; got != want {
		t.Errorf("once its parent came %s\nwant               %s", got, want)
	}
	if got := ids(spanstore.Of(tr, 1)); got != "own1@1 mid@1 deep@1 " {
		t.Errorf("turn 1's spans: %s", got)
	}
}

// TestAwait: the end of a turn waits until the agent's span of each of
// its requests has arrived and then Quiet passes with nothing more; a
// span arriving meanwhile restarts the quiet wait. Times are a synctest
// bubble's: exact.
func TestAwait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := spanstore.New(spanstore.Options{Grace: 2 * time.Second, Quiet: 100 * time.Millisecond})
		tr := twoTurns(traceA)
		s.Begin(traceA)
		start := time.Now()
		go func() {
			time.Sleep(50 * time.Millisecond)
			s.Add([]trace.Span{span(traceA, "tool0", "srv0", 30)}) // its parent later
			time.Sleep(50 * time.Millisecond)
			s.Add([]trace.Span{span(traceA, "srv0", "r0", 20), span(traceB, "other", "r0", 20)})
			time.Sleep(60 * time.Millisecond)
			s.Add([]trace.Span{span(traceA, "late0", "srv0", 40)})
		}()
		if dropped := s.Await(context.Background(), tr, 0); dropped != 0 {
			t.Errorf("%d dropped", dropped)
		}
		if took := time.Since(start); took != 260*time.Millisecond {
			t.Errorf("waited %v, want 260ms: the last span at 160ms, then 100ms quiet", took)
		}
		if got := ids(tr.Spans); got != "srv0@0 tool0@0 late0@0 " {
			t.Errorf("spans %s", got)
		}
	})
}

// TestAwaitBounded: a request whose span never comes makes the turn wait
// Grace, no more, and what came is attached; with Grace 0 nothing is
// waited for; a cancelled context ends the wait.
func TestAwaitBounded(t *testing.T) {
	for _, tc := range []struct {
		name   string
		grace  time.Duration
		cancel time.Duration
		want   time.Duration
		spans  string
	}{
		{"grace", 2 * time.Second, 0, 2 * time.Second, "own1@1 "},
		{"no grace", 0, 0, 0, ""},
		{"cancelled", 2 * time.Second, 700 * time.Millisecond, 700 * time.Millisecond, "own1@1 "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := spanstore.New(spanstore.Options{Grace: tc.grace})
				tr := twoTurns(traceA)
				s.Begin(traceA)
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				if tc.cancel > 0 {
					time.AfterFunc(tc.cancel, cancel)
				}
				time.AfterFunc(10*time.Millisecond, func() { s.Add([]trace.Span{span(traceA, "own1", "t1", 1)}) })
				start := time.Now()
				s.Await(ctx, tr, 1)
				if took := time.Since(start); took != tc.want {
					t.Errorf("waited %v, want %v", took, tc.want)
				}
				if got := ids(tr.Spans); got != tc.spans {
					t.Errorf("spans %q, want %q", got, tc.spans)
				}
			})
		})
	}
}

// TestAwaitLastRequest: the wait is for the agent's span of the turn's
// last request; an earlier one it made no span for (an agent card
// fetched before the message) is not waited for.
func TestAwaitLastRequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := spanstore.New(spanstore.Options{Grace: 10 * time.Second, Quiet: 100 * time.Millisecond})
		tr := &trace.Trace{TraceID: traceA, Turns: []trace.Turn{{Index: 0, SpanID: "t0",
			Requests: []trace.RequestSpan{{SpanID: "card", StartNs: 1}, {SpanID: "send", StartNs: 2}}}}}
		s.Begin(traceA)
		start := time.Now()
		time.AfterFunc(30*time.Millisecond, func() { s.Add([]trace.Span{span(traceA, "srv", "send", 5)}) })
		s.Await(context.Background(), tr, 0)
		if took := time.Since(start); took != 130*time.Millisecond {
			t.Errorf("waited %v, want 130ms: the last request's span at 30ms, then 100ms quiet", took)
		}
		if got := ids(tr.Spans); got != "srv@0 " {
			t.Errorf("spans %s", got)
		}
	})
}

// TestAwaitNoRequests: a turn that sent no HTTP request (an MCP server
// over stdio) waits only for the quiet period.
func TestAwaitNoRequests(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := spanstore.New(spanstore.Options{Grace: time.Second, Quiet: 100 * time.Millisecond})
		tr := &trace.Trace{TraceID: traceA, Turns: []trace.Turn{{Index: 0, SpanID: "t0"}}}
		s.Begin(traceA)
		start := time.Now()
		s.Await(context.Background(), tr, 0)
		if took := time.Since(start); took != 100*time.Millisecond {
			t.Errorf("waited %v", took)
		}
		if len(tr.Spans) != 0 {
			t.Errorf("spans %v", tr.Spans)
		}
	})
}
