package mcp

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// Transports a session can use.
const (
	// TransportStdio runs the server as a child process and speaks
	// newline-delimited JSON-RPC over its stdin and stdout.
	TransportStdio = "stdio"
	// TransportHTTP is the streamable HTTP transport (MCP 2025-03-26 and
	// later): JSON-RPC POSTed to one endpoint, answered with JSON or an
	// event stream.
	TransportHTTP = "http"
	// TransportSSE is the legacy HTTP+SSE transport (MCP 2024-11-05): an
	// event stream from the endpoint names the URL to POST messages to.
	TransportSSE = "sse"
)

// Options configure a session.
type Options struct {
	Transport string // TransportStdio, TransportHTTP or TransportSSE
	// Command is a stdio server's command and arguments.
	Command []string
	// Env holds KEY=VALUE pairs added to a stdio server's environment
	// (which is otherwise Ananke's own).
	Env []string
	// Dir is a stdio server's working directory ("": Ananke's).
	Dir string
	// Stderr receives a stdio server's stderr (nil: discarded); its last
	// lines are quoted in errors either way.
	Stderr io.Writer
	// Endpoint is an HTTP server's URL, e.g. http://127.0.0.1:3001/mcp.
	Endpoint string
	// Headers are sent with every HTTP request. Their values are secrets:
	// no error or trace shows them.
	Headers http.Header
	// Timeout bounds each turn, and the handshake (0: no bound but ctx).
	Timeout time.Duration
	// HTTP is the client HTTP requests go through (nil: the default).
	HTTP *http.Client
	// Now is the clock the trace is stamped with (nil: time.Now).
	Now func() time.Time
	// after is how a stdio server's stop waits (nil: time.After).
	after func(time.Duration) <-chan time.Time
}

// check reports what is missing or wrong in o.
func (o *Options) check() error {
	switch o.Transport {
	case TransportStdio:
		if len(o.Command) == 0 || o.Command[0] == "" {
			return errors.New("mcp: a stdio target needs a command")
		}
	case TransportHTTP, TransportSSE:
		u, err := url.Parse(o.Endpoint)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("mcp: the %s endpoint %q is not an http(s) URL", o.Transport, o.Endpoint)
		}
	default:
		return fmt.Errorf("mcp: unknown transport %q (want %s, %s or %s)", o.Transport, TransportStdio, TransportHTTP, TransportSSE)
	}
	return nil
}
