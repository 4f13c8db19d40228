package a2a

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
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
	tr        *transport
	opts      Options
	now       func() time.Time
	secrets   []string
	card      json.RawMessage // the card as read (nil: none)
	agent     string          // the card's name
	version   string          // the protocol version spoken
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
	s.hc, s.tr = httpClient(o)
	iface, card, err := s.discover(ctx)
	if err == nil {
		err = s.oauth2()
	}
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
	s.card = raw
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
// the headers and the credential with every request, and its transport.
func httpClient(o Options) (*http.Client, *transport) {
	var hc http.Client
	if o.HTTP != nil {
		hc = *o.HTTP
	}
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport.(*http.Transport).Clone()
	}
	tr := &transport{base: base, headers: o.Headers, auth: o.Auth.withDefaults()}
	hc.Transport = tr
	return &hc, tr
}

// oauth2 readies an OAuth2 Auth's tokens, once the card is read: the
// token endpoint is the Auth's, else the one the card's client
// credentials flow names; the scopes the Auth's, else those the card's
// security requirements name for that flow's scheme.
func (s *Session) oauth2() error {
	a := s.tr.auth
	if a == nil || a.Scheme != SchemeOAuth2 {
		return nil
	}
	tokenURL, scopes := a.TokenURL, a.Scopes
	var flow *cardFlow
	if len(s.card) > 0 {
		var err error
		if flow, err = clientCredentialsFlow(s.card); err != nil {
			return err
		}
	}
	if tokenURL == "" {
		if flow == nil {
			return errors.New("oauth2 auth: the agent card declares no OAuth2 client credentials flow (securitySchemes); set auth.tokenUrl")
		}
		tokenURL = flow.tokenURL
		if u, err := url.Parse(tokenURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("oauth2 auth: the agent card's client credentials tokenUrl %q is not an http(s) URL", tokenURL)
		}
	}
	if scopes == nil && flow != nil {
		scopes = flow.scopes
	}
	s.tr.tokens = newTokens(a, tokenURL, scopes, s.tr.base, &s.opts, s.now)
	return nil
}

// learn takes the secrets the session learned (the tokens it fetched):
// no error it returns shows them, and Options.Secret is told of them.
func (s *Session) learn() {
	if s.tr.tokens == nil {
		return
	}
	for _, tok := range s.tr.tokens.take() {
		s.secrets = append(s.secrets, tok)
		if s.opts.Secret != nil {
			s.opts.Secret(tok)
		}
	}
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
