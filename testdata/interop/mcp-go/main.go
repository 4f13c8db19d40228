// A small MCP server written with github.com/mark3labs/mcp-go, for
// internal/mcp's tests against an implementation other than the official
// SDKs. It is its own module, so that Ananke's go.mod does not depend on
// mcp-go.
//
//	go run . stdio      serve over stdio
//	go run . http       serve streamable HTTP at http://127.0.0.1:PORT/mcp
//	                    (PORT: $PORT, default a free port), printing
//	                    "listening on http://127.0.0.1:PORT" when ready
//
// Tools: echo {message} → "Echo: <message>"; add {a, b} → "<a> + <b> = <sum>";
// fail → an isError result "the tool failed on purpose". An unknown tool or
// wrong arguments are mcp-go's JSON-RPC error -32602 (over HTTP at protocol
// 2026-07-28, with status 400 Bad Request).
//
// Over HTTP, MCPGO_BEARER set requires "Authorization: Bearer $MCPGO_BEARER",
// and MCPGO_API_KEY set requires "X-API-Key: $MCPGO_API_KEY"; a request
// without them is answered 401.
package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: mcp-go stdio|http")
		os.Exit(2)
	}
	s := newServer()
	var err error
	switch os.Args[1] {
	case "stdio":
		err = server.ServeStdio(s)
	case "http":
		err = serveHTTP(s)
	default:
		err = fmt.Errorf("unknown mode %q (want stdio or http)", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcp-go:", err)
		os.Exit(1)
	}
}

func newServer() *server.MCPServer {
	s := server.NewMCPServer("ananke-mcp-go", "1.0.0", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("echo", mcp.WithDescription("Echoes the message back"),
		mcp.WithString("message", mcp.Required(), mcp.Description("What to echo"))),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			msg, err := req.RequireString("message")
			if err != nil {
				return mcp.NewToolResultError(err.Error()), nil
			}
			return mcp.NewToolResultText("Echo: " + msg), nil
		})
	s.AddTool(mcp.NewTool("add", mcp.WithDescription("Adds two numbers"),
		mcp.WithNumber("a", mcp.Required()), mcp.WithNumber("b", mcp.Required())),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			a, errA := req.RequireFloat("a")
			b, errB := req.RequireFloat("b")
			if errA != nil || errB != nil {
				return mcp.NewToolResultError("a and b must be numbers"), nil
			}
			num := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
			return mcp.NewToolResultText(num(a) + " + " + num(b) + " = " + num(a+b)), nil
		})
	s.AddTool(mcp.NewTool("fail", mcp.WithDescription("Always fails")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultError("the tool failed on purpose"), nil
		})
	return s
}

func serveHTTP(s *server.MCPServer) error {
	l, err := net.Listen("tcp", "127.0.0.1:"+os.Getenv("PORT"))
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", requireCredentials(server.NewStreamableHTTPServer(s)))
	fmt.Printf("listening on http://%s\n", l.Addr())
	return http.Serve(l, mux)
}

// requireCredentials answers 401 to a request without the credentials the
// environment asks for.
func requireCredentials(next http.Handler) http.Handler {
	bearer, key := os.Getenv("MCPGO_BEARER"), os.Getenv("MCPGO_API_KEY")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if bearer != "" && r.Header.Get("Authorization") != "Bearer "+bearer ||
			key != "" && r.Header.Get("X-API-Key") != key {
			http.Error(w, "missing or wrong credentials", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}
