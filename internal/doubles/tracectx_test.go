package doubles

import (
	"net/http"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ananke/action/internal/backend"
)

// parentTransport sends a traceparent on every request.
type parentTransport string

func (p parentTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("traceparent", string(p))
	return http.DefaultTransport.RoundTrip(r)
}

// TestServedTraceParent: a call to a double keeps the traceparent the
// agent's request carried (its client span), so the trace shows where in
// the agent's trace the call was made.
func TestServedTraceParent(t *testing.T) {
	const tp = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	board := backend.NewBoard(false, func(string) bool { return true })
	url := serveOver(t, board, newStepClock().Now)
	bd := board.Bind("a")
	defer bd.Release()
	cs := connect(t, url, "", parentTransport(tp))
	defer cs.Close()
	if _, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "check_stock", Arguments: map[string]any{"sku": "A-1"}}); err != nil {
		t.Fatal(err)
	}
	calls, _ := bd.Take(0)
	if len(calls) != 1 || calls[0].Served == nil || calls[0].Served.TraceParent != tp {
		t.Fatalf("calls %+v; want one served with traceparent %s", calls, tp)
	}
}
