package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// fakeEnv, set in the environment, makes the test binary serve the fake
// MCP server over stdio instead of running the tests.
const fakeEnv = "ANANKE_MCP_FAKE"

// secret is a header value no error or trace may show.
const secret = "s3cret-token-value"

func TestMain(m *testing.M) {
	if os.Getenv(fakeEnv) != "" {
		err := fakeServer(nil).Run(context.Background(), &sdk.StdioTransport{})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeServer has the tools the reference server lacks for faults: one that
// answers when the client gives up or release is closed (a minute at most:
// a call meant to time out always does), one that kills its server. An
// unknown tool gets the Go SDK's JSON-RPC error (-32602), where
// server-everything answers isError.
func fakeServer(release <-chan struct{}) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "fake", Version: "1"}, nil)
	object := map[string]any{"type": "object"}
	s.AddTool(&sdk.Tool{Name: "ok", InputSchema: object}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}, nil
	})
	s.AddTool(&sdk.Tool{Name: "slow", InputSchema: object}, func(ctx context.Context, _ *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		select {
		case <-ctx.Done():
		case <-release:
		case <-time.After(time.Minute):
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "late"}}}, nil
	})
	s.AddTool(&sdk.Tool{Name: "crash", InputSchema: object}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		fmt.Fprintln(os.Stderr, "fatal: crashed on purpose")
		os.Exit(7)
		return nil, nil
	})
	return s
}

// fakeStdio runs the fake server over stdio.
func fakeStdio(t *testing.T) Options {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Options{Transport: TransportStdio, Command: []string{exe}, Env: []string{fakeEnv + "=1"}}
}

// fakeHTTP serves the fake server over streamable HTTP.
func fakeHTTP(t *testing.T) Options {
	t.Helper()
	return serveFake(t, nil)
}

// fakeStateless serves the fake server over stateless streamable HTTP,
// where the Go SDK speaks protocol 2026-07-28 and answers a JSON-RPC error
// -32602 with HTTP 400.
func fakeStateless(t *testing.T) Options {
	t.Helper()
	return serveFake(t, &sdk.StreamableHTTPOptions{Stateless: true})
}

func serveFake(t *testing.T, o *sdk.StreamableHTTPOptions) Options {
	release := make(chan struct{})
	srv := fakeServer(release)
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, o)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	// Before the server closes (cleanups run last first): a stateless
	// server's tool does not see the client give up.
	t.Cleanup(func() { close(release) })
	return Options{Transport: TransportHTTP, Endpoint: ts.URL}
}

// call is an mcp:call turn.
func call(tool, args string) target.Turn {
	return target.Turn{Type: target.TurnMCPCall, Tool: tool, Arguments: json.RawMessage(args)}
}

// turnWith plays one turn in a fresh turn of rec.
func turnWith(t *testing.T, s *Session, rec *trace.Recorder, in target.Turn) (*trace.Turn, error) {
	t.Helper()
	rec.StartTurn(in.Index, in.Type, "", time.Now())
	err := s.Turn(t.Context(), in, rec)
	return rec.EndTurn(time.Now(), nil), err
}

// types lists the types of a turn's events.
func types(tt *trace.Turn) []string {
	var out []string
	for _, e := range tt.Events {
		out = append(out, e.Type)
	}
	return out
}
