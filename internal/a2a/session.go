package a2a

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/deadline"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// Session is one attempt's conversation with an A2A agent.
type Session struct {
	client    *a2aclient.Client
	hc        *http.Client
	opts      Options
	now       func() time.Time
	secrets   []string
	agent     string // the card's name
	version   string // the protocol version spoken
	streaming bool

	// The conversation: the context every turn joins, and the task a turn
	// answers when the previous one ended waiting for input.
	contextID string
	taskID    a2a.TaskID
	lastTask  a2a.TaskID
	// What earlier turns recorded, so that a task snapshot repeating it
	// (its history, an artifact) is not recorded twice.
	seenMsgs  map[string]bool
	artifacts map[string]artifactSoFar // task/artifact id → what it said so far
	seenCalls map[string]bool
	// counted are the usage reports earlier turns counted
	// (internal/a2a/usage.go).
	counted map[string]bool
	// asked is the status message of the input-required task the next
	// turn answers.
	asked   string
	results map[string]bool
}

var _ target.Conn = (*Session)(nil)

// Dial resolves the agent's card and opens a session with it.
func Dial(ctx context.Context, o Options) (*Session, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	s := &Session{opts: o, now: o.Now, secrets: o.secrets(), contextID: o.ContextID,
		seenMsgs: map[string]bool{}, artifacts: map[string]artifactSoFar{}, seenCalls: map[string]bool{}, results: map[string]bool{}}
	if s.now == nil {
		s.now = time.Now
	}
	s.hc = httpClient(o)
	iface, card, err := s.discover(ctx)
	if err != nil {
		s.hc.CloseIdleConnections()
		return nil, s.redact(err)
	}
	if card != nil {
		s.agent, s.streaming = card.Name, card.Capabilities.Streaming
	}
	s.version = majorMinor(iface.ProtocolVersion)
	s.client, err = a2aclient.NewFromEndpoints(ctx, []*a2a.AgentInterface{iface},
		a2aclient.WithDefaultsDisabled(),
		a2aclient.WithJSONRPCTransport(s.hc),
		o.compat03(s.hc),
		a2aclient.WithConfig(a2aclient.Config{AcceptedOutputModes: o.AcceptedOutputModes}))
	if err != nil {
		s.hc.CloseIdleConnections()
		return nil, s.redact(fmt.Errorf("a2a client: %w", err))
	}
	return s, nil
}

// discover resolves the interface within the timeout: a card URL that
// accepts the connection and never answers must not hold the run.
func (s *Session) discover(ctx context.Context) (*a2a.AgentInterface, *a2a.AgentCard, error) {
	dctx, stop := s.bound(ctx)
	defer stop()
	iface, card, err := s.resolve(dctx)
	if err != nil && ctx.Err() == nil && timedOut(dctx) {
		err = fmt.Errorf("agent card %s: no answer within %v", s.opts.CardURL, s.opts.Timeout)
	}
	return iface, card, err
}

// errTimeout is the cause of a context that the session's Timeout ended.
var errTimeout = errors.New("a2a: timeout")

// bound returns ctx, ended by the session's Timeout too (with errTimeout
// as its cause), and the function that releases it. A ctx that ends
// first, as the engine's run timeout does, ends the wait with its own
// cause.
func (s *Session) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if s.opts.Timeout <= 0 {
		return context.WithCancel(ctx)
	}
	return deadline.WithTimeoutCause(ctx, s.opts.Timeout, errTimeout, s.opts.after)
}

// timedOut reports whether the session's Timeout ended ctx, a context
// bound returned.
func timedOut(ctx context.Context) bool { return errors.Is(context.Cause(ctx), errTimeout) }

// resolve finds the interface to speak: the card's, with the endpoint's
// URL when one is given; the endpoint alone is a 1.0 JSON-RPC interface.
func (s *Session) resolve(ctx context.Context) (*a2a.AgentInterface, *a2a.AgentCard, error) {
	o := &s.opts
	raw := o.Card
	if o.CardURL != "" {
		var err error
		if raw, err = fetchCard(ctx, s.hc, o.CardURL); err != nil {
			return nil, nil, err
		}
	}
	if len(raw) == 0 {
		return &a2a.AgentInterface{URL: o.Endpoint, ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: a2a.Version}, nil, nil
	}
	card, err := parseCard(raw)
	if err != nil {
		return nil, nil, err
	}
	iface, err := pickInterface(card)
	if err != nil {
		return nil, nil, err
	}
	if o.Endpoint != "" {
		iface.URL = o.Endpoint
	}
	return iface, card, nil
}

// httpClient is the options' client, or one of the session's own, sending
// the headers and the credential with every request.
func httpClient(o Options) *http.Client {
	var hc http.Client
	if o.HTTP != nil {
		hc = *o.HTTP
	}
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport.(*http.Transport).Clone()
	}
	hc.Transport = &transport{base: base, headers: o.Headers, auth: o.Auth.withDefaults()}
	return &hc
}

// Source says what the session's traces show: see docs/a2a.md for the
// capability rule.
func (s *Session) Source() trace.Source {
	var caps []string // in capability.All's order
	if s.opts.ToolTrace {
		caps = append(caps, capability.ToolTrace)
	}
	if s.streaming {
		caps = append(caps, capability.StreamingTiming)
	}
	caps = append(caps, capability.LiveRun)
	return trace.Source{Adapter: "a2a", Version: s.version, Mode: "live", Capabilities: caps,
		AgentID: s.agent, SessionID: s.contextID, TaskID: string(s.lastTask)}
}

// Close ends the session.
func (s *Session) Close() error {
	err := s.client.Destroy()
	s.hc.CloseIdleConnections()
	return err
}
