package tracefile_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/tracefile"
)

// TestSpansRoundTrip: a trace file keeps the agent's spans, masked —
// names, status messages, attributes however deep, events — and that the
// receiver was on, so a trace read back has the same spans and
// capabilities.
func TestSpansRoundTrip(t *testing.T) {
	out := reporttest.BackendOutcome()
	tr := out.Tests[0].Attempts[0].Trace
	tr.TraceID, tr.OTelReceiver = "0af7651916cd43dd8448eb211c80319c", true
	tr.Spans = []trace.Span{
		{TraceID: tr.TraceID, SpanID: "00f067aa0ba902b7", Name: "invoke_agent shop", Kind: "server", StartNs: 10, EndNs: 90, Service: "shop-agent", Scope: "mastra", Turn: 0,
			Attributes: map[string]any{"gen_ai.operation.name": "invoke_agent", "gen_ai.usage.input_tokens": int64(12)}},
		{TraceID: tr.TraceID, SpanID: "00f067aa0ba902b8", ParentID: "00f067aa0ba902b7", Name: "execute_tool reserve", StartNs: 20, EndNs: 30,
			Status: "error", StatusMessage: "refused " + reporttest.Secret, Turn: 0,
			Attributes: map[string]any{"gen_ai.tool.call.arguments": `{"token":"` + reporttest.Secret + `"}`, "nested": map[string]any{"list": []any{"x " + reporttest.Secret, true}}},
			Events:     []trace.SpanEvent{{Name: "exception", TimeNs: 25, Attributes: map[string]any{"exception.message": "bad key " + reporttest.Secret}}}},
		{TraceID: tr.TraceID, SpanID: "00f067aa0ba902b9", ParentID: "ffffffffffffffff", Name: "background", StartNs: 95, EndNs: 99, Turn: -1},
	}
	r := report.Build(out, report.Meta{Version: "v1.2.3", Config: reporttest.Config()})
	tt := &r.Tests[0]
	shown := tt.Attempts[0].Trace
	if len(shown.Spans) != 3 || !shown.OTelReceiver {
		t.Fatalf("the report's trace has %d spans, receiver %v", len(shown.Spans), shown.OTelReceiver)
	}
	if strings.Contains(js(t, shown.Spans), reporttest.Secret) || !strings.Contains(js(t, tr.Spans), reporttest.Secret) {
		t.Errorf("the report's spans are not masked (or the run's were): %s", js(t, shown.Spans))
	}
	var b bytes.Buffer
	if err := tracefile.Write(&b, tt, &tt.Attempts[0]); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), reporttest.Secret) {
		t.Error("the trace file shows the secret")
	}
	back, err := tracefile.Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := js(t, back.Spans), js(t, shown.Spans); got != want {
		t.Errorf("spans read back\n%s\nwant\n%s", got, want)
	}
	if !back.OTelReceiver || !slices.Contains(back.Caps(), capability.Spans) || !slices.Equal(back.Caps(), shown.Caps()) {
		t.Errorf("read back: receiver %v, capabilities %v; want %v", back.OTelReceiver, back.Caps(), shown.Caps())
	}
}

func js(t *testing.T, v any) string {
	t.Helper()
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
