package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/agui/aguitest"
	"github.com/ananke/action/internal/otel/receiver"
)

// TestOTelReceiverRun: with otel.receiver, the receiver listens before
// the hooks run, its URL is ANANKE_OTLP_ENDPOINT in their environment,
// and what it gets that is no test's — a span of a trace no attempt has,
// an export it cannot read — is a warning of the run.
func TestOTelReceiverRun(t *testing.T) {
	exports := make(chan int, 4)
	agent := aguitest.New(t, func(r *aguitest.Request) aguitest.Response {
		var props struct{ OTLP string }
		json.Unmarshal(r.Input.ForwardedProps, &props)
		span := `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"shop-agent"}}]},"scopeSpans":[{"spans":[{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"00f067aa0ba902b7","name":"background job"}]}]}]}`
		for _, body := range []string{span, `{"resourceSpans":7}`} {
			resp, err := http.Post(props.OTLP+receiver.Path, "application/json", bytes.NewReader([]byte(body)))
			if err != nil {
				t.Errorf("export to %q: %v", props.OTLP, err)
				continue
			}
			resp.Body.Close()
			exports <- resp.StatusCode
		}
		return textAgentCLI(r)
	})
	cfg := backendTarget(agent.Endpoint()) + `  forwardedProps: {otlp: "${OTLP}"}
otel: {receiver: "127.0.0.1:0", grace_ms: 0}
before_all:
  - cmd: [sh, -c, 'printf "{\"OTLP\": \"%s\"}" "$ANANKE_OTLP_ENDPOINT"']
`
	dir := suiteOf(t, map[string]string{"ananke.config.yaml": cfg, "t.ananke.yaml": "version: \"1.0\"\nname: t\nturns: [{user: hi}]\n"})
	out := filepath.Join(t.TempDir(), "r")
	r := run(t, dir, nil, "run", "-o", out)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.out, r.errOut)
	}
	if !strings.Contains(r.out, "trace id no test attempt had") {
		t.Errorf("the console does not show the run's warning:\n%s", r.out)
	}
	if got := []int{<-exports, <-exports}; got[0] != http.StatusOK || got[1] != http.StatusBadRequest {
		t.Errorf("the receiver answered %v; want 200, then 400", got)
	}
	raw, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var summary struct {
		Warnings []struct{ Rule, Message string }
	}
	if err := json.Unmarshal(raw, &summary); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range summary.Warnings {
		got = append(got, w.Rule+": "+w.Message)
	}
	for _, want := range []string{
		`otel: the OTLP receiver refused 1 export request of 2: decode the traces`,
		`otel: 1 span with a trace id no test attempt had: dropped (the first: "background job" of trace 0af7651916cd43dd8448eb211c80319c from shop-agent); does the agent continue the traceparent of Ananke's requests?`,
	} {
		if !strings.Contains(strings.Join(got, "\n"), want) {
			t.Errorf("warnings\n%s\nlack\n%s", strings.Join(got, "\n"), want)
		}
	}
}

// TestOTelReceiverSpans: an agent that exports its spans to
// ANANKE_OTLP_ENDPOINT under each request's traceparent, tests four at a
// time: each attempt's trace file holds its own spans, each in the turn
// it answered, and the run warns of nothing.
func TestOTelReceiverSpans(t *testing.T) {
	agent := aguitest.New(t, func(r *aguitest.Request) aguitest.Response {
		var props struct{ OTLP string }
		json.Unmarshal(r.Input.ForwardedProps, &props)
		tp := strings.Split(r.Header.Get("traceparent"), "-")
		body := fmt.Sprintf(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":%q,"spanId":"%s","parentSpanId":%q,"name":"POST /agent","kind":2},{"traceId":%q,"spanId":"%s","parentSpanId":"%s","name":"execute_tool check_stock","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"execute_tool"}}]}]}]}]}`,
			tp[1], "aa"+tp[2][2:], tp[2], tp[1], "bb"+tp[2][2:], "aa"+tp[2][2:])
		resp, err := http.Post(props.OTLP+receiver.Path, "application/json", bytes.NewReader([]byte(body)))
		if err != nil || resp.StatusCode != 200 {
			t.Errorf("export: %v %v", err, resp)
		} else {
			resp.Body.Close()
		}
		return textAgentCLI(r)
	})
	cfg := backendTarget(agent.Endpoint()) + `  forwardedProps: {otlp: "${OTLP}"}
otel: {receiver: "127.0.0.1:0"}
before_all:
  - cmd: [sh, -c, 'printf "{\"OTLP\": \"%s\"}" "$ANANKE_OTLP_ENDPOINT"']
`
	files := map[string]string{"ananke.config.yaml": cfg}
	for i := range 8 {
		files[fmt.Sprintf("t%d.ananke.yaml", i)] = fmt.Sprintf("version: \"1.0\"\nname: t%d\nturns: [{user: hi}, {user: again}]\n", i)
	}
	dir := suiteOf(t, files)
	out := filepath.Join(t.TempDir(), "r")
	r := run(t, dir, nil, "run", "--parallel", "4", "-o", out)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.out, r.errOut)
	}
	traces, _ := filepath.Glob(filepath.Join(out, "*", "*.trace.json*"))
	if len(traces) != 8 {
		t.Fatalf("%d trace files: %v", len(traces), traces)
	}
	for _, p := range traces {
		raw, _ := os.ReadFile(p)
		var head struct {
			TraceID      string `json:"trace_id"`
			OTelReceiver bool   `json:"otel_receiver"`
			Spans        []struct {
				TraceID string `json:"trace_id"`
				Turn    int    `json:"turn"`
			} `json:"spans"`
		}
		if err := json.NewDecoder(bytes.NewReader(raw)).Decode(&head); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		turns := ""
		for _, s := range head.Spans {
			if s.TraceID != head.TraceID {
				t.Errorf("%s: span of %s", p, s.TraceID)
			}
			turns += fmt.Sprint(s.Turn)
		}
		if turns != "0011" || !head.OTelReceiver {
			t.Errorf("%s: turns %q receiver %v", filepath.Base(p), turns, head.OTelReceiver)
		}
	}
	if strings.Contains(r.out, "OTLP receiver") || strings.Contains(r.out, "trace id no test attempt had") {
		t.Errorf("the run warned:\n%s", r.out)
	}
}
