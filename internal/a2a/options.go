package a2a

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2aclient"

	"github.com/ananke/action/internal/deadline"
)

// Options says how to reach an A2A agent and how to talk to it.
type Options struct {
	// CardURL is where the agent card is (agentCardUrl): a card's own URL,
	// or a base URL, which gets /.well-known/agent-card.json.
	CardURL string
	// Card is an inline agent card (agentCard).
	Card json.RawMessage
	// Endpoint is the agent's JSON-RPC URL (endpoint). Alone, it skips
	// discovery: A2A 1.0, no streaming. With a card, it replaces the URL
	// of the interface the card offers (a card that names an internal
	// host).
	Endpoint string
	// Headers are sent with every request, the card's included. Their
	// values are secrets: no error shows them.
	Headers http.Header
	// Timeout bounds discovery (fetching the card) and each turn (0: only
	// ctx does).
	Timeout time.Duration
	// ContextID is the conversation to join (contextId); "" lets the agent
	// assign one, which the session's later turns reuse.
	ContextID string
	// Blocking asks a non-streaming send to wait for the task's end (true)
	// or to answer at once (false: the session polls); nil leaves the
	// SDK's default.
	Blocking *bool
	// AcceptedOutputModes are the MIME types the turns accept.
	AcceptedOutputModes []string
	// Auth is the credential sent with every request.
	Auth *Auth
	// Secret, when set, is told each secret the session learns as it
	// plays (an OAuth2 token), so that no report shows it.
	Secret func(string)
	// ToolTrace declares that the agent exposes its tool calls (ADK's
	// function_call data parts), so that tool assertions are evaluated,
	// and fail, even when a test saw no call; without it they are skipped,
	// whatever a test saw, so the verdict never hangs on whether the agent
	// happened to call a tool (docs/a2a.md).
	ToolTrace bool
	// HTTP is the client to use (nil: a client of the session's own,
	// without a timeout beyond Timeout).
	HTTP *http.Client
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// after is how Timeout is waited for (nil: the context's own
	// timer): a test ends a wait when what it waits for has happened,
	// not when a busy machine's clock says so.
	after deadline.After

	// v03 speaks A2A 0.3 through hc (nil: Ananke's own client, withV03);
	// tests set the SDK's to compare the two.
	v03 func(hc *http.Client) a2aclient.FactoryOption
}

// compat03 is how the session speaks A2A 0.3.
func (o *Options) compat03(hc *http.Client) a2aclient.FactoryOption {
	if o.v03 != nil {
		return o.v03(hc)
	}
	return withV03(hc)
}

// Auth schemes.
const (
	SchemeAPIKey = "apiKey"
	SchemeBearer = "bearer"
	SchemeOAuth2 = "oauth2"
)

// How an OAuth2 client authenticates to the token endpoint (RFC 6749
// §2.3.1).
const (
	ClientAuthBasic = "basic" // HTTP Basic authentication: the default
	ClientAuthBody  = "body"  // client_id and client_secret in the form
)

// defaultKeyName is the header an API key goes in when Auth names none.
const defaultKeyName = "X-API-Key"

// Auth is a credential: an API key (Name, default X-API-Key; In "header",
// the default, or "query"; Value), a bearer token (Token), or OAuth2's
// client credentials grant (ClientID, ClientSecret; TokenURL, "" for the
// card's; Scopes, nil for those the card requires; ClientAuth), whose
// token is sent as a bearer token (oauth.go).
type Auth struct {
	Scheme, Name, In, Value, Token string

	ClientID, ClientSecret, TokenURL string
	Scopes                           []string
	ClientAuth                       string
}

// check reports what is wrong with the options.
func (o *Options) check() error {
	if o.CardURL == "" && len(o.Card) == 0 && o.Endpoint == "" {
		return errors.New("no agent card URL, agent card or endpoint")
	}
	if o.CardURL != "" && len(o.Card) > 0 {
		return errors.New("both an agent card URL and an inline agent card")
	}
	if o.Timeout < 0 {
		return fmt.Errorf("negative timeout %v", o.Timeout)
	}
	if a := o.Auth; a != nil {
		switch a.Scheme {
		case SchemeBearer:
			if a.Token == "" {
				return errors.New("bearer auth without a token")
			}
		case SchemeAPIKey:
			if a.Value == "" {
				return errors.New("apiKey auth without a value")
			}
			if a.In != "" && a.In != "header" && a.In != "query" {
				return fmt.Errorf("apiKey auth in %q: want header or query", a.In)
			}
		case SchemeOAuth2:
			if a.ClientID == "" || a.ClientSecret == "" {
				return errors.New("oauth2 auth without a client id and secret")
			}
			if a.ClientAuth != "" && a.ClientAuth != ClientAuthBasic && a.ClientAuth != ClientAuthBody {
				return fmt.Errorf("oauth2 client auth %q: want basic or body", a.ClientAuth)
			}
			if a.TokenURL == "" && o.CardURL == "" && len(o.Card) == 0 {
				return errors.New("oauth2 auth without a token URL: an endpoint alone has no agent card to name one; set auth.tokenUrl")
			}
		default:
			return fmt.Errorf("unknown auth scheme %q: want apiKey, bearer or oauth2", a.Scheme)
		}
	}
	return nil
}

// withDefaults fills an API key's default name and place.
func (a *Auth) withDefaults() *Auth {
	if a == nil {
		return nil
	}
	c := *a
	if c.Scheme == SchemeAPIKey && c.Name == "" {
		c.Name = defaultKeyName
	}
	if c.Scheme == SchemeAPIKey && c.In == "" {
		c.In = "header"
	}
	return &c
}

// secrets lists the values no error may show.
func (o *Options) secrets() []string {
	var out []string
	for _, vs := range o.Headers {
		out = append(out, vs...)
	}
	if a := o.Auth; a != nil {
		out = append(out, a.Value, a.Token, a.ClientSecret)
	}
	return out
}
