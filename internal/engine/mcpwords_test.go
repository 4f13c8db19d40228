//go:build unix

package engine_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/interop/peer"
)

// TestMCPBuiltinWords: an MCP turn's built-in check speaks of the server,
// not of an agent (against mcp-go's server, testdata/interop/mcp-go).
func TestMCPBuiltinWords(t *testing.T) {
	bin := peer.GoBuild(t, "mcp-go")
	r := one(t, run(t, mcpSuite(t, `["`+bin+`", "stdio"]`)))
	if r.Status != engine.Pass {
		t.Fatalf("status %v (%s), want pass", r.Status, r.Reason)
	}
	seen := 0
	for _, res := range r.Attempts[0].Results {
		if res.Kind != engine.KindRunError {
			continue
		}
		seen++
		if res.Status != assertion.Pass || res.Message != "the server answered" || res.Expected != "an answer from the server" {
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
