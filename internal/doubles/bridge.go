package doubles

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ananke/action/internal/backend"
)

// BridgeOptions configure Bridge.
type BridgeOptions struct {
	// TestHeader, when set, is sent as the Ananke-Test header
	// (backend.Header) on every request to the doubles, so that the calls
	// are attributed to the attempt it names.
	TestHeader string
	// HTTP is the client the doubles are reached with (a plain client
	// when nil).
	HTTP *http.Client
	// Version is the bridge's version in the MCP handshakes.
	Version string
}

// Bridge serves the doubles at url — an MCP streamable HTTP endpoint, as
// Server serves it — as an MCP server on stdin and stdout, for an agent
// that spawns its MCP servers as commands: it lists the doubles' tools
// once, at start, and forwards each call, returning what the doubles
// answered. A fault reaches the agent as an error of the call, but a
// timeout, which holds the call until the agent gives up. Bridge returns
// when stdin ends or ctx is done.
func Bridge(ctx context.Context, url string, stdin io.Reader, stdout io.Writer, o BridgeOptions) error {
	if o.Version == "" {
		o.Version = "dev"
	}
	hc := o.HTTP
	if hc == nil {
		hc = &http.Client{}
	}
	if o.TestHeader != "" {
		c := *hc
		c.Transport = testHeader{token: o.TestHeader, next: hc.Transport}
		hc = &c
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "ananke-doubles-bridge", Version: o.Version}, nil)
	up, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: hc, DisableStandaloneSSE: true}, nil)
	if err != nil {
		return fmt.Errorf("doubles bridge: connect to %s: %w", url, err)
	}
	defer up.Close()
	srv := sdk.NewServer(&sdk.Implementation{Name: "ananke-doubles", Version: o.Version}, nil)
	forward := func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		params := &sdk.CallToolParams{Name: req.Params.Name}
		if len(req.Params.Arguments) > 0 {
			params.Arguments = req.Params.Arguments
		}
		return up.CallTool(ctx, params)
	}
	for tool, err := range up.Tools(ctx, nil) {
		if err != nil {
			return fmt.Errorf("doubles bridge: list the tools of %s: %w", url, err)
		}
		if err := addTool(srv, tool, forward); err != nil {
			return fmt.Errorf("doubles bridge: tool %q of %s: %w", tool.Name, url, err)
		}
	}
	err = srv.Run(ctx, &sdk.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}})
	if err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("doubles bridge: %w", err)
	}
	return nil
}

// addTool adds a tool listed by the doubles, turning the SDK's panic at
// a schema it refuses into an error.
func addTool(srv *sdk.Server, tool *sdk.Tool, h sdk.ToolHandler) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	srv.AddTool(tool, h)
	return nil
}

// testHeader sends the backend header on every request.
type testHeader struct {
	token string
	next  http.RoundTripper
}

func (t testHeader) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(backend.Header, t.token)
	next := t.next
	if next == nil {
		next = http.DefaultTransport
	}
	return next.RoundTrip(r)
}

// nopWriteCloser is a writer whose Close does nothing: the caller owns
// stdout.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
