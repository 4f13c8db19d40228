package doubles

import (
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ananke/action/internal/backend"
)

// BenchmarkServeCall measures one tools/call to a double: the go-sdk's MCP
// client sends it over loopback (an httptest server) to the doubles'
// streamable HTTP server, which attributes it to the bound attempt,
// chooses the config's answer, sends it and records the call in the
// attempt's turn; the engine's taking of the turn's calls is included.
// Allocations are the client's and the server's together.
func BenchmarkServeCall(b *testing.B) {
	board := backend.NewBoard(false, func(string) bool { return true })
	url := serveOver(b, board, newStepClock().Now)
	bd := board.Bind("a")
	defer bd.Release()
	cs := connect(b, url, "", nil)
	defer cs.Close()
	params := &sdk.CallToolParams{Name: "check_stock", Arguments: map[string]any{"sku": "A-1"}}
	b.ReportAllocs()
	for b.Loop() {
		res, err := cs.CallTool(b.Context(), params)
		if err != nil || res.IsError {
			b.Fatalf("call: %v, %+v", err, res)
		}
		if calls, _ := bd.Take(0); len(calls) != 1 || calls[0].Served == nil {
			b.Fatalf("recorded %+v, want the one served call", calls)
		}
	}
}
