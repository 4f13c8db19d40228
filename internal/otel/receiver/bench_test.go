package receiver_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/ananke/action/internal/otel/receiver"
	"github.com/ananke/action/internal/otel/spanstore"
)

// benchTraces is a batch of n spans as an instrumented agent exports
// them: one resource, one scope, each span with GenAI attributes and an
// event.
func benchTraces(n int) ptrace.Traces {
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", "shop-agent")
	rs.Resource().Attributes().PutStr("telemetry.sdk.language", "nodejs")
	ss := rs.ScopeSpans().AppendEmpty()
	ss.Scope().SetName("mastra")
	for i := range n {
		s := ss.Spans().AppendEmpty()
		s.SetTraceID(traceA)
		s.SetSpanID(pcommon.SpanID{0, 0, 0, 0, 0, 0, byte(i >> 8), byte(i) + 1})
		s.SetParentSpanID(pcommon.SpanID{1})
		s.SetName(fmt.Sprintf("execute_tool check_stock %d", i))
		s.SetKind(ptrace.SpanKindInternal)
		s.SetStartTimestamp(pcommon.Timestamp(1_000_000 + i))
		s.SetEndTimestamp(pcommon.Timestamp(2_000_000 + i))
		a := s.Attributes()
		a.PutStr("gen_ai.operation.name", "execute_tool")
		a.PutStr("gen_ai.tool.name", "check_stock")
		a.PutStr("gen_ai.tool.call.id", fmt.Sprintf("call-%d", i))
		a.PutStr("gen_ai.tool.call.arguments", `{"sku":"A-1"}`)
		a.PutStr("gen_ai.tool.call.result", `{"in_stock":4}`)
		a.PutStr("gen_ai.request.model", "gpt-4o-mini")
		a.PutInt("gen_ai.usage.input_tokens", 1200)
		a.PutInt("gen_ai.usage.output_tokens", 80)
		e := s.Events().AppendEmpty()
		e.SetName("log")
		e.Attributes().PutStr("message", "stock read")
	}
	return td
}

// BenchmarkReceive: one export request of 100 spans, taken by the
// receiver's handler (no network): read, decoded with pdata, converted,
// kept in the store for its attempt. ns/span is the cost of a span.
func BenchmarkReceive(b *testing.B) {
	const spans = 100
	for _, proto := range []bool{true, false} {
		b.Run(map[bool]string{true: "protobuf", false: "json"}[proto], func(b *testing.B) {
			payload := body(b, benchTraces(spans), proto, false)
			store := spanstore.New(spanstore.Options{MaxPerTrace: 1 << 30})
			store.Begin(traceA.String())
			r := receiver.New(store, receiver.Options{})
			b.SetBytes(int64(len(payload)))
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, receiver.Path, bytes.NewReader(payload))
				req.Header.Set("Content-Type", contentType(proto))
				w := httptest.NewRecorder()
				r.ServeHTTP(w, req)
				if w.Code != http.StatusOK {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
				store.Take(traceA.String())
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*spans), "ns/span")
		})
	}
}
