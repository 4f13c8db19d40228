package engine_test

import (
	"crypto/rand"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ananke/action/internal/agui/aguitest"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/status"
)

// stepping is a clock that moves a millisecond at each reading.
func stepping() func() time.Time {
	var mu sync.Mutex
	t := time.Unix(1_700_000_000, 0)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(time.Millisecond)
		return t
	}
}

// TestTraceContext: every request of an attempt carries its trace id in a
// sampled traceparent naming a span of its own, which the trace keeps on
// the turn that sent it, with the configured tracestate; two tests run at
// once have their own trace ids.
func TestTraceContext(t *testing.T) {
	srv := aguitest.New(t, textAgent)
	test := "turns:\n  - user: one\n  - user: two\n"
	s := suite(t, srv.Endpoint(), "", map[string]string{"a": test, "b": test})
	rs := run(t, s, func(o *engine.Options) {
		o.Parallel, o.TraceState, o.TraceIDs, o.Now = 2, "ananke=t1", rand.Reader, stepping()
	})
	byParent := map[string]aguitest.Request{}
	for _, req := range srv.Requests() {
		if st := req.Header.Get("tracestate"); st != "ananke=t1" {
			t.Errorf("tracestate %q", st)
		}
		byParent[req.Header.Get("traceparent")] = req
	}
	if len(byParent) != 4 {
		t.Fatalf("%d distinct traceparents for 4 requests: %v", len(byParent), byParent)
	}
	traces := map[string]bool{}
	for _, r := range rs {
		if r.Status != status.Pass {
			t.Fatalf("%s: %s %s", r.Test.ID, r.Status, r.Reason)
		}
		tr := r.Shown().Trace
		if len(tr.TraceID) != 32 || len(tr.SpanID) != 16 || traces[tr.TraceID] {
			t.Errorf("%s: trace id %q, root span %q (trace ids so far %v)", r.Test.ID, tr.TraceID, tr.SpanID, traces)
		}
		traces[tr.TraceID] = true
		spans := map[string]bool{tr.SpanID: true}
		for _, turn := range tr.Turns {
			if len(turn.SpanID) != 16 || spans[turn.SpanID] {
				t.Errorf("%s turn %d: span %q", r.Test.ID, turn.Index, turn.SpanID)
			}
			spans[turn.SpanID] = true
			if len(turn.Requests) != 1 {
				t.Fatalf("%s turn %d: %d requests, want 1", r.Test.ID, turn.Index, len(turn.Requests))
			}
			rq := turn.Requests[0]
			req, ok := byParent["00-"+tr.TraceID+"-"+rq.SpanID+"-01"]
			if !ok {
				t.Errorf("%s turn %d: no request named span %s of trace %s", r.Test.ID, turn.Index, rq.SpanID, tr.TraceID)
				continue
			}
			if want := []string{"one", "two"}[turn.Index]; !strings.Contains(string(req.Body), want) {
				t.Errorf("%s turn %d: its span's request sent %s", r.Test.ID, turn.Index, req.Body)
			}
			if rq.StartNs <= 0 || rq.EndNs < rq.StartNs {
				t.Errorf("%s turn %d: request span from %d to %d", r.Test.ID, turn.Index, rq.StartNs, rq.EndNs)
			}
		}
	}
}

// TestTraceStateInvalid: a tracestate that is not W3C's errors every
// attempt, saying why, and sends nothing.
func TestTraceStateInvalid(t *testing.T) {
	srv := aguitest.New(t, textAgent)
	s := suite(t, srv.Endpoint(), "", map[string]string{"a": "turns:\n  - user: one\n"})
	r := one(t, run(t, s, func(o *engine.Options) { o.TraceState = "not a tracestate" }))
	if r.Status != status.Error || !strings.Contains(r.Reason, `tracestate "not a tracestate"`) {
		t.Errorf("status %s, reason %q", r.Status, r.Reason)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}
