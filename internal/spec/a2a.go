package spec

import (
	"cmp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

// A2ATarget is an A2A agent (target type a2a, version 1.1). Its card
// (AgentCardURL or AgentCard, not both) or the target's Endpoint says where
// it is; an Endpoint beside a card replaces the URL of the interface the
// card gives (a card that names an internal host).
type A2ATarget struct {
	// AgentCardURL is fetched for the agent card (typically
	// https://host/.well-known/agent-card.json).
	AgentCardURL vars.Template
	// AgentCard is an inline agent card (a mapping).
	AgentCard vars.Value
	// ContextID groups a test's messages into one conversation (zero: the
	// agent's first reply sets it).
	ContextID vars.Template
	// Blocking, when set, is sent as configuration.blocking.
	Blocking *bool
	// AcceptedOutputModes are sent as configuration.acceptedOutputModes
	// (MIME types).
	AcceptedOutputModes []string
	Auth                *Auth
	// ToolTrace (tool_trace) declares that the agent shows its tool calls
	// (ADK's function_call / function_response data parts): tool
	// assertions are then evaluated, and fail when no call was seen.
	// Without it they are skipped: A2A has no tool-call events.
	ToolTrace bool
}

// Auth schemes an A2A or MCP target may use (OAuth2 an A2A target only).
const (
	AuthAPIKey = "apiKey"
	AuthBearer = "bearer"
	AuthOAuth2 = "oauth2"
	// DefaultAPIKeyName is the header an apiKey goes in by default.
	DefaultAPIKeyName = "X-API-Key"
)

// How an OAuth2 client authenticates to the token endpoint (RFC 6749
// §2.3.1): HTTP Basic authentication (the default), or its id and secret
// in the request body.
const (
	ClientAuthBasic = "basic"
	ClientAuthBody  = "body"
)

// Auth is how Ananke authenticates to an A2A agent or an MCP server over
// HTTP. Value, Token and ClientSecret are secrets, masked in every output
// once resolved.
type Auth struct {
	Pos    diag.Pos
	Scheme string // AuthAPIKey, AuthBearer or AuthOAuth2
	// Name is the apiKey's header or query parameter (default
	// DefaultAPIKeyName); In is "header" (default) or "query".
	Name string
	In   string
	// Value is the apiKey; Token the bearer token (sent as
	// "Authorization: Bearer <token>").
	Value vars.Template
	Token vars.Template
	// OAuth2's client credentials grant: the client's id and secret, the
	// token endpoint (zero: the one the agent card's clientCredentials
	// flow names), the scopes to ask for (nil: those the card requires),
	// and how the client authenticates (ClientAuthBasic, the default, or
	// ClientAuthBody).
	ClientID     vars.Template
	ClientSecret vars.Template
	TokenURL     vars.Template
	Scopes       []string
	ClientAuth   string
}

var (
	a2aFields       = []string{"agentCardUrl", "agentCard", "contextId", "blocking", "acceptedOutputModes", "auth", "tool_trace"}
	authFields      = []string{"scheme", "name", "in", "value", "token", "clientId", "clientSecret", "tokenUrl", "scopes", "clientAuth"}
	authSchemes     = []string{AuthAPIKey, AuthBearer, AuthOAuth2}
	authPlaces      = []string{"header", "query"}
	clientAuths     = []string{ClientAuthBasic, ClientAuthBody}
	oauth2Fields    = []string{"clientId", "clientSecret", "tokenUrl", "scopes", "clientAuth"}
	authFieldScheme = map[string]string{"name": AuthAPIKey, "in": AuthAPIKey, "value": AuthAPIKey, "token": AuthBearer,
		"clientId": AuthOAuth2, "clientSecret": AuthOAuth2, "tokenUrl": AuthOAuth2, "scopes": AuthOAuth2, "clientAuth": AuthOAuth2}
	// discovery are the fields that say where an A2A agent is; cards, the
	// fields that give its card (one at most).
	discovery = []string{"agentCardUrl", "agentCard", "endpoint"}
	cards     = []string{"agentCardUrl", "agentCard"}
)

// a2aTarget reads the A2A fields.
func (l *loader) a2aTarget(f map[string]decode.Pair) *A2ATarget {
	a := &A2ATarget{}
	if p, ok := f["agentCardUrl"]; ok {
		a.AgentCardURL = l.url(p.Val, "target.agentCardUrl")
	}
	if p, ok := f["agentCard"]; ok {
		a.AgentCard = l.object(p.Val, "target.agentCard")
	}
	if p, ok := f["contextId"]; ok {
		a.ContextID, _ = l.Template(p.Val, "target.contextId")
	}
	if p, ok := f["blocking"]; ok {
		if b, ok := l.Boolean(p.Val, "target.blocking"); ok {
			a.Blocking = &b
		}
	}
	if p, ok := f["acceptedOutputModes"]; ok {
		a.AcceptedOutputModes = l.nonEmpty(p.Val, "target.acceptedOutputModes")
	}
	if p, ok := f["auth"]; ok {
		a.Auth = l.auth(p.Val, authPlaces, authSchemes)
	}
	if p, ok := f["tool_trace"]; ok {
		a.ToolTrace, _ = l.Boolean(p.Val, "target.tool_trace")
	}
	return a
}

// discovery checks that a field says where the agent is, and that at most
// one gives its card: endpoint beside a card replaces the card's URL.
func (l *loader) discovery(n *yaml.Node, f map[string]decode.Pair) {
	if !slices.ContainsFunc(discovery, func(k string) bool { _, ok := f[k]; return ok }) {
		l.Errorf(l.DerefQuiet(n), "target (type a2a) needs where the agent is: set agentCardUrl, agentCard or endpoint")
		return
	}
	var set []decode.Pair
	for _, k := range cards {
		if p, ok := f[k]; ok {
			set = append(set, p)
		}
	}
	if len(set) == 2 {
		slices.SortFunc(set, func(a, b decode.Pair) int {
			return cmp.Or(cmp.Compare(a.Key.Line, b.Key.Line), cmp.Compare(a.Key.Column, b.Key.Column))
		})
		l.Errorf(set[1].Key, "target: %s and %s both give the agent card; set one of them (endpoint beside it replaces the URL it gives)",
			set[0].Key.Value, set[1].Key.Value)
	}
}

// auth reads target.auth: one of schemes; an apiKey goes in one of
// places.
func (l *loader) auth(n *yaml.Node, places, schemes []string) *Auth {
	f, ok := l.Fields(n, "target.auth", authFields)
	if !ok {
		return nil
	}
	a := &Auth{Pos: l.Pos(l.DerefQuiet(n))}
	l.Require(n, f, "target.auth", "scheme")
	if p, ok := f["scheme"]; ok {
		if s, node, ok := l.Text(p.Val, "target.auth.scheme"); ok {
			if slices.Contains(schemes, s) {
				a.Scheme = s
			} else {
				l.Errorf(node, "auth scheme %s is not supported (%s)%s", s, strings.Join(schemes, ", "), authHint(s, schemes))
			}
		}
	}
	if a.Scheme != "" {
		l.notFor(f, a.Scheme)
	}
	switch a.Scheme {
	case AuthAPIKey:
		a.Name, a.In = DefaultAPIKeyName, "header"
		l.Require(n, f, "target.auth (scheme apiKey)", "value")
		if p, ok := f["in"]; ok {
			if s, node, ok := l.Text(p.Val, "target.auth.in"); ok {
				a.In = s
				switch {
				case slices.Contains(places, s):
				case s == "query" && slices.Contains(authPlaces, s):
					l.Errorf(node, "target.auth.in %q: this target sends its key in a header (in: header)", s)
				default:
					l.Errorf(node, "target.auth.in %q is not one of %s", s, strings.Join(places, ", "))
				}
			}
		}
		if p, ok := f["name"]; ok {
			if s, node, ok := l.Text(p.Val, "target.auth.name"); ok {
				a.Name = s
				if s == "" || (a.In == "header" && !validHeaderName(s)) {
					l.Errorf(node, "target.auth.name %q is not a valid %s name", s, a.In)
				}
			}
		}
		if p, ok := f["value"]; ok {
			a.Value, _ = l.Template(p.Val, "target.auth.value")
		}
	case AuthBearer:
		l.Require(n, f, "target.auth (scheme bearer)", "token")
		if p, ok := f["token"]; ok {
			a.Token, _ = l.Template(p.Val, "target.auth.token")
		}
	case AuthOAuth2:
		l.oauth2(n, f, a)
	}
	return a
}

// oauth2 reads the fields of the client credentials grant.
func (l *loader) oauth2(n *yaml.Node, f map[string]decode.Pair, a *Auth) {
	l.Require(n, f, "target.auth (scheme oauth2)", "clientId", "clientSecret")
	if p, ok := f["clientId"]; ok {
		a.ClientID, _ = l.Template(p.Val, "target.auth.clientId")
	}
	if p, ok := f["clientSecret"]; ok {
		a.ClientSecret, _ = l.Template(p.Val, "target.auth.clientSecret")
	}
	if p, ok := f["tokenUrl"]; ok {
		a.TokenURL = l.url(p.Val, "target.auth.tokenUrl")
	}
	if p, ok := f["scopes"]; ok {
		a.Scopes = l.scopes(p.Val)
	}
	a.ClientAuth = ClientAuthBasic
	if p, ok := f["clientAuth"]; ok {
		if s, node, ok := l.Text(p.Val, "target.auth.clientAuth"); ok {
			if slices.Contains(clientAuths, s) {
				a.ClientAuth = s
			} else {
				l.Errorf(node, "target.auth.clientAuth %q is not one of %s", s, strings.Join(clientAuths, ", "))
			}
		}
	}
}

// scopes reads target.auth.scopes: each one scope, as RFC 6749 §3.3
// spells one (printable ASCII but space, quote and backslash).
func (l *loader) scopes(n *yaml.Node) []string {
	items, ok := l.List(n, "target.auth.scopes")
	if !ok {
		return nil
	}
	var out []string
	for i, item := range items {
		what := decode.Index("target.auth.scopes", i)
		s, node, ok := l.Text(item, what)
		switch {
		case !ok:
		case s == "":
			l.Errorf(node, "%s must not be empty", what)
		case strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == '"' || r == '\\' || r > '~' }):
			l.Errorf(node, "%s %q is not a scope: one scope a string, without spaces, quotes or backslashes (RFC 6749 §3.3)", what, s)
		default:
			out = append(out, s)
		}
	}
	return out
}

// notFor reports the fields of other auth schemes than scheme.
func (l *loader) notFor(f map[string]decode.Pair, scheme string) {
	for _, k := range authFields {
		p, ok := f[k]
		if other := authFieldScheme[k]; ok && other != "" && other != scheme {
			l.Errorf(p.Key, "target.auth: %s is for scheme %s; this auth is %s", k, other, scheme)
		}
	}
}

// authHint says what to do instead of an unsupported scheme, for a
// target that takes schemes.
func authHint(scheme string, schemes []string) string {
	switch strings.ToLower(scheme) {
	case "openidconnect", "oidc":
		return "; get a token in a before_all hook and send it with scheme: bearer"
	case "oauth2":
		if !slices.Contains(schemes, AuthOAuth2) {
			return "; get a token in a before_all hook and send it with scheme: bearer"
		}
		return `; write "oauth2"`
	case "apikey":
		return `; write "apiKey"`
	}
	return ""
}

// nonEmpty reads a list of non-empty strings.
func (l *loader) nonEmpty(n *yaml.Node, what string) []string {
	items, ok := l.List(n, what)
	if !ok {
		return nil
	}
	var out []string
	for i, item := range items {
		s, node, ok := l.Text(item, decode.Index(what, i))
		if !ok {
			continue
		}
		if strings.TrimSpace(s) == "" {
			l.Errorf(node, "%s must not be empty", decode.Index(what, i))
			continue
		}
		out = append(out, s)
	}
	return out
}
