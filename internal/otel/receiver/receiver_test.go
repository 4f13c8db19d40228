package receiver_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/ananke/action/internal/otel/receiver"
	"github.com/ananke/action/internal/otel/spanstore"
	"github.com/ananke/action/internal/trace"
)

var (
	traceA = pcommon.TraceID{0x0a, 0xf7, 0x65, 0x19, 0x16, 0xcd, 0x43, 0xdd, 0x84, 0x48, 0xeb, 0x21, 0x1c, 0x80, 0x31, 0x9c}
	traceB = pcommon.TraceID{0x4b, 0xf9, 0x2f, 0x35, 0x77, 0xb3, 0x4d, 0xa6, 0xa3, 0xce, 0x92, 0x9d, 0x0e, 0x0e, 0x47, 0x36}
)

// sp is a span to send: its trace, its id and its parent's (0: none).
type sp struct {
	trace      pcommon.TraceID
	id, parent byte
	name       string
}

// traces builds what an agent's exporter sends: one resource (service
// shop-agent), one scope, the spans.
func traces(spans ...sp) ptrace.Traces {
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", "shop-agent")
	ss := rs.ScopeSpans().AppendEmpty()
	ss.Scope().SetName("mastra")
	for _, s := range spans {
		out := ss.Spans().AppendEmpty()
		out.SetTraceID(s.trace)
		out.SetSpanID(pcommon.SpanID{0, 0, 0, 0, 0, 0, 0, s.id})
		if s.parent != 0 {
			out.SetParentSpanID(pcommon.SpanID{0, 0, 0, 0, 0, 0, 0, s.parent})
		}
		out.SetName(s.name)
		out.SetKind(ptrace.SpanKindServer)
		out.SetStartTimestamp(pcommon.Timestamp(1_000 + int64(s.id)))
		out.SetEndTimestamp(pcommon.Timestamp(2_000_000 + int64(s.id)))
		out.Attributes().PutStr("gen_ai.operation.name", "execute_tool")
		out.Attributes().PutInt("gen_ai.usage.input_tokens", 12)
	}
	return td
}

// body encodes td as an export request, gzipped when zip is set.
func body(t testing.TB, td ptrace.Traces, proto, zip bool) []byte {
	t.Helper()
	req := ptraceotlp.NewExportRequestFromTraces(td)
	var b []byte
	var err error
	if proto {
		b, err = req.MarshalProto()
	} else {
		b, err = req.MarshalJSON()
	}
	if err != nil {
		t.Fatal(err)
	}
	if !zip {
		return b
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(b)
	zw.Close()
	return z.Bytes()
}

func contentType(proto bool) string {
	if proto {
		return "application/x-protobuf"
	}
	return "application/json"
}

// post sends an export request and returns the answer's status, content
// type and body.
func post(t *testing.T, url, ctype, encoding string, b []byte) (int, string, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url+receiver.Path, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", ctype)
	if encoding != "" {
		req.Header.Set("Content-Encoding", encoding)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), out
}

func newReceiver(t *testing.T, opts receiver.Options) (*spanstore.Store, *receiver.Receiver, string) {
	store := spanstore.New(spanstore.Options{})
	r := receiver.New(store, opts)
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return store, r, srv.URL
}

// TestReceive: protobuf and JSON bodies, gzipped or not, are answered
// with an empty ExportTraceServiceResponse in their encoding, and their
// spans reach the store whole.
func TestReceive(t *testing.T) {
	for _, tc := range []struct {
		proto, zip bool
	}{{true, false}, {false, false}, {true, true}, {false, true}} {
		t.Run(fmt.Sprintf("proto=%v,gzip=%v", tc.proto, tc.zip), func(t *testing.T) {
			store, r, url := newReceiver(t, receiver.Options{})
			store.Begin(traceA.String())
			enc := ""
			if tc.zip {
				enc = "gzip"
			}
			status, ctype, out := post(t, url, contentType(tc.proto)+"; charset=utf-8", enc, body(t, traces(sp{traceA, 1, 0, "agent.run"}, sp{traceA, 2, 1, "tool.check_stock"}), tc.proto, tc.zip))
			if status != http.StatusOK || ctype != contentType(tc.proto) {
				t.Fatalf("status %d, content type %q: %s", status, ctype, out)
			}
			resp := ptraceotlp.NewExportResponse()
			var err error
			if tc.proto {
				err = resp.UnmarshalProto(out)
			} else {
				err = resp.UnmarshalJSON(out)
			}
			if err != nil || resp.PartialSuccess().RejectedSpans() != 0 || resp.PartialSuccess().ErrorMessage() != "" {
				t.Errorf("response %q: %v", out, err)
			}
			spans, _ := store.Take(traceA.String())
			if len(spans) != 2 {
				t.Fatalf("%d spans", len(spans))
			}
			got, want := spans[1], trace.Span{TraceID: traceA.String(), SpanID: "0000000000000002", ParentID: "0000000000000001", Name: "tool.check_stock",
				Kind: "server", StartNs: 1002, EndNs: 2_000_002, Service: "shop-agent", Scope: "mastra", Turn: -1,
				Attributes: map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.usage.input_tokens": int64(12)}}
			if g, w := fmt.Sprintf("%+v", got), fmt.Sprintf("%+v", want); g != w {
				t.Errorf("span\n%s\nwant\n%s", g, w)
			}
			if st := r.Stats(); st.Requests != 1 || st.Refused != 0 {
				t.Errorf("stats %+v", st)
			}
		})
	}
}

// rpcStatus decodes a protobuf google.rpc.Status: its code and message.
func rpcStatus(t *testing.T, b []byte) (int, string) {
	t.Helper()
	code, msg := -1, ""
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			t.Fatalf("not a Status: %q", b)
		}
		b = b[n:]
		switch {
		case num == 1 && typ == protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				t.Fatalf("bad code in %q", b)
			}
			code, b = int(v), b[n:]
		case num == 2 && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				t.Fatalf("bad message in %q", b)
			}
			msg, b = string(v), b[n:]
		default:
			t.Fatalf("field %d of type %d in a Status", num, typ)
		}
	}
	return code, msg
}

// TestRefuse: what the receiver cannot take is answered with the
// OTLP/HTTP status and a google.rpc.Status in the request's encoding
// saying why, and nothing of it reaches the store.
func TestRefuse(t *testing.T) {
	good := traces(sp{traceA, 1, 0, "agent.run"})
	noID := traces(sp{traceA, 1, 0, "agent.run"})
	noID.ResourceSpans().At(0).ScopeSpans().At(0).Spans().At(0).SetSpanID(pcommon.SpanID{})
	var notGzip bytes.Buffer
	notGzip.WriteString("plain, not gzip")
	for _, tc := range []struct {
		name, ctype, encoding string
		body                  []byte
		status, code          int
		message               string
	}{
		{"content type", "text/plain", "", []byte("hi"), 415, 12, `content type "text/plain": OTLP/HTTP traces are application/x-protobuf or application/json`},
		{"no content type", "", "", body(t, good, true, false), 415, 12, `content type ""`},
		{"encoding", "application/x-protobuf", "br", body(t, good, true, false), 415, 12, `content encoding "br": the receiver reads gzip or none`},
		{"bad protobuf", "application/x-protobuf", "", []byte{0xff, 0xff, 0xff}, 400, 3, "decode the traces"},
		{"bad JSON", "application/json", "", []byte(`{"resourceSpans": 7}`), 400, 3, "decode the traces"},
		{"no span id", "application/json", "", body(t, noID, false, false), 400, 3, `resourceSpans[0].scopeSpans[0].spans[0] "agent.run": a span has no trace id or no span id`},
		{"not gzip", "application/json", "gzip", notGzip.Bytes(), 400, 3, "gzip body"},
		{"too large", "application/x-protobuf", "", body(t, traces(sp{traceA, 1, 0, strings.Repeat("x", 2000)}), true, false), 413, 8, "the body is over 1024 bytes"},
		{"too large gzipped", "application/json", "gzip", body(t, traces(sp{traceA, 1, 0, strings.Repeat("x", 20000)}), false, true), 413, 8, "the body is over 1024 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store, r, url := newReceiver(t, receiver.Options{MaxBodyBytes: 1024})
			store.Begin(traceA.String())
			status, ctype, out := post(t, url, tc.ctype, tc.encoding, tc.body)
			if status != tc.status {
				t.Fatalf("status %d, want %d: %s", status, tc.status, out)
			}
			var code int
			var msg string
			if ctype == "application/json" {
				var st struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				}
				if err := json.Unmarshal(out, &st); err != nil {
					t.Fatalf("not a JSON Status: %s", out)
				}
				code, msg = st.Code, st.Message
			} else {
				code, msg = rpcStatus(t, out)
			}
			if wantJSON := tc.ctype == "application/json"; (ctype == "application/json") != wantJSON {
				t.Errorf("answered in %q to a %q request", ctype, tc.ctype)
			}
			if code != tc.code || !strings.Contains(msg, tc.message) {
				t.Errorf("status body: code %d %q, want %d %q", code, msg, tc.code, tc.message)
			}
			if spans, _ := store.Take(traceA.String()); len(spans) != 0 {
				t.Errorf("%d spans kept", len(spans))
			}
			if st := r.Stats(); st.Refused != 1 || st.LastError != msg {
				t.Errorf("stats %+v", st)
			}
		})
	}
}

// TestRoutes: only POST /v1/traces is served.
func TestRoutes(t *testing.T) {
	_, _, url := newReceiver(t, receiver.Options{})
	resp, err := http.Get(url + receiver.Path)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "POST" {
		t.Errorf("GET: %d, Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
	}
	if status, _, _ := post(t, url+"/v1/metrics", "application/x-protobuf", "", nil); status != http.StatusNotFound {
		t.Errorf("metrics: %d", status)
	}
}

// TestParallelAttempts: two attempts' agents export at once, each
// request mixing both attempts' spans: every span reaches its own
// attempt, none the other's, and spans of no attempt are counted.
func TestParallelAttempts(t *testing.T) {
	store, _, url := newReceiver(t, receiver.Options{})
	store.Begin(traceA.String())
	store.Begin(traceB.String())
	other := pcommon.TraceID{1}
	const requests = 20
	var wg sync.WaitGroup
	for i := range requests {
		wg.Go(func() {
			td := traces(sp{traceA, byte(2*i + 2), 0, "a"}, sp{traceB, byte(2*i + 3), 0, "b"}, sp{other, 1, 0, "background"})
			proto, zip, enc := i%2 == 0, i%3 == 0, ""
			if zip {
				enc = "gzip"
			}
			if status, _, out := post(t, url, contentType(proto), enc, body(t, td, proto, zip)); status != http.StatusOK {
				t.Errorf("request %d: %d %s", i, status, out)
			}
		})
	}
	wg.Wait()
	for _, tc := range []struct {
		id   pcommon.TraceID
		name string
	}{{traceA, "a"}, {traceB, "b"}} {
		spans, _ := store.End(tc.id.String())
		if len(spans) != requests {
			t.Errorf("%s: %d spans, want %d", tc.name, len(spans), requests)
		}
		for _, s := range spans {
			if s.TraceID != tc.id.String() || s.Name != tc.name {
				t.Errorf("attempt %s got %s of %s", tc.name, s.Name, s.TraceID)
			}
		}
	}
	if st := store.Stats(); st.Received != 3*requests || st.Unattributed != requests {
		t.Errorf("store stats %+v", st)
	}
}
