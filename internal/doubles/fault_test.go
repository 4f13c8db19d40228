package doubles

import (
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ananke/action/internal/backend"
	"github.com/ananke/action/internal/trace"
)

// TestServeFaults plays the faults that end a call over the network: a
// drop closes the connection with no response, a malformed answer is a
// response no MCP client reads as a result. The agent's client fails
// either way, and each call is recorded with what reached it.
func TestServeFaults(t *testing.T) {
	board := backend.NewBoard(false, func(string) bool { return true })
	url := serveOver(t, board, newStepClock().Now)
	bd := board.Bind("a")
	defer bd.Release()
	for _, tc := range []struct {
		tool    string
		served  trace.Served
		content string // the recorded result's content; "" for no result
		// clientErr is what the SDK's client says.
		clientErr string
	}{
		{"cut", trace.Served{By: "doubles", Tool: "cut", Answer: "config fault:drop"}, "", "EOF"},
		{"garbled", trace.Served{By: "doubles", Tool: "garbled", Answer: "config fault:malformed", LatencyMs: 5}, malformedResult, "cannot unmarshal"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			cs := connect(t, url, "", nil)
			defer cs.Close()
			res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: tc.tool, Arguments: map[string]any{}})
			if err == nil {
				t.Fatalf("the call succeeded with %+v, want the client to fail", res)
			}
			if !strings.Contains(err.Error(), tc.clientErr) {
				t.Errorf("the client failed with %v, want %q", err, tc.clientErr)
			}
			calls, _ := bd.Take(0)
			if len(calls) != 1 {
				t.Fatalf("recorded %+v", calls)
			}
			c := calls[0]
			if *c.Served != tc.served {
				t.Errorf("served %+v, want %+v", *c.Served, tc.served)
			}
			switch {
			case tc.content == "" && (c.Result != nil || c.EndedMs != 0):
				t.Errorf("a dropped call is recorded with a result: %+v, ended %d", c.Result, c.EndedMs)
			case tc.content != "" && (c.Result == nil || c.Result.Content != tc.content || c.Result.Error == ""):
				t.Errorf("recorded result %+v, want %s with an error", c.Result, tc.content)
			}
		})
	}
}
