package spanstore

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/ananke/action/internal/trace"
)

// Await waits, once turn i of tr (its Index) ended, for the agent's
// spans of the turn, then attaches to tr every span of its trace id that
// arrived (Attach). The turn's spans are complete when the agent's span
// of the last HTTP request the turn sent it (a span whose parent is the
// request's span: its server span, which ends after all it did) has
// arrived and then no span arrives for Options.Quiet; an earlier request
// the agent made no span for — an agent card, a token — is not waited
// for. Await waits no longer than Options.Grace, nor once ctx is done.
// It returns how many spans of the attempt were dropped over its limit.
func (s *Store) Await(ctx context.Context, tr *trace.Trace, i int) int {
	id, dropped := tr.TraceID, 0
	take := func() {
		spans, d := s.Take(id)
		dropped += d
		Attach(tr, spans)
	}
	if s.opts.Grace == 0 {
		take()
		return dropped
	}
	deadline := s.opts.After(s.opts.Grace)
	for {
		changed := s.changed(id) // before taking: no arrival is missed
		take()
		var quiet <-chan time.Time
		if answered(tr, i) {
			quiet = s.opts.After(s.opts.Quiet)
		}
		select {
		case <-changed:
			continue
		case <-quiet:
		case <-deadline:
		case <-ctx.Done():
		}
		take()
		return dropped
	}
}

// answered reports whether the last request turn i sent (the last to
// start) has a span of the agent under it; true for a turn that sent
// none.
func answered(tr *trace.Trace, i int) bool {
	var last *trace.RequestSpan
	for j := range tr.Turns {
		if tr.Turns[j].Index != i {
			continue
		}
		for k := range tr.Turns[j].Requests {
			if r := &tr.Turns[j].Requests[k]; last == nil || r.StartNs >= last.StartNs {
				last = r
			}
		}
	}
	if last == nil {
		return true
	}
	for j := range tr.Spans {
		if tr.Spans[j].ParentID == last.SpanID {
			return true
		}
	}
	return false
}

// Attach adds spans to tr.Spans, each with the turn it belongs to by
// ancestry: the turn whose span, or the span of one of whose requests,
// it descends from; -1 when it descends from none (the attempt's own
// span, or a parent that has not arrived). A span attached before with
// no turn gets one when its missing ancestors have come. tr.Spans stays
// in the order spans started (arrival order among equal starts).
func Attach(tr *trace.Trace, spans []trace.Span) {
	if len(spans) == 0 {
		return
	}
	from := len(tr.Spans)
	tr.Spans = append(tr.Spans, spans...)
	for j := from; j < len(tr.Spans); j++ {
		tr.Spans[j].Turn = -1
	}
	anchors := map[string]int{}
	for i := range tr.Turns {
		t := &tr.Turns[i]
		if t.SpanID != "" {
			anchors[t.SpanID] = t.Index
		}
		for _, r := range t.Requests {
			anchors[r.SpanID] = t.Index
		}
	}
	parents := make(map[string]string, len(tr.Spans))
	for j := range tr.Spans {
		parents[tr.Spans[j].SpanID] = tr.Spans[j].ParentID
	}
	for j := range tr.Spans {
		if sp := &tr.Spans[j]; sp.Turn < 0 {
			sp.Turn = turnOf(sp.ParentID, anchors, parents)
		}
	}
	slices.SortStableFunc(tr.Spans, func(a, b trace.Span) int { return cmp.Compare(a.StartNs, b.StartNs) })
}

// turnOf follows the parents from parent up to a turn's span or a
// request's; -1 when the chain leaves the spans known (or loops).
func turnOf(parent string, anchors map[string]int, parents map[string]string) int {
	for range len(parents) + 1 {
		if parent == "" {
			return -1
		}
		if t, ok := anchors[parent]; ok {
			return t
		}
		p, ok := parents[parent]
		if !ok {
			return -1
		}
		parent = p
	}
	return -1
}

// Of returns the spans of tr attributed to turn i (its Index), in tr's
// order.
func Of(tr *trace.Trace, i int) []trace.Span {
	var out []trace.Span
	for j := range tr.Spans {
		if tr.Spans[j].Turn == i {
			out = append(out, tr.Spans[j])
		}
	}
	return out
}
