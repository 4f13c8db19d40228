package otlp

import (
	"errors"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// TestSpans: a span keeps its ids, kind, status, times, service, scope,
// attributes of every type and events; attributes past the limits are
// cut and say so; a span without ids is an error naming its place.
func TestSpans(t *testing.T) {
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", "shop")
	ss := rs.ScopeSpans().AppendEmpty()
	ss.Scope().SetName("mastra")
	s := ss.Spans().AppendEmpty()
	s.SetTraceID(pcommon.TraceID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	s.SetSpanID(pcommon.SpanID{1, 1, 1, 1, 1, 1, 1, 1})
	s.SetParentSpanID(pcommon.SpanID{2, 2, 2, 2, 2, 2, 2, 2})
	s.SetName("execute_tool check_stock")
	s.SetKind(ptrace.SpanKindClient)
	s.SetStartTimestamp(1_000_000_000)
	s.SetEndTimestamp(1_250_000_000)
	s.Status().SetCode(ptrace.StatusCodeError)
	s.Status().SetMessage("no stock service")
	a := s.Attributes()
	a.PutStr("gen_ai.tool.name", "check_stock")
	a.PutInt("count", 3)
	a.PutDouble("ratio", 0.5)
	a.PutBool("ok", true)
	a.PutEmptyBytes("raw").FromRaw([]byte("hi"))
	a.PutEmptySlice("skus").AppendEmpty().SetStr("A-1")
	a.PutEmptyMap("nested").PutStr("k", "v")
	a.PutStr("huge", strings.Repeat("x", MaxAttributeBytes+1))
	e := s.Events().AppendEmpty()
	e.SetName("retry")
	e.SetTimestamp(1_100_000_000)

	got, err := Spans(td)
	if err != nil || len(got) != 1 {
		t.Fatalf("Spans = %d spans, %v", len(got), err)
	}
	sp := got[0]
	if sp.TraceID != "0102030405060708090a0b0c0d0e0f10" || sp.SpanID != "0101010101010101" || sp.ParentID != "0202020202020202" ||
		sp.Kind != "client" || sp.Status != "error" || sp.StatusMessage != "no stock service" || sp.DurationMs() != 250 ||
		sp.Service != "shop" || sp.Scope != "mastra" || sp.Turn != -1 || len(sp.Events) != 1 || sp.Events[0].Name != "retry" {
		t.Errorf("span %+v", sp)
	}
	for k, want := range map[string]any{"gen_ai.tool.name": "check_stock", "count": int64(3), "ratio": 0.5, "ok": true, "raw": "aGk="} {
		if sp.Attributes[k] != want {
			t.Errorf("attribute %s = %#v, want %#v", k, sp.Attributes[k], want)
		}
	}
	if l, _ := sp.Attributes["skus"].([]any); len(l) != 1 || l[0] != "A-1" {
		t.Errorf("skus = %#v", sp.Attributes["skus"])
	}
	if m, _ := sp.Attributes["nested"].(map[string]any); m["k"] != "v" {
		t.Errorf("nested = %#v", sp.Attributes["nested"])
	}
	if h, _ := sp.Attributes["huge"].(string); len(h) != MaxAttributeBytes || sp.Attributes["ananke.truncated"] == nil {
		t.Errorf("a huge attribute is %d bytes, truncated %v", len(h), sp.Attributes["ananke.truncated"])
	}

	s.SetSpanID(pcommon.SpanID{})
	if _, err := Spans(td); !errors.Is(err, ErrNoID) || !strings.Contains(err.Error(), "resourceSpans[0].scopeSpans[0].spans[0]") {
		t.Errorf("a span without an id: %v", err)
	}
}

// TestDecode: both encodings of the same data decode alike; garbage is
// an error, never spans.
func TestDecode(t *testing.T) {
	td := ptrace.NewTraces()
	s := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans().AppendEmpty()
	s.SetTraceID(pcommon.TraceID{1})
	s.SetSpanID(pcommon.SpanID{1})
	s.SetName("POST /agent")
	pb, _ := (&ptrace.ProtoMarshaler{}).MarshalTraces(td)
	js, _ := (&ptrace.JSONMarshaler{}).MarshalTraces(td)
	for _, c := range []struct {
		body  []byte
		proto bool
	}{{pb, true}, {js, false}} {
		got, err := Decode(c.body, c.proto)
		if err != nil {
			t.Fatal(err)
		}
		if spans, err := Spans(got); err != nil || len(spans) != 1 || spans[0].Name != "POST /agent" {
			t.Errorf("proto %v: %+v %v", c.proto, spans, err)
		}
	}
	if _, err := Decode([]byte(`{"resourceSpans": 7}`), false); err == nil {
		t.Error("a body of the wrong shape decoded")
	}
}
