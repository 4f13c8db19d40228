package export_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/ananke/action/internal/otel/export"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/trace"
)

const (
	attemptTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
	attemptSpan  = "00f067aa0ba902b7"
	turnSpan     = "1111111111111111"
	requestSpan  = "2222222222222222"
	serverSpan   = "3333333333333333"
	toolSpan     = "4444444444444444"
)

// withSpans is the fixture report with the ids of trace context and the
// agent's spans on the checkout test's attempt; the tool span carries
// the planted secret unmasked, as a report that forgot to mask would.
func withSpans(t *testing.T) *report.Report {
	t.Helper()
	r := reporttest.Report()
	tr := r.Tests[0].Attempts[0].Trace
	tr.TraceID, tr.SpanID = attemptTrace, attemptSpan
	tr.Turns[1].SpanID = turnSpan
	tr.Turns[1].Requests = []trace.RequestSpan{{SpanID: requestSpan, StartNs: tr.Turns[1].StartMs * 1e6, EndNs: tr.Turns[1].EndMs * 1e6}}
	tr.Spans = []trace.Span{
		{TraceID: attemptTrace, SpanID: serverSpan, ParentID: requestSpan, Name: "POST /agui", Kind: "server", StartNs: 1, EndNs: 5, Service: "shop-agent", Scope: "http", Turn: 1},
		{TraceID: attemptTrace, SpanID: toolSpan, ParentID: serverSpan, Name: "execute_tool charge_card", Kind: "internal", StartNs: 2, EndNs: 4, Status: "error",
			StatusMessage: "declined for " + reporttest.Secret, Service: "shop-agent", Scope: "mastra", Turn: 1,
			Attributes: map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "charge_card", "gen_ai.tool.call.arguments": `{"token":"` + reporttest.Secret + `"}`,
				"retries": int64(2), "nested": map[string]any{"list": []any{"x " + reporttest.Secret, 1.5, true}}},
			Events: []trace.SpanEvent{{Name: "exception", TimeNs: 3, Attributes: map[string]any{"exception.message": reporttest.Secret}}}},
	}
	return r
}

// receiver is an OTLP/HTTP endpoint that is not Ananke's: it decodes
// what it gets with the Collector's ptraceotlp.
func receiver(t *testing.T, got chan<- ptrace.Traces, headers chan<- http.Header) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		req := ptraceotlp.NewExportRequest()
		if r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" {
			http.Error(w, "not OTLP protobuf at /v1/traces", http.StatusUnsupportedMediaType)
			return
		}
		if err := req.UnmarshalProto(body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		headers <- r.Header.Clone()
		got <- req.Traces()
		out, _ := ptraceotlp.NewExportResponse().MarshalProto()
		w.Header().Set("Content-Type", "application/x-protobuf")
		_, _ = w.Write(out)
	}))
	t.Cleanup(srv.Close)
	return srv
}

type span struct {
	ptrace.Span
	service string
}

func collect(td ptrace.Traces) map[string]span {
	out := map[string]span{}
	for i := range td.ResourceSpans().Len() {
		rs := td.ResourceSpans().At(i)
		service := ""
		if v, ok := rs.Resource().Attributes().Get("service.name"); ok {
			service = v.Str()
		}
		for j := range rs.ScopeSpans().Len() {
			ss := rs.ScopeSpans().At(j).Spans()
			for k := range ss.Len() {
				out[ss.At(k).SpanID().String()] = span{ss.At(k), service}
			}
		}
	}
	return out
}

func byName(spans map[string]span, name string) []span {
	var out []span
	for _, s := range spans {
		if s.Name() == name {
			out = append(out, s)
		}
	}
	return out
}

func one(t *testing.T, spans map[string]span, name string) span {
	t.Helper()
	got := byName(spans, name)
	if len(got) != 1 {
		t.Fatalf("%d spans named %q, want 1", len(got), name)
	}
	return got[0]
}

func TestSendTree(t *testing.T) {
	got, hdr := make(chan ptrace.Traces, 1), make(chan http.Header, 1)
	srv := receiver(t, got, hdr)
	r := withSpans(t)
	err := export.Send(context.Background(), r, export.Options{Endpoint: srv.URL + "/v1/traces", Headers: map[string]string{"Authorization": "Bearer x"}})
	if err != nil {
		t.Fatal(err)
	}
	if h := <-hdr; h.Get("Authorization") != "Bearer x" {
		t.Errorf("Authorization = %q", h.Get("Authorization"))
	}
	spans := collect(<-got)

	run := one(t, spans, "ananke run")
	if !run.ParentSpanID().IsEmpty() || run.service != export.Service {
		t.Errorf("run span: parent %s, service %q", run.ParentSpanID(), run.service)
	}
	for _, tt := range r.Tests {
		ts := one(t, spans, "test "+tt.ID)
		if ts.ParentSpanID() != run.SpanID() || ts.TraceID() != run.TraceID() {
			t.Errorf("test %s is not under the run span", tt.ID)
		}
		if n := len(tt.Attempts); n > 0 {
			var mine int
			for _, s := range spans {
				if id, ok := s.Attributes().Get("ananke.test.id"); ok && id.Str() == tt.ID && strings.HasPrefix(s.Name(), "attempt ") {
					mine++
				}
			}
			if mine != n {
				t.Errorf("test %s: %d attempt spans, want %d", tt.ID, mine, n)
			}
		}
	}

	// The attempt that ran under a trace id is the root of that trace,
	// linked to its test; its turns and requests nest under it, and the
	// agent's spans keep their parents.
	att := spans[attemptSpan]
	if att.TraceID().String() != attemptTrace || !att.ParentSpanID().IsEmpty() {
		t.Fatalf("attempt span: trace %s parent %s", att.TraceID(), att.ParentSpanID())
	}
	test := one(t, spans, "test "+r.Tests[0].ID)
	if att.Links().Len() != 1 || att.Links().At(0).SpanID() != test.SpanID() || att.Links().At(0).TraceID() != test.TraceID() {
		t.Errorf("attempt span is not linked to its test span")
	}
	turn := spans[turnSpan]
	if turn.Name() != "turn 1" || turn.ParentSpanID() != att.SpanID() || turn.TraceID() != att.TraceID() {
		t.Errorf("turn 1: %q under %s", turn.Name(), turn.ParentSpanID())
	}
	var turn0 span
	for _, s := range byName(spans, "turn 0") {
		if s.ParentSpanID() == att.SpanID() {
			turn0 = s
		}
	}
	if turn0.Name() == "" || turn0.TraceID() != att.TraceID() {
		t.Errorf("turn 0 of the attempt (no span id of its own) is not under the attempt")
	}
	if rq := spans[requestSpan]; rq.ParentSpanID() != turn.SpanID() || rq.Kind() != ptrace.SpanKindClient {
		t.Errorf("request span: parent %s kind %s", rq.ParentSpanID(), rq.Kind())
	}
	srvSpan, tool := spans[serverSpan], spans[toolSpan]
	if srvSpan.ParentSpanID().String() != requestSpan || srvSpan.service != "shop-agent" || srvSpan.Kind() != ptrace.SpanKindServer {
		t.Errorf("agent's server span: parent %s service %q kind %s", srvSpan.ParentSpanID(), srvSpan.service, srvSpan.Kind())
	}
	if tool.ParentSpanID().String() != serverSpan || tool.Status().Code() != ptrace.StatusCodeError || tool.StartTimestamp() != 2 || tool.EndTimestamp() != 4 {
		t.Errorf("agent's tool span changed: parent %s status %s times %d-%d", tool.ParentSpanID(), tool.Status().Code(), tool.StartTimestamp(), tool.EndTimestamp())
	}
	if v, _ := tool.Attributes().Get("retries"); v.Type() != pcommon.ValueTypeInt || v.Int() != 2 {
		t.Errorf("retries = %v", v.AsRaw())
	}
	if v, _ := tool.Attributes().Get("gen_ai.tool.name"); v.Str() != "charge_card" {
		t.Errorf("gen_ai.tool.name = %q", v.Str())
	}

	// Every assertion of the shown attempt is an evaluation event of it;
	// the attempt of another test carries its own.
	evals := att.Events()
	want := r.Tests[0].Assertions
	if evals.Len() != len(want) {
		t.Fatalf("%d evaluation events, want %d", evals.Len(), len(want))
	}
	for i, a := range want {
		e := evals.At(i)
		attr := e.Attributes().AsRaw()
		label := export.Label(a.Status)
		if e.Name() != export.EvaluationEvent || attr["gen_ai.evaluation.name"] != a.ID || attr["gen_ai.evaluation.score.label"] != label || attr["gen_ai.evaluation.explanation"] != a.Message {
			t.Errorf("event %d = %s %v, want %s %s", i, e.Name(), attr, a.ID, label)
		}
		score, scored := export.Score(a.Status)
		if v, ok := attr["gen_ai.evaluation.score.value"]; ok != scored || (ok && v != score) {
			t.Errorf("event %d score = %v, want %v (%v)", i, v, score, scored)
		}
	}
	if labels := labelsOf(att.Events()); labels != "pass fail fail pass skipped" {
		t.Errorf("labels = %q", labels)
	}

	// No secret reaches the backend, in any name, attribute, event or
	// status.
	for _, s := range spans {
		for _, txt := range texts(s.Span) {
			if strings.Contains(txt, reporttest.Secret) {
				t.Errorf("span %q exports the secret: %q", s.Name(), txt)
			}
		}
	}
	if v, _ := tool.Attributes().Get("gen_ai.tool.call.arguments"); v.Str() != `{"token":"`+report.Mask+`"}` {
		t.Errorf("masked arguments = %q", v.Str())
	}
}

func labelsOf(es ptrace.SpanEventSlice) string {
	var out []string
	for i := range es.Len() {
		v, _ := es.At(i).Attributes().Get("gen_ai.evaluation.score.label")
		out = append(out, v.Str())
	}
	return strings.Join(out, " ")
}

// texts lists every string a span exports.
func texts(s ptrace.Span) []string {
	out := []string{s.Name(), s.Status().Message()}
	var walk func(v pcommon.Value)
	walk = func(v pcommon.Value) {
		switch v.Type() {
		case pcommon.ValueTypeMap:
			for k, e := range v.Map().All() {
				out = append(out, k)
				walk(e)
			}
		case pcommon.ValueTypeSlice:
			for i := range v.Slice().Len() {
				walk(v.Slice().At(i))
			}
		default:
			out = append(out, v.AsString())
		}
	}
	m := pcommon.NewValueMap()
	s.Attributes().CopyTo(m.Map())
	walk(m)
	for i := range s.Events().Len() {
		e := s.Events().At(i)
		out = append(out, e.Name())
		m := pcommon.NewValueMap()
		e.Attributes().CopyTo(m.Map())
		walk(m)
	}
	return out
}

// TestTracesStable: the same report exports the same ids, so an attempt
// without a trace id of its own still lands in one place.
func TestTracesStable(t *testing.T) {
	a, b := collect(export.Traces(reporttest.Report(), nil)), collect(export.Traces(reporttest.Report(), nil))
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("%d and %d spans", len(a), len(b))
	}
	for id, s := range a {
		if o, ok := b[id]; !ok || o.Name() != s.Name() || o.ParentSpanID() != s.ParentSpanID() {
			t.Errorf("span %s %q differs between two exports", id, s.Name())
		}
	}
}

func TestSendRefused(t *testing.T) {
	var calls int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		http.Error(w, "bad data", http.StatusBadRequest)
	}))
	defer srv.Close()
	err := export.Send(context.Background(), reporttest.Report(), export.Options{Endpoint: srv.URL + "/v1/traces?key=hunter22"})
	var ee *export.Error
	if !errors.As(err, &ee) || ee.Status != http.StatusBadRequest || calls != 1 {
		t.Fatalf("err = %v (calls %d), want one refused request", err, calls)
	}
	if strings.Contains(err.Error(), "hunter22") || !strings.Contains(err.Error(), "400 Bad Request: bad data") {
		t.Errorf("error = %q", err)
	}
}

// TestTracesRedactPatterns: with the config's redactor, what its redact
// patterns match is masked in the agent's spans too.
func TestTracesRedactPatterns(t *testing.T) {
	r := withSpans(t)
	sp := &r.Tests[0].Attempts[0].Trace.Spans[1]
	sp.Attributes["card"] = "tok_abcdef12 on file"
	red := report.ConfigRedactor(r.MaskValues(), reporttest.Config())
	tool := collect(export.Traces(r, red))[toolSpan]
	if v, _ := tool.Attributes().Get("card"); v.Str() != report.Mask+" on file" {
		t.Errorf("card = %q", v.Str())
	}
}
