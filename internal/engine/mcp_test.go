//go:build unix

package engine_test

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/interop/peer"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
)

// TestMCPBuiltinWords: an MCP turn's built-in check speaks of the server,
// not of an agent (against mcp-go's server, testdata/interop/mcp-go).
func TestMCPBuiltinWords(t *testing.T) {
	bin := peer.GoBuild(t, "mcp-go")
	r := one(t, run(t, mcpSuite(t, `["`+bin+`", "stdio"]`)))
	if r.Status != status.Pass {
		t.Fatalf("status %v (%s), want pass", r.Status, r.Reason)
	}
	seen := 0
	for _, res := range r.Attempts[0].Results {
		if res.Kind != assertion.KindRunError {
			continue
		}
		seen++
		if res.Status != status.Pass || res.Message != "the server answered" || res.Expected != "an answer from the server" {
			t.Errorf("%s: %v %q (expected %q), want a pass saying the server answered", res.ID, res.Status, res.Message, res.Expected)
		}
		if strings.Contains(res.Message+res.Expected+res.Observed, "agent") {
			t.Errorf("%s speaks of an agent: %+v", res.ID, res)
		}
	}
	if seen != 2 {
		t.Errorf("%d built-in checks, want one per turn (2)", seen)
	}
}

// TestMCPAuth: an MCP target's auth reaches a server over HTTP that
// requires it (mcp-go behind a check of its bearer token or API key), and
// the credential stays out of the result.
func TestMCPAuth(t *testing.T) {
	const secret = "mcp-s3cret-credential"
	bin := peer.GoBuild(t, "mcp-go")
	for _, tc := range []struct {
		name, env, auth string
	}{
		{"bearer", "MCPGO_BEARER=" + secret, `{scheme: bearer, token: "` + secret + `"}`},
		{"apiKey", "MCPGO_API_KEY=" + secret, `{scheme: apiKey, value: "` + secret + `"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := peer.MustStart(t, t.TempDir(), []string{tc.env}, bin, "http").URL + "/mcp"
			suite := func(auth string) *spec.Suite {
				return writeSuite(t, map[string]string{
					"ananke.config.yaml": "version: \"1.2\"\ntarget:\n  type: mcp\n  transport: http\n  endpoint: \"" + url + "\"\n  timeout_ms: " + strconv.Itoa(answerTimeoutMs) + "\n" + auth,
					"calls.ananke.yaml": "version: \"1.2\"\nname: calls\nturns:\n" +
						"  - type: mcp:call\n    tool: echo\n    arguments: { message: hi }\n    assert: { result: { match: \"Echo: hi\" } }\n",
				})
			}
			r := one(t, run(t, suite("  auth: "+tc.auth+"\n")))
			if r.Status != status.Pass {
				t.Errorf("with auth: status %v (%s), want pass", r.Status, r.Reason)
			}
			if !slices.Contains(r.Secrets(), secret) {
				t.Errorf("the credential is not among the test's secrets %q", r.Secrets())
			}
			// Without it the server refuses: the credential is what let
			// the call through.
			r = one(t, run(t, suite("")))
			if r.Status != status.Error || !strings.Contains(r.Reason, "401") {
				t.Errorf("without auth: status %v (%s), want an error naming the 401", r.Status, r.Reason)
			}
		})
	}
}

// TestMCPTraceContext: every HTTP request of an MCP session over
// streamable HTTP (initialize, the calls, the listing, the session's
// end) carries the attempt's trace id, and each turn keeps the spans its
// requests' traceparents named (mcp-go behind a proxy that notes them).
func TestMCPTraceContext(t *testing.T) {
	bin := peer.GoBuild(t, "mcp-go")
	upstream, err := url.Parse(peer.MustStart(t, t.TempDir(), nil, bin, "http").URL)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var parents []string
	proxy := httputil.NewSingleHostReverseProxy(upstream)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		parents = append(parents, r.Method+" "+r.Header.Get("traceparent"))
		mu.Unlock()
		proxy.ServeHTTP(w, r)
	}))
	defer srv.Close()
	s := writeSuite(t, map[string]string{
		"ananke.config.yaml": "version: \"1.2\"\ntarget:\n  type: mcp\n  transport: http\n  endpoint: \"" + srv.URL + "/mcp\"\n  timeout_ms: " + strconv.Itoa(answerTimeoutMs) + "\n",
		"calls.ananke.yaml": "version: \"1.2\"\nname: calls\nturns:\n" +
			"  - type: mcp:call\n    tool: echo\n    arguments: { message: hi }\n" +
			"  - type: mcp:list_tools\n",
	})
	r := one(t, run(t, s))
	if r.Status != status.Pass {
		t.Fatalf("status %v (%s), want pass", r.Status, r.Reason)
	}
	tr := r.Shown().Trace
	mu.Lock()
	defer mu.Unlock()
	seen := map[string]bool{}
	for _, p := range parents {
		method, tp, _ := strings.Cut(p, " ")
		if !strings.HasPrefix(tp, "00-"+tr.TraceID+"-") || !strings.HasSuffix(tp, "-01") {
			t.Errorf("%s request with traceparent %q; want one of trace %s", method, tp, tr.TraceID)
		}
		seen[tp] = true
	}
	if len(seen) != len(parents) {
		t.Errorf("%d requests, %d distinct traceparents", len(parents), len(seen))
	}
	for _, turn := range tr.Turns {
		if len(turn.Requests) == 0 {
			t.Errorf("turn %d kept no request span", turn.Index)
		}
		for _, rq := range turn.Requests {
			if !seen["00-"+tr.TraceID+"-"+rq.SpanID+"-01"] {
				t.Errorf("turn %d: request span %s was named by no request", turn.Index, rq.SpanID)
			}
		}
	}
}
