package export

import (
	"fmt"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/ananke/action/internal/trace"
)

// agentSpans exports the agent's spans as they were received, grouped by
// their service and scope; only secrets are masked.
func (b *builder) agentSpans(spans []trace.Span) {
	for i := range spans {
		sp := &spans[i]
		tid, ok := traceID(sp.TraceID)
		id, ok2 := spanID(sp.SpanID)
		if !ok || !ok2 {
			continue // the receiver and the reader never keep such a span
		}
		s := b.agentSlice(sp.Service, sp.Scope).AppendEmpty()
		s.SetTraceID(tid)
		s.SetSpanID(id)
		if p, ok := spanID(sp.ParentID); ok {
			s.SetParentSpanID(p)
		}
		s.SetName(b.red.String(sp.Name))
		s.SetKind(kindOf(sp.Kind))
		s.SetStartTimestamp(pcommon.Timestamp(sp.StartNs))
		s.SetEndTimestamp(pcommon.Timestamp(sp.EndNs))
		switch sp.Status {
		case "ok":
			s.Status().SetCode(ptrace.StatusCodeOk)
		case "error":
			s.Status().SetCode(ptrace.StatusCodeError)
		}
		s.Status().SetMessage(b.red.String(sp.StatusMessage))
		b.attributes(s.Attributes(), sp.Attributes)
		for _, ev := range sp.Events {
			e := s.Events().AppendEmpty()
			e.SetName(b.red.String(ev.Name))
			e.SetTimestamp(pcommon.Timestamp(ev.TimeNs))
			b.attributes(e.Attributes(), ev.Attributes)
		}
	}
}

func (b *builder) agentSlice(service, scope string) ptrace.SpanSlice {
	k := [2]string{service, scope}
	if s, ok := b.agent[k]; ok {
		return s
	}
	if b.agent == nil {
		b.agent = map[[2]string]ptrace.SpanSlice{}
	}
	rs := b.td.ResourceSpans().AppendEmpty()
	if service != "" {
		rs.Resource().Attributes().PutStr("service.name", b.red.String(service))
	}
	ss := rs.ScopeSpans().AppendEmpty()
	ss.Scope().SetName(b.red.String(scope))
	b.agent[k] = ss.Spans()
	return ss.Spans()
}

func kindOf(k string) ptrace.SpanKind {
	switch k {
	case "internal":
		return ptrace.SpanKindInternal
	case "server":
		return ptrace.SpanKindServer
	case "client":
		return ptrace.SpanKindClient
	case "producer":
		return ptrace.SpanKindProducer
	case "consumer":
		return ptrace.SpanKindConsumer
	}
	return ptrace.SpanKindUnspecified
}

// attributes puts a span's attributes, strings masked.
func (b *builder) attributes(m pcommon.Map, attrs map[string]any) {
	for k, v := range attrs {
		b.value(m.PutEmpty(b.red.String(k)), v)
	}
}

// value sets v from an attribute value as the trace model holds it:
// strings, integers, doubles, booleans, lists and maps.
func (b *builder) value(dst pcommon.Value, v any) {
	switch x := v.(type) {
	case string:
		dst.SetStr(b.red.String(x))
	case bool:
		dst.SetBool(x)
	case int64:
		dst.SetInt(x)
	case int:
		dst.SetInt(int64(x))
	case float64:
		dst.SetDouble(x)
	case []any:
		s := dst.SetEmptySlice()
		for _, e := range x {
			b.value(s.AppendEmpty(), e)
		}
	case map[string]any:
		b.attributes(dst.SetEmptyMap(), x)
	case nil:
	default:
		dst.SetStr(b.red.String(fmt.Sprint(x)))
	}
}
