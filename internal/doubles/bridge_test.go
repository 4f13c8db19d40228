package doubles

import (
	"context"
	"io"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ananke/action/internal/backend"
	"github.com/ananke/action/internal/trace"
)

// bridged runs Bridge to the doubles at url on pipes and connects an MCP
// client to its stdio; closing the client's end of stdin ends the bridge.
func bridged(t *testing.T, url, token string) (*sdk.ClientSession, func() error) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Bridge(context.Background(), url, inR, outW, BridgeOptions{TestHeader: token})
		outW.Close()
	}()
	c := sdk.NewClient(&sdk.Implementation{Name: "agent", Version: "1"}, nil)
	cs, err := c.Connect(t.Context(), &sdk.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatalf("connect to the bridge: %v", err)
	}
	return cs, func() error {
		cs.Close()
		inW.Close()
		return <-done
	}
}

// TestBridge: over stdio, the bridge lists the doubles' tools with their
// schemas and forwards each call with the test header it was given, so
// the call is answered and recorded for that attempt; a fault reaches
// the agent as an error of the call; the bridge ends with its stdin.
func TestBridge(t *testing.T) {
	board := backend.NewBoard(true, func(string) bool { return true })
	url := serveOver(t, board, newStepClock().Now)
	a, b := board.Bind("a"), board.Bind("b")
	defer a.Release()
	defer b.Release()

	cs, stop := bridged(t, url, b.Token)
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) != 6 || tools.Tools[0].Name != "check_stock" || tools.Tools[0].OutputSchema == nil || tools.Tools[0].Description != "Stock level of a product" {
		t.Errorf("the bridge lists %d tools, the first %+v", len(tools.Tools), tools.Tools[0])
	}
	res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "place_order", Arguments: map[string]any{"sku": "fail"}})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Content[0].(*sdk.TextContent).Text; !res.IsError || text != `{"reason":"declined"}` {
		t.Errorf("through the bridge: isError %v, %q", res.IsError, text)
	}
	if _, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "cut"}); err == nil || !strings.Contains(err.Error(), "EOF") {
		t.Errorf("a dropped call through the bridge: %v, want an error", err)
	}
	// The bridge still serves after a fault.
	if res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "check_stock", Arguments: map[string]any{"sku": "B-2"}}); err != nil || res.IsError {
		t.Errorf("a call after the fault: %+v, %v", res, err)
	}
	if err := stop(); err != nil {
		t.Errorf("the bridge ended with %v", err)
	}
	calls, _ := b.Take(0)
	if len(calls) != 3 || calls[0].Args != `{"sku":"fail"}` || *calls[0].Served != (trace.Served{By: "doubles", Tool: "place_order", Answer: "test.match[0]"}) || calls[1].Served.Answer != "config fault:drop" {
		t.Errorf("test b recorded %+v", calls)
	}
	if other, _ := a.Take(0); len(other) != 0 {
		t.Errorf("test a recorded %+v", other)
	}
}

// TestBridgeUnreachable: a bridge whose doubles do not answer says so.
func TestBridgeUnreachable(t *testing.T) {
	err := Bridge(t.Context(), "http://127.0.0.1:1/mcp", strings.NewReader(""), io.Discard, BridgeOptions{})
	if err == nil || !strings.Contains(err.Error(), "doubles bridge: connect to http://127.0.0.1:1/mcp") {
		t.Errorf("Bridge: %v", err)
	}
}
