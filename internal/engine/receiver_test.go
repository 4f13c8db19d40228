package engine_test

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/ananke/action/internal/agui/aguitest"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/otel/receiver"
	"github.com/ananke/action/internal/otel/spanstore"
	"github.com/ananke/action/internal/status"
)

// tracedAgent answers as textAgent does, after exporting to the OTLP
// receiver at url, as an instrumented agent does, its server span under
// the request's traceparent and a tool span under it.
func tracedAgent(t *testing.T, url string) aguitest.Handler {
	return func(r *aguitest.Request) aguitest.Response {
		parts := strings.Split(r.Header.Get("traceparent"), "-")
		if len(parts) != 4 {
			t.Errorf("traceparent %q", r.Header.Get("traceparent"))
			return textAgent(r)
		}
		var tid pcommon.TraceID
		var parent pcommon.SpanID
		a, errA := hex.DecodeString(parts[1])
		b, errB := hex.DecodeString(parts[2])
		if errA != nil || errB != nil || copy(tid[:], a) != 16 || copy(parent[:], b) != 8 {
			t.Errorf("traceparent %q", r.Header.Get("traceparent"))
		}
		td := ptrace.NewTraces()
		rs := td.ResourceSpans().AppendEmpty()
		rs.Resource().Attributes().PutStr("service.name", "shop-agent")
		ss := rs.ScopeSpans().AppendEmpty()
		server := ss.Spans().AppendEmpty()
		server.SetTraceID(tid)
		server.SetSpanID(pcommon.SpanID{0xa, parent[1], parent[2], parent[3], parent[4], parent[5], parent[6], parent[7]})
		server.SetParentSpanID(parent)
		server.SetName("POST /agent")
		server.SetKind(ptrace.SpanKindServer)
		tool := ss.Spans().AppendEmpty()
		tool.SetTraceID(tid)
		tool.SetSpanID(pcommon.SpanID{0xb, parent[1], parent[2], parent[3], parent[4], parent[5], parent[6], parent[7]})
		tool.SetParentSpanID(server.SpanID())
		tool.SetName("execute_tool check_stock")
		body, err := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.Post(url+receiver.Path, "application/x-protobuf", bytes.NewReader(body))
		if err != nil {
			t.Errorf("export: %v", err)
		} else if resp.Body.Close(); resp.StatusCode != http.StatusOK {
			t.Errorf("export: %s", resp.Status)
		}
		return textAgent(r)
	}
}

// TestSpansFromTheAgent: an agent that exports its spans under the
// traceparent of each request, to a real receiver, while tests run four
// at a time: every attempt's trace holds its own spans, each in the turn
// whose request it answered, and no span is left without a test.
func TestSpansFromTheAgent(t *testing.T) {
	store := spanstore.New(spanstore.Options{After: fired})
	rcv := httptest.NewServer(receiver.New(store, receiver.Options{}))
	defer rcv.Close()
	agent := aguitest.New(t, tracedAgent(t, rcv.URL))
	tests := map[string]string{}
	for i := range 8 {
		tests[fmt.Sprintf("t%d", i)] = "turns: [{user: a}, {user: b}]\n"
	}
	rs := run(t, suite(t, agent.Endpoint(), "", tests), func(o *engine.Options) { o.Spans, o.Parallel = store, 4 })
	ids := map[string]bool{}
	for _, r := range rs {
		if r.Status != status.Pass {
			t.Fatalf("%s: %s %s", r.Test.ID, r.Status, r.Reason)
		}
		tr := r.Shown().Trace
		ids[tr.TraceID] = true
		var got []string
		for _, sp := range tr.Spans {
			if sp.TraceID != tr.TraceID {
				t.Errorf("%s holds a span of %s", r.Test.ID, sp.TraceID)
			}
			got = append(got, fmt.Sprintf("%s@%d", sp.Name, sp.Turn))
		}
		if want := "POST /agent@0 execute_tool check_stock@0 POST /agent@1 execute_tool check_stock@1"; strings.Join(got, " ") != want {
			t.Errorf("%s spans %s\nwant %s", r.Test.ID, strings.Join(got, " "), want)
		}
	}
	if len(ids) != 8 {
		t.Errorf("%d trace ids for 8 attempts", len(ids))
	}
	if st := store.Stats(); st.Received != 8*4 || st.Unattributed != 0 || st.Late != 0 {
		t.Errorf("store %+v", st)
	}
}
