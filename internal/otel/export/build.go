// Package export sends a test run to an OpenTelemetry backend as OTLP
// traces (docs/opentelemetry.md, "Test runs out"): Ananke's own spans —
// the run, each test, each attempt, its turns and the HTTP requests they
// sent the agent — with each assertion's result as a
// gen_ai.evaluation.result event, and the agent's spans as they were
// received. It reads only the report model, whose secrets are masked
// already, and masks once more with the report's secret values.
package export

import (
	"fmt"
	"strconv"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// Service is the service.name of Ananke's own spans, and Scope their
// instrumentation scope.
const (
	Service = "ananke"
	Scope   = "github.com/ananke/action"
)

// EvaluationEvent is the event each assertion's result is, after the
// GenAI semantic conventions' evaluation event.
const EvaluationEvent = "gen_ai.evaluation.result"

// Traces builds the OTLP traces of a run. red masks every string exported
// (nil: the report's secret values); the report is masked already, so it
// is a second guard, over the agent's spans above all.
func Traces(r *report.Report, red *report.Redactor) ptrace.Traces {
	if red == nil {
		red = report.NewRedactor(r.MaskValues(), nil)
	}
	b := &builder{red: red, td: ptrace.NewTraces()}
	own := b.td.ResourceSpans().AppendEmpty()
	own.Resource().Attributes().PutStr("service.name", Service)
	if r.Version != "" {
		own.Resource().Attributes().PutStr("service.version", r.Version)
	}
	sc := own.ScopeSpans().AppendEmpty()
	sc.Scope().SetName(Scope)
	sc.Scope().SetVersion(r.Version)
	b.spans = sc.Spans()
	b.run(r)
	return b.td
}

type builder struct {
	red   *report.Redactor
	td    ptrace.Traces
	spans ptrace.SpanSlice
	// agent groups the agent's spans by service and scope.
	agent map[[2]string]ptrace.SpanSlice
}

func (b *builder) str(m pcommon.Map, k, v string) {
	if v != "" {
		m.PutStr(k, b.red.String(v))
	}
}

func (b *builder) span(tid pcommon.TraceID, id, parent pcommon.SpanID, name string, kind ptrace.SpanKind, start, end time.Time) ptrace.Span {
	s := b.spans.AppendEmpty()
	s.SetTraceID(tid)
	s.SetSpanID(id)
	if !parent.IsEmpty() {
		s.SetParentSpanID(parent)
	}
	s.SetName(name)
	s.SetKind(kind)
	s.SetStartTimestamp(pcommon.NewTimestampFromTime(start))
	if end.Before(start) {
		end = start
	}
	s.SetEndTimestamp(pcommon.NewTimestampFromTime(end))
	return s
}

// setStatus gives a span the status of a verdict: error for a failure or
// an error, ok for a pass, unset otherwise.
func (b *builder) setStatus(s ptrace.Span, st status.Status, msg string) {
	switch st {
	case status.Pass:
		s.Status().SetCode(ptrace.StatusCodeOk)
	case status.Fail, status.Error:
		s.Status().SetCode(ptrace.StatusCodeError)
		s.Status().SetMessage(b.red.String(msg))
	}
}

func (b *builder) run(r *report.Report) {
	tid := deriveTrace("run", r.StartedAt.Format(time.RFC3339Nano), r.Config, r.Version)
	rid := deriveSpan(tid.String(), "run")
	s := b.span(tid, rid, pcommon.SpanID{}, "ananke run", ptrace.SpanKindInternal, r.StartedAt, r.EndedAt)
	a := s.Attributes()
	b.str(a, "ananke.config", r.Config)
	b.str(a, "ananke.target.type", r.Target.Type)
	b.str(a, "ananke.target.endpoint", r.Target.Endpoint)
	a.PutStr("ananke.status", string(r.Status))
	a.PutInt("ananke.tests.total", int64(r.Totals.Total))
	a.PutInt("ananke.tests.passed", int64(r.Totals.Passed))
	a.PutInt("ananke.tests.failed", int64(r.Totals.Failed))
	a.PutInt("ananke.tests.errored", int64(r.Totals.Errored))
	a.PutInt("ananke.tests.skipped", int64(r.Totals.Skipped))
	if r.Shard != nil {
		a.PutStr("ananke.shard", fmt.Sprintf("%d/%d", r.Shard.Index, r.Shard.Total))
	}
	b.setStatus(s, r.Status, "")
	for i := range r.Tests {
		b.test(tid, rid, &r.Tests[i], i)
	}
}

func (b *builder) test(tid pcommon.TraceID, parent pcommon.SpanID, t *report.Test, i int) {
	id := deriveSpan(tid.String(), "test", strconv.Itoa(i), t.ID)
	s := b.span(tid, id, parent, "test "+t.ID, ptrace.SpanKindInternal, t.StartedAt, t.StartedAt.Add(ms(t.DurationMs)))
	a := s.Attributes()
	b.str(a, "ananke.test.id", t.ID)
	b.str(a, "ananke.test.name", t.Name)
	b.str(a, "code.filepath", t.File)
	a.PutInt("code.lineno", int64(t.Line))
	a.PutStr("ananke.status", string(t.Status))
	b.str(a, "ananke.reason", t.Reason)
	a.PutInt("ananke.test.runs", int64(t.Runs))
	a.PutDouble("ananke.test.pass_rate", t.PassRate)
	if t.Flaky {
		a.PutBool("ananke.test.flaky", true)
	}
	b.str(a, "ananke.source.adapter", t.Source.Adapter)
	b.setStatus(s, t.Status, t.Reason)
	for j := range t.Attempts {
		at := &t.Attempts[j]
		results := at.Failed
		if j+1 == t.Shown {
			results = t.Assertions
		}
		b.attempt(tid, id, t, at, j, results)
	}
}

// attempt exports an attempt: the root of its own trace when the attempt
// ran under a trace id the agent's requests carried (linked to its test's
// span), else a child of its test's span.
func (b *builder) attempt(runTrace pcommon.TraceID, test pcommon.SpanID, t *report.Test, at *report.Attempt, j int, results []report.Assertion) {
	tr := at.Trace
	if tr == nil {
		tr = &trace.Trace{}
	}
	tid, parent := runTrace, test
	own, ok := traceID(tr.TraceID)
	if ok {
		tid, parent = own, pcommon.SpanID{}
	}
	key := []string{tid.String(), "attempt", t.ID, strconv.Itoa(j)}
	id := spanOr(tr.SpanID, key...)
	s := b.span(tid, id, parent, "attempt "+at.Label(), ptrace.SpanKindInternal, at.StartedAt, at.StartedAt.Add(ms(at.DurationMs)))
	if ok {
		l := s.Links().AppendEmpty()
		l.SetTraceID(runTrace)
		l.SetSpanID(test)
	}
	a := s.Attributes()
	b.str(a, "ananke.test.id", t.ID)
	a.PutInt("ananke.attempt.run", int64(at.Run))
	a.PutInt("ananke.attempt.retry", int64(at.Retry))
	a.PutStr("ananke.status", string(at.Status))
	b.str(a, "ananke.reason", at.Reason)
	usage(a, at.Usage)
	b.setStatus(s, at.Status, at.Reason)
	end := s.EndTimestamp()
	for _, res := range results {
		b.evaluation(s, res, end)
	}
	for k := range tr.Turns {
		b.turn(tid, id, &tr.Turns[k], key)
	}
	b.agentSpans(tr.Spans)
}

func (b *builder) turn(tid pcommon.TraceID, parent pcommon.SpanID, tt *trace.Turn, key []string) {
	key = append(key[:len(key):len(key)], "turn", strconv.Itoa(tt.Index))
	id := spanOr(tt.SpanID, key...)
	s := b.span(tid, id, parent, fmt.Sprintf("turn %d", tt.Index), ptrace.SpanKindInternal, time.UnixMilli(tt.StartMs), time.UnixMilli(tt.EndMs))
	a := s.Attributes()
	a.PutInt("ananke.turn.index", int64(tt.Index))
	b.str(a, "ananke.turn.type", tt.Kind)
	b.str(a, "ananke.turn.user", tt.UserText)
	a.PutInt("ananke.turn.tool_calls", int64(len(tt.ToolCalls)))
	usage(a, tt.Usage)
	if len(tt.RunErrors) > 0 {
		s.Status().SetCode(ptrace.StatusCodeError)
		s.Status().SetMessage(b.red.String(tt.RunErrors[0].Message))
	}
	for k, rq := range tt.Requests {
		rid := spanOr(rq.SpanID, append(key[:len(key):len(key)], "request", strconv.Itoa(k))...)
		b.span(tid, rid, id, "request", ptrace.SpanKindClient, time.Unix(0, rq.StartNs), time.Unix(0, rq.EndNs))
	}
}

// evaluation adds an assertion's result as an event.
func (b *builder) evaluation(s ptrace.Span, res report.Assertion, at pcommon.Timestamp) {
	e := s.Events().AppendEmpty()
	e.SetName(EvaluationEvent)
	e.SetTimestamp(at)
	a := e.Attributes()
	a.PutStr("gen_ai.evaluation.name", res.ID)
	a.PutStr("gen_ai.evaluation.score.label", Label(res.Status))
	if v, ok := Score(res.Status); ok {
		a.PutDouble("gen_ai.evaluation.score.value", v)
	}
	b.str(a, "gen_ai.evaluation.explanation", res.Message)
	b.str(a, "ananke.assertion.kind", res.Kind)
	b.str(a, "ananke.assertion.level", res.Level)
	b.str(a, "ananke.assertion.severity", res.Severity)
	b.str(a, "ananke.assertion.expected", res.Expected)
	b.str(a, "ananke.assertion.observed", res.Observed)
	if res.Source.File != "" {
		a.PutStr("ananke.assertion.source", res.Source.String())
	}
}

// Label is an assertion status as an evaluation's label: pass, fail,
// warn, error or skipped.
func Label(st status.Status) string {
	if st == status.Skip {
		return string(status.Skipped)
	}
	return string(st)
}

// Score is an assertion status as an evaluation's score: 1 for a pass, 0
// for a failure (or a failing warning); none for a check not made.
func Score(st status.Status) (float64, bool) {
	switch st {
	case status.Pass:
		return 1, true
	case status.Fail, status.Warn:
		return 0, true
	}
	return 0, false
}

// usage puts a spend's token counts, when known, as the GenAI
// conventions name them.
func usage(a pcommon.Map, sp *cost.Spend) {
	if sp == nil {
		return
	}
	t := sp.Tokens()
	if n, ok := t.Get(cost.Input); ok {
		a.PutInt("gen_ai.usage.input_tokens", n)
	}
	if n, ok := t.Get(cost.Output); ok {
		a.PutInt("gen_ai.usage.output_tokens", n)
	}
	if usd, ok := sp.CostUSD(); ok {
		a.PutDouble("ananke.cost_usd", usd)
	}
}

func ms(n int64) time.Duration { return time.Duration(n) * time.Millisecond }
