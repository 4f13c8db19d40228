package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ananke/action/internal/capability"
	urlsecret "github.com/ananke/action/internal/secret"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// Adapter is the trace source's adapter name for MCP sessions.
const Adapter = "mcp"

// exitWait is how long a failed handshake or call waits for a stdio
// server to finish exiting, so the error can say how it exited.
const exitWait = 500 * time.Millisecond

// clientInfo is how Ananke introduces itself in the handshake.
var clientInfo = &sdk.Implementation{Name: "ananke", Version: "1"}

// Session is a connection to one MCP server, playing mcp:call and
// mcp:list_tools turns.
type Session struct {
	o       Options
	cs      *sdk.ClientSession
	wire    *wire
	srv     *server       // stdio: the server's process
	rt      *roundTripper // http, sse: the tapped HTTP client
	version string        // the protocol version negotiated
	// endStream ends an sse session's event stream.
	endStream context.CancelFunc
	calls     int // turns played, for fresh ids
}

var _ target.Conn = (*Session)(nil)

// Dial starts or reaches the server o names and completes the MCP
// handshake. The errors say what failed: a command not found, a server
// that exited during the handshake (with its last stderr lines), an
// unreachable endpoint or an HTTP status, a reply that is not JSON-RPC.
func Dial(ctx context.Context, o Options) (*Session, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	s := &Session{o: o, wire: newWire(o.Now)}
	var t sdk.Transport
	switch o.Transport {
	case TransportStdio:
		srv, st, err := startServer(&s.o, s.wire)
		if err != nil {
			return nil, err
		}
		s.srv, t = srv, st
	case TransportHTTP:
		s.rt = &roundTripper{headers: o.Headers, wire: s.wire}
		t = &sdk.StreamableClientTransport{Endpoint: o.Endpoint, HTTPClient: httpClient(o.HTTP, s.rt), MaxRetries: -1}
	case TransportSSE:
		s.rt = &roundTripper{headers: o.Headers, wire: s.wire}
		var life context.Context
		life, s.endStream = context.WithCancel(context.WithoutCancel(ctx))
		t = &detached{t: &sdk.SSEClientTransport{Endpoint: o.Endpoint, HTTPClient: httpClient(o.HTTP, s.rt)}, life: life, end: s.endStream}
	}
	if o.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.Timeout)
		defer cancel()
	}
	// Ananke declares no client capability: a server has no roots,
	// sampling or elicitation to ask it for.
	c := sdk.NewClient(clientInfo, &sdk.ClientOptions{Capabilities: &sdk.ClientCapabilities{}})
	unbind := func() bool { return false }
	if s.rt != nil {
		// What the handshake starts ends with it: the stream the SDK opens
		// once it has a session id, the cancellation it sends after a
		// timeout, the DELETE when it gives up.
		unbind = s.rt.bound.open(ctx)
	}
	cs, err := c.Connect(ctx, t, nil)
	if unbind() && err == nil {
		// The deadline came as the handshake ended, cutting off what it
		// had started.
		cs.Close()
		err = context.Cause(ctx)
	}
	if err != nil {
		err = s.handshakeError(ctx, err)
		if s.srv != nil {
			s.srv.stopNow()
		}
		if s.endStream != nil {
			s.endStream()
		}
		return nil, err
	}
	s.cs, s.version = cs, cs.InitializeResult().ProtocolVersion
	return s, nil
}

// handshakeError says why the handshake failed. A line that is not
// JSON-RPC comes first: a stdio server that printed a banner is then
// stopped by the closed pipe, and its exit is not the cause.
func (s *Session) handshakeError(ctx context.Context, err error) error {
	junk := s.wire.notJSON()
	switch {
	case junk != "" && s.rt == nil:
		err = fmt.Errorf("mcp: initialize%s: %w", junk, err)
	case s.srv != nil && ctx.Err() == nil && s.srv.exitedWithin(exitWait):
		return fmt.Errorf("mcp: the server exited during initialize (%s)", s.srv.exit())
	case ctx.Err() != nil && s.o.Timeout > 0:
		err = fmt.Errorf("mcp: initialize: no answer within %v: %w", s.o.Timeout, err)
	case s.rt != nil:
		err = fmt.Errorf("mcp: initialize %s%s%s: %w", redactURL(s.o.Endpoint), statusHint(s.rt), junk, err)
	default:
		err = fmt.Errorf("mcp: initialize: %w", err)
	}
	if s.srv != nil {
		return quoted{err, s.srv.stderr.quote()}
	}
	return s.redact(err)
}

// Source says what the session's traces show.
func (s *Session) Source() trace.Source {
	return trace.Source{Adapter: Adapter, Version: s.version, Mode: "live",
		Capabilities: []string{capability.ToolTrace, capability.StreamingTiming, capability.LiveRun}}
}

// Close ends the session: an HTTP session is deleted, a stdio server's
// stdin is closed, and the server is stopped (SIGTERM, then SIGKILL) if it
// does not exit by itself.
func (s *Session) Close() error {
	var errs []error
	if s.srv != nil {
		errs = append(errs, s.srv.stop())
	}
	if s.rt != nil && s.o.Timeout > 0 {
		// The DELETE that ends an HTTP session is bounded like a turn.
		ctx, cancel := context.WithTimeout(context.Background(), s.o.Timeout)
		defer cancel()
		defer s.rt.bound.open(ctx)()
	}
	if err := s.cs.Close(); err != nil && s.srv == nil {
		// A stdio session's Close only closes pipes the server already
		// let go of; an HTTP one's reports a failed DELETE.
		errs = append(errs, s.redact(fmt.Errorf("mcp: close session: %w", err)))
	}
	if s.endStream != nil {
		s.endStream()
	}
	return errors.Join(errs...)
}

// Turn plays one mcp:call or mcp:list_tools turn as one run of the trace.
func (s *Session) Turn(ctx context.Context, in target.Turn, rec *trace.Recorder) error {
	switch in.Type {
	case target.TurnMCPCall:
		return s.call(ctx, in, rec)
	case target.TurnMCPList:
		return s.list(ctx, rec)
	}
	return fmt.Errorf("a mcp target plays %s and %s turns, not %q", target.TurnMCPCall, target.TurnMCPList, in.Type)
}

// failure turns the error of a request that got no answer into the turn's
// error: the server exited, the turn timed out, or the transport failed.
func (s *Session) failure(ctx context.Context, what string, err error) error {
	switch junk := s.wire.notJSON(); {
	case junk != "" && s.rt == nil:
		return quoted{fmt.Errorf("mcp: %s%s: %w", what, junk, err), s.srv.stderr.quote()}
	case s.srv != nil && s.srv.exitedWithin(exitWait):
		return fmt.Errorf("mcp: %s: the server exited (%s)", what, s.srv.exit())
	case errors.Is(ctx.Err(), context.DeadlineExceeded) && s.o.Timeout > 0:
		return fmt.Errorf("mcp: %s: no answer within %v: %w", what, s.o.Timeout, context.DeadlineExceeded)
	case s.rt != nil:
		return s.redact(fmt.Errorf("mcp: %s%s%s: %w", what, statusHint(s.rt), junk, err))
	}
	return fmt.Errorf("mcp: %s: %w", what, err)
}

// redact masks the header values in err's message: a server may echo them.
func (s *Session) redact(err error) error {
	msg := err.Error()
	masked := msg
	for _, vs := range s.o.Headers {
		for _, v := range vs {
			if v = strings.TrimSpace(v); len(v) >= 4 {
				masked = strings.ReplaceAll(masked, v, "***")
			}
			// The token of "Bearer <token>", echoed alone.
			for _, f := range strings.Fields(v) {
				if len(f) >= 8 {
					masked = strings.ReplaceAll(masked, f, "***")
				}
			}
		}
	}
	if masked == msg {
		return err
	}
	return redacted{masked, err}
}

// redacted is an error whose message had secrets masked; errors.Is and As
// still see the original.
type redacted struct {
	msg string
	err error
}

func (e redacted) Error() string { return e.msg }
func (e redacted) Unwrap() error { return e.err }

// quoted adds a stdio server's last stderr lines to an error.
type quoted struct {
	err    error
	stderr string
}

func (e quoted) Error() string { return e.err.Error() + e.stderr }
func (e quoted) Unwrap() error { return e.err }

// redactURL masks a URL's password and query values for messages, as
// every URL Ananke prints (docs/reports.md, "Secrets").
func redactURL(s string) string { return urlsecret.URL(s) }

// nextID returns a fresh id for a turn's run and call.
func (s *Session) nextID() string {
	s.calls++
	return fmt.Sprintf("mcp-%d", s.calls)
}

// bound applies the turn timeout to ctx.
func (s *Session) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if s.o.Timeout > 0 {
		return context.WithTimeout(ctx, s.o.Timeout)
	}
	return context.WithCancel(ctx)
}
