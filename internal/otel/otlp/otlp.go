// Package otlp turns OTLP trace data — what an agent's OpenTelemetry
// exporter sends Ananke's receiver, or what a collector's file exporter
// wrote — into the trace model's spans (docs/opentelemetry.md). It decodes
// with the OpenTelemetry Collector's pdata, never by hand.
package otlp

import (
	"encoding/base64"
	"errors"
	"fmt"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/ananke/action/internal/trace"
)

// Limits on what one span may hold: a span beyond them is kept with its
// attributes cut and a "ananke.truncated" attribute saying so, so that
// a huge attribute never takes the run's memory.
const (
	MaxAttributes     = 128
	MaxAttributeBytes = 16 << 10
	MaxEvents         = 128
)

// ErrNoID is a span without a trace id or a span id.
var ErrNoID = errors.New("a span has no trace id or no span id")

// Decode reads an OTLP export request: protobuf (Content-Type
// application/x-protobuf) when proto is set, else OTLP JSON.
func Decode(body []byte, proto bool) (ptrace.Traces, error) {
	if proto {
		return (&ptrace.ProtoUnmarshaler{}).UnmarshalTraces(body)
	}
	return (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(body)
}

// Spans converts every span of td, in order; Turn is -1 (the caller
// attributes them). A span without ids is an error naming its place.
func Spans(td ptrace.Traces) ([]trace.Span, error) {
	var out []trace.Span
	rss := td.ResourceSpans()
	for i := range rss.Len() {
		rs := rss.At(i)
		service := ""
		if v, ok := rs.Resource().Attributes().Get("service.name"); ok {
			service = v.AsString()
		}
		sss := rs.ScopeSpans()
		for j := range sss.Len() {
			ss := sss.At(j)
			spans := ss.Spans()
			for k := range spans.Len() {
				s := spans.At(k)
				if s.TraceID().IsEmpty() || s.SpanID().IsEmpty() {
					return nil, fmt.Errorf("resourceSpans[%d].scopeSpans[%d].spans[%d] %q: %w", i, j, k, s.Name(), ErrNoID)
				}
				out = append(out, span(s, service, ss.Scope().Name()))
			}
		}
	}
	return out, nil
}

func span(s ptrace.Span, service, scope string) trace.Span {
	out := trace.Span{
		TraceID: s.TraceID().String(), SpanID: s.SpanID().String(), Name: s.Name(),
		Kind: kind(s.Kind()), StartNs: int64(s.StartTimestamp()), EndNs: int64(s.EndTimestamp()),
		Status: status(s.Status().Code()), StatusMessage: s.Status().Message(),
		Attributes: attributes(s.Attributes()), Service: service, Scope: scope, Turn: -1,
	}
	if !s.ParentSpanID().IsEmpty() {
		out.ParentID = s.ParentSpanID().String()
	}
	events := s.Events()
	for i := range min(events.Len(), MaxEvents) {
		e := events.At(i)
		out.Events = append(out.Events, trace.SpanEvent{Name: e.Name(), TimeNs: int64(e.Timestamp()), Attributes: attributes(e.Attributes())})
	}
	if events.Len() > MaxEvents {
		out.Attributes = withTruncated(out.Attributes, fmt.Sprintf("%d events of %d kept", MaxEvents, events.Len()))
	}
	return out
}

func kind(k ptrace.SpanKind) string {
	switch k {
	case ptrace.SpanKindInternal:
		return "internal"
	case ptrace.SpanKindServer:
		return "server"
	case ptrace.SpanKindClient:
		return "client"
	case ptrace.SpanKindProducer:
		return "producer"
	case ptrace.SpanKindConsumer:
		return "consumer"
	}
	return ""
}

func status(c ptrace.StatusCode) string {
	switch c {
	case ptrace.StatusCodeOk:
		return "ok"
	case ptrace.StatusCodeError:
		return "error"
	}
	return ""
}

// attributes converts a map, within the limits.
func attributes(m pcommon.Map) map[string]any {
	if m.Len() == 0 {
		return nil
	}
	out := make(map[string]any, min(m.Len(), MaxAttributes))
	cut := 0
	m.Range(func(k string, v pcommon.Value) bool {
		if len(out) >= MaxAttributes {
			cut++
			return true
		}
		val := value(v)
		if s, ok := val.(string); ok && len(s) > MaxAttributeBytes {
			val = s[:MaxAttributeBytes]
			cut++
		}
		out[k] = val
		return true
	})
	if cut > 0 {
		out = withTruncated(out, fmt.Sprintf("%d attributes cut or dropped (limits: %d attributes, %d bytes each)", cut, MaxAttributes, MaxAttributeBytes))
	}
	return out
}

func withTruncated(m map[string]any, why string) map[string]any {
	if m == nil {
		m = map[string]any{}
	}
	m["ananke.truncated"] = why
	return m
}

// value is an attribute value as JSON would hold it.
func value(v pcommon.Value) any {
	switch v.Type() {
	case pcommon.ValueTypeStr:
		return v.Str()
	case pcommon.ValueTypeInt:
		return v.Int()
	case pcommon.ValueTypeDouble:
		return v.Double()
	case pcommon.ValueTypeBool:
		return v.Bool()
	case pcommon.ValueTypeBytes:
		return base64.StdEncoding.EncodeToString(v.Bytes().AsRaw())
	case pcommon.ValueTypeSlice:
		s := v.Slice()
		out := make([]any, 0, min(s.Len(), MaxAttributes))
		for i := range min(s.Len(), MaxAttributes) {
			out = append(out, value(s.At(i)))
		}
		return out
	case pcommon.ValueTypeMap:
		return attributes(v.Map())
	}
	return nil
}
