package cli

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/ananke/action/internal/agui/aguitest"
	"github.com/ananke/action/internal/otel/export"
)

// TestOTelExportRun: with otel.export, the run is sent once the report
// is written to an OTLP receiver that is not Ananke's own, decoded here
// with the official OTLP types: a span per test with its attempt's trace,
// each assertion as a gen_ai.evaluation.result event with its verdict,
// the export's header sent, and no secret of the report in any of it.
// An endpoint that does not answer is a warning; the verdict stays.
func TestOTelExportRun(t *testing.T) {
	const secretWord = "sk-otel-export-secret-42"
	bodies := make(chan []byte, 8)
	auth := make(chan string, 8)
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies <- b
		auth <- r.Header.Get("Authorization")
		w.Header().Set("Content-Type", "application/x-protobuf")
		out, _ := ptraceotlp.NewExportResponse().MarshalProto()
		w.Write(out)
	}))
	defer collector.Close()
	agent := aguitest.New(t, func(r *aguitest.Request) aguitest.Response { return textAgentCLI(r) })
	cfg := backendTarget(agent.Endpoint()) + `otel:
  export: "` + collector.URL + `"
  headers: {authorization: "Bearer ${ENV.OTLP_TOKEN}"}
`
	dir := suiteOf(t, map[string]string{"ananke.config.yaml": cfg,
		"pass.ananke.yaml": "version: \"1.0\"\nname: echo\nturns:\n  - user: \"my key is ${ENV.SHOP_KEY}\"\n    assert:\n      text: {contains: \"you said\"}\n",
		"fail.ananke.yaml": "version: \"1.0\"\nname: wrong\nturns:\n  - user: hello\n    assert:\n      text: {contains: goodbye}\n"})
	r := run(t, dir, map[string]string{"OTLP_TOKEN": "tok-123456789", "SHOP_KEY": secretWord}, "run", "-o", filepath.Join(t.TempDir(), "r"))
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (one test fails)\n%s\n%s", r.code, r.out, r.errOut)
	}
	if !strings.Contains(r.out, "OpenTelemetry: the run was exported to "+collector.URL+"/v1/traces") {
		t.Errorf("the console does not say where the run went:\n%s", r.out)
	}
	body := <-bodies
	if got := <-auth; got != "Bearer tok-123456789" {
		t.Errorf("Authorization %q, want the config's header", got)
	}
	if strings.Contains(string(body), secretWord) || strings.Contains(r.out+r.errOut, secretWord) {
		t.Error("the secret the report masks was exported")
	}
	req := ptraceotlp.NewExportRequest()
	if err := req.UnmarshalProto(body); err != nil {
		t.Fatal(err)
	}
	verdicts := map[string]string{} // test id → labels of its evaluation events
	tests := 0
	eachSpan(req.Traces(), func(s ptrace.Span) {
		if id, ok := s.Attributes().Get("ananke.test.id"); ok && s.Name() != "" {
			if _, isAttempt := s.Attributes().Get("ananke.attempt.run"); !isAttempt {
				tests++
			}
			for i := range s.Events().Len() {
				e := s.Events().At(i)
				if e.Name() != export.EvaluationEvent {
					continue
				}
				label, _ := e.Attributes().Get("gen_ai.evaluation.score.label")
				verdicts[id.AsString()] += label.AsString() + " "
			}
		}
	})
	if tests < 2 || !strings.Contains(verdicts["pass"], "pass") || !strings.Contains(verdicts["fail"], "fail") {
		t.Errorf("%d test spans, evaluations %v; want both tests, a passing and a failing evaluation", tests, verdicts)
	}

	// A collector that is gone: a warning, the same verdict.
	collector.Close()
	r = run(t, dir, map[string]string{"OTLP_TOKEN": "tok-123456789", "SHOP_KEY": secretWord}, "run", "-o", filepath.Join(t.TempDir(), "r2"))
	if r.code != 1 || !strings.Contains(r.errOut, "export the run to") {
		t.Errorf("exit %d, stderr %q; want the failing test's 1 and a warning about the export", r.code, r.errOut)
	}
}

func eachSpan(td ptrace.Traces, fn func(ptrace.Span)) {
	for i := range td.ResourceSpans().Len() {
		sss := td.ResourceSpans().At(i).ScopeSpans()
		for j := range sss.Len() {
			spans := sss.At(j).Spans()
			for k := range spans.Len() {
				fn(spans.At(k))
			}
		}
	}
}
