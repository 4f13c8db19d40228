package tracefile_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/tracefile"
)

// TestTraceContextRoundTrip: a trace file keeps the attempt's trace id and
// root span, each turn's span and its requests' spans (Unix ns), and reads
// them back equal.
func TestTraceContextRoundTrip(t *testing.T) {
	tr := &trace.Trace{TestStartMs: 1000, TestEndMs: 3000, TraceID: "0102030405060708090a0b0c0d0e0f10", SpanID: "1112131415161718",
		Turns: []trace.Turn{
			{Index: 0, Kind: "user", StartMs: 1000, EndMs: 2000, ToolCalls: []trace.ToolCall{}, Runs: []trace.Run{}, SpanID: "2122232425262728",
				Requests: []trace.RequestSpan{{SpanID: "292a2b2c2d2e2f30", StartNs: 1_000_000_001, EndNs: 1_999_999_999}, {SpanID: "3132333435363738", StartNs: 1_500_000_000, EndNs: 1_600_000_000}}},
			{Index: 1, Kind: "user", StartMs: 2000, EndMs: 3000, ToolCalls: []trace.ToolCall{}, Runs: []trace.Run{}},
		}}
	tt := &report.Test{ID: "t", Attempts: []report.Attempt{{Trace: tr}}}
	var b bytes.Buffer
	if err := tracefile.Write(&b, tt, &tt.Attempts[0]); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"trace_id":"0102030405060708090a0b0c0d0e0f10","span_id":"1112131415161718"`) {
		t.Errorf("the head lacks the trace context:\n%s", b.String())
	}
	back, err := tracefile.Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	if back.TraceID != tr.TraceID || back.SpanID != tr.SpanID {
		t.Errorf("read back trace %q span %q", back.TraceID, back.SpanID)
	}
	for i, turn := range back.Turns {
		if want := tr.Turns[i]; turn.SpanID != want.SpanID || !reflect.DeepEqual(turn.Requests, want.Requests) {
			t.Errorf("turn %d read back span %q requests %+v; want %q %+v", i, turn.SpanID, turn.Requests, want.SpanID, want.Requests)
		}
	}
}
