package receiver_test

import (
	"bufio"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/ananke/action/internal/otel/receiver"
	"github.com/ananke/action/internal/otel/spanstore"
	"github.com/ananke/action/internal/trace"
)

// TestRealExporter: the bodies the OpenTelemetry JS exporter sent for one
// run of each interop agent (testdata/interop/otlp, recorded under the
// traceparent 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01)
// are taken whole, and every span nests under the request's span: all
// are the turn's.
func TestRealExporter(t *testing.T) {
	const traceID, request = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	for _, tc := range []struct {
		file  string
		spans int
	}{{"stock.otlp.jsonl", 11}, {"a2a-stock.otlp.jsonl", 5}} {
		t.Run(tc.file, func(t *testing.T) {
			store, _, url := newReceiver(t, receiver.Options{})
			store.Begin(traceID)
			f, err := os.Open(filepath.Join("..", "..", "..", "testdata", "interop", "otlp", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 16<<20)
			bodies := 0
			for sc.Scan() {
				bodies++
				if status, _, out := post(t, url, "application/json", "", sc.Bytes()); status != http.StatusOK {
					t.Fatalf("body %d: %d %s", bodies, status, out)
				}
			}
			if err := sc.Err(); err != nil || bodies == 0 {
				t.Fatalf("%d bodies read: %v", bodies, err)
			}
			tr := &trace.Trace{TraceID: traceID, Turns: []trace.Turn{{Index: 0, SpanID: "b7ad6b7169203331", Requests: []trace.RequestSpan{{SpanID: request}}}}}
			spans, _ := store.Take(traceID)
			spanstore.Attach(tr, spans)
			if len(tr.Spans) != tc.spans {
				t.Fatalf("%d spans, want %d", len(tr.Spans), tc.spans)
			}
			server := 0
			for _, s := range tr.Spans {
				if s.Turn != 0 || s.TraceID != traceID {
					t.Errorf("span %s %q: turn %d, trace %s", s.SpanID, s.Name, s.Turn, s.TraceID)
				}
				if s.ParentID == request {
					server++
					if s.Kind != "server" {
						t.Errorf("the request's child %q is a %s span", s.Name, s.Kind)
					}
				}
			}
			if server != 1 {
				t.Errorf("%d spans under the request; want the agent's server span", server)
			}
		})
	}
}
