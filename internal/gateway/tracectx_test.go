package gateway

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestTraceParent: the model call keeps the traceparent the agent's request
// carried, and the gateway passes the agent's trace context on to the
// upstream; a request without one keeps none and sends none.
func TestTraceParent(t *testing.T) {
	const tp, ts = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "ananke=t1"
	for _, with := range []bool{true, false} {
		var upstream http.Header
		answer := jsonAnswer(200, toolAnswer)
		up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
			upstream = r.Header.Clone()
			answer(w, r)
		})
		r := newRig(t, Options{Mode: Passthrough, Upstream: up.URL + "/v1/", APIKey: testKey})
		req, _ := http.NewRequest(http.MethodPost, r.srv.URL+"/v1/chat/completions", strings.NewReader(askStock))
		req.Header.Set("Content-Type", "application/json")
		if with {
			req.Header.Set("traceparent", tp)
			req.Header.Set("tracestate", ts)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.ReadAll(resp.Body)
		resp.Body.Close()
		mcs := r.calls()
		if len(mcs) != 1 {
			t.Fatalf("%d model calls, want 1", len(mcs))
		}
		want := map[bool][3]string{true: {tp, tp, ts}, false: {"", "", ""}}[with]
		if got := [3]string{mcs[0].TraceParent, upstream.Get("traceparent"), upstream.Get("tracestate")}; got != want {
			t.Errorf("with trace context %v: recorded, forwarded traceparent and tracestate %q, want %q", with, got, want)
		}
	}
}
