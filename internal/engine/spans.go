package engine

import (
	"context"
	"fmt"

	"github.com/ananke/action/internal/otel/genai"
	"github.com/ananke/action/internal/otel/spanstore"
	"github.com/ananke/action/internal/trace"
)

// The agent's OpenTelemetry spans reach each attempt's trace through
// Options.Spans, the store Ananke's OTLP receiver fills
// (docs/opentelemetry.md, "Spans in"): every request of an attempt
// carries its trace id, so the agent's spans name the attempt they
// belong to, however many run at once. An attempt that reaches the agent
// begins its trace id in the store before its first turn; at the end of
// each turn it waits, within the grace, for the turn's spans and
// attaches them, by ancestry, before the turn is priced and checked; at
// its end it takes what came late.

// startSpans begins the attempt's trace id in the store, when the
// receiver is on, the attempt reaches the agent (a replay does not) and
// it has a trace id; the trace then has capability.Spans.
func (e *engine) startSpans(tr *trace.Trace) {
	if e.opts.Spans == nil || tr.TraceID == "" || tr.OTelReceiver || (e.opts.Tape != nil && !e.opts.Tape.Live()) {
		return
	}
	e.opts.Spans.Begin(tr.TraceID)
	tr.OTelReceiver = true
}

// turnSpans waits for the agent's spans of the turn that ended (unless
// wait is false: a turn that failed — an agent that did not answer —
// is not waited for), attaches what arrived to the trace, and fills the
// turn with the tool calls and usage they describe (genai.Fill).
func (e *engine) turnSpans(ctx context.Context, tr *trace.Trace, turn *trace.Turn, r *Attempt, wait bool) {
	e.startSpans(tr)
	if !tr.OTelReceiver {
		return
	}
	var dropped int
	if wait {
		dropped = e.opts.Spans.Await(ctx, tr, turn.Index)
	} else {
		var spans []trace.Span
		spans, dropped = e.opts.Spans.Take(tr.TraceID)
		spanstore.Attach(tr, spans)
	}
	e.droppedSpans(dropped, turn.Index, r)
	genai.Fill(turn, spanstore.Of(tr, turn.Index))
}

// lateSpans attaches, before the test's own checks, the spans that came
// since the last turn's.
func (e *engine) lateSpans(tr *trace.Trace, r *Attempt) {
	if !tr.OTelReceiver {
		return
	}
	spans, dropped := e.opts.Spans.Take(tr.TraceID)
	spanstore.Attach(tr, spans)
	e.droppedSpans(dropped, len(tr.Turns)-1, r)
}

// endSpans takes, at the attempt's end, the spans that came after its
// last turn's, and stops keeping its trace id: what comes later is
// counted late by the store.
func (e *engine) endSpans(tr *trace.Trace, r *Attempt) {
	if !tr.OTelReceiver {
		return
	}
	spans, dropped := e.opts.Spans.End(tr.TraceID)
	spanstore.Attach(tr, spans)
	e.droppedSpans(dropped, len(tr.Turns)-1, r)
}

// droppedSpans warns of spans the store dropped over an attempt's limit,
// at the turn they were taken in (the last, after the last turn).
func (e *engine) droppedSpans(n, turn int, r *Attempt) {
	if n == 0 {
		return
	}
	r.Warnings = append(r.Warnings, Warning{Turn: max(turn, 0), Rule: "otel",
		Message: fmt.Sprintf("%d of the agent's spans were dropped: an attempt keeps at most %d", n, e.opts.Spans.MaxPerTrace())})
}
