package doubles

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ananke/action/internal/backend"
	"github.com/ananke/action/internal/doubles/decl"
)

// DefaultHold is how long a timeout fault holds a call the agent does not
// give up on; then its connection is closed, still unanswered.
const DefaultHold = 10 * time.Minute

// shutdownWait bounds how long Serve waits for calls in progress once its
// context is done.
const shutdownWait = 5 * time.Second

// Options configure a Server.
type Options struct {
	// Now is the clock calls are timed by (time.Now when nil).
	Now func() time.Time
	// Hold bounds a timeout fault (DefaultHold when 0).
	Hold time.Duration
	// Version is the server's version in the MCP handshake.
	Version string
}

// Server serves the declared tools over MCP's streamable HTTP transport
// and answers each call from the plan of the test attempt it belongs to.
type Server struct {
	cfg   *decl.Config
	board *backend.Board
	plans map[string]*decl.Plan
	o     Options
	mcp   http.Handler

	closed    chan struct{}
	closeOnce sync.Once
}

// NewServer is a server of the config's tools. board routes each call to
// a test attempt; plans are the tests' plans by test id (spec.Test.ID;
// a test with none answers from the config's defaults).
func NewServer(c *decl.Config, board *backend.Board, plans map[string]*decl.Plan, o Options) *Server {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Hold <= 0 {
		o.Hold = DefaultHold
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	s := &Server{cfg: c, board: board, plans: plans, o: o, closed: make(chan struct{})}
	srv := sdk.NewServer(&sdk.Implementation{Name: "ananke-doubles", Version: o.Version}, nil)
	for _, t := range c.Tools {
		tool := &sdk.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema}
		if t.OutputSchema != nil {
			tool.OutputSchema = t.OutputSchema
		}
		srv.AddTool(tool, s.answer)
	}
	// Stateless: each request is served in its own context, so a call's
	// binding travels with it and a client that gives up ends its wait.
	// The protection against DNS rebinding is off: the doubles serve test
	// data only, and an agent in a container may name the host as it
	// likes.
	s.mcp = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv },
		&sdk.StreamableHTTPOptions{Stateless: true, DisableLocalhostProtection: true})
	return s
}

// Handler serves the MCP endpoint at the config's path, and 404 anywhere
// else. A drop fault, and a timeout fault at its end, abort their
// response by panicking with http.ErrAbortHandler, as net/http expects: a
// handler wrapping this one must let that panic through.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc(s.cfg.Path, s.serve)
	return mux
}

// Close ends every call still held (by a timeout fault or a latency):
// their connections are closed unanswered.
func (s *Server) Close() { s.closeOnce.Do(func() { close(s.closed) }) }

// Serve serves Handler on ln until ctx is done, then closes the server and
// waits a little for the calls in progress.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: time.Minute}
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		<-ctx.Done()
		s.Close()
		sctx, cancel := context.WithTimeout(context.Background(), shutdownWait)
		defer cancel()
		if hs.Shutdown(sctx) != nil {
			hs.Close()
		}
	}()
	err := hs.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		<-stopped
		return nil
	}
	return err
}

// wait waits d, or until ctx is done or the server closed; it reports
// whether d passed.
func (s *Server) wait(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
	case <-s.closed:
	}
	return false
}

// request is the part of a JSON-RPC message the server looks at before
// the SDK does.
type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// msDuration is a number of milliseconds as a duration.
func msDuration(ms int64) time.Duration { return time.Duration(ms) * time.Millisecond }
