//go:build unix

package engine_test

import (
	"slices"
	"strconv"
	"strings"
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
