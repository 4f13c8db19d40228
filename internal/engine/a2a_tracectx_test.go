package engine_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ananke/action/internal/status"
)

// TestA2ATraceContext: every request of an A2A session — the agent card
// fetched as the first turn connects, each message sent — carries the
// attempt's trace id under a span of its own, which the turn that sent it
// keeps.
func TestA2ATraceContext(t *testing.T) {
	var mu sync.Mutex
	var parents []string
	note := func(r *http.Request) {
		mu.Lock()
		parents = append(parents, r.Method+" "+r.URL.Path+" "+r.Header.Get("traceparent"))
		mu.Unlock()
	}
	mux := http.NewServeMux()
	var srv *httptest.Server
	mux.HandleFunc("GET /.well-known/agent-card.json", func(w http.ResponseWriter, r *http.Request) {
		note(r)
		fmt.Fprintf(w, `{"name":"echo","version":"1","capabilities":{"streaming":false},
			"supportedInterfaces":[{"url":%q,"protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"skills":[]}`, srv.URL+"/rpc")
	})
	n := 0
	mux.HandleFunc("POST /rpc", func(w http.ResponseWriter, r *http.Request) {
		note(r)
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		mu.Lock()
		n++
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"message":{"messageId":"m%d","contextId":"c","role":"ROLE_AGENT","parts":[{"text":"ok"}]}}}`, req.ID, n)
	})
	srv = httptest.NewServer(mux)
	defer srv.Close()
	s := writeSuite(t, map[string]string{
		"ananke.config.yaml": "version: \"1.1\"\ntarget:\n  type: a2a\n  agentCardUrl: \"" + srv.URL + "\"\n  timeout_ms: " + strconv.Itoa(answerTimeoutMs) + "\n",
		"two.ananke.yaml":    "version: \"1.1\"\nname: two\nturns:\n  - user: one\n  - user: two\n",
	})
	r := one(t, run(t, s))
	if r.Status != status.Pass {
		t.Fatalf("status %v (%s), want pass", r.Status, r.Reason)
	}
	tr := r.Shown().Trace
	mu.Lock()
	defer mu.Unlock()
	seen := map[string]string{}
	for _, p := range parents {
		what, tp, _ := strings.Cut(p[strings.Index(p, " ")+1:], " ")
		if !strings.HasPrefix(tp, "00-"+tr.TraceID+"-") {
			t.Errorf("%s with traceparent %q; want one of trace %s", what, tp, tr.TraceID)
		}
		seen[tp] = what
	}
	// Turn 0 fetched the card and sent its message; turn 1 sent its own.
	want := [][]string{{"/.well-known/agent-card.json", "/rpc"}, {"/rpc"}}
	for i, turn := range tr.Turns {
		var got []string
		for _, rq := range turn.Requests {
			got = append(got, seen["00-"+tr.TraceID+"-"+rq.SpanID+"-01"])
		}
		if strings.Join(got, " ") != strings.Join(want[i], " ") {
			t.Errorf("turn %d: its request spans were named by requests to %q, want %q", i, got, want[i])
		}
	}
}
