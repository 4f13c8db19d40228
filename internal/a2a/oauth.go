package a2a

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/ananke/action/internal/deadline"
)

// OAuth2's client credentials grant (RFC 6749 §4.4), as an agent card's
// security schemes declare it (docs/a2a.md, "Auth and headers"): Ananke
// asks the token endpoint for a token with the client's id and secret,
// reuses it until shortly before it expires, and sends it as a bearer
// token. golang.org/x/oauth2/clientcredentials speaks to the endpoint (the
// form, the client's authentication, the answer and its errors); the
// session keeps the token, on its own clock.

// tokenMargin is how long before its expiry a token is replaced: a request
// sent with it must still find it valid. A token that lives less than
// twice the margin is replaced halfway through its life.
const tokenMargin = 30 * time.Second

// tokenTimeout bounds a token request when the target sets no timeout.
const tokenTimeout = 30 * time.Second

// cardFlow is the client credentials flow an agent card declares: its
// token URL, and the scopes its security requirements name for it.
type cardFlow struct {
	scheme   string
	tokenURL string
	scopes   []string
}

// clientCredentialsFlow finds the client credentials flow a card
// declares, in A2A 1.0's shape ({"oauth2SecurityScheme": {"flows":
// {"clientCredentials": …}}}, requirements {"schemes": {name: [scopes] or
// {"list": [scopes]}}}) or 0.3's ({"type": "oauth2", "flows": …},
// requirements {name: [scopes]}). Of several, the first a requirement
// names wins, else the first by name.
func clientCredentialsFlow(raw json.RawMessage) (*cardFlow, error) {
	var card struct {
		Schemes      map[string]json.RawMessage `json:"securitySchemes"`
		Requirements []struct {
			Schemes map[string]json.RawMessage `json:"schemes"`
		} `json:"securityRequirements"`
		Security []map[string]json.RawMessage `json:"security"`
	}
	if err := json.Unmarshal(raw, &card); err != nil {
		return nil, fmt.Errorf("read the agent card's security schemes: %w", err)
	}
	flows := map[string]*cardFlow{}
	for name, s := range card.Schemes {
		if f := oauth2Flow(s); f != nil {
			f.scheme = name
			flows[name] = f
		}
	}
	// The requirements, in order: each names schemes with their scopes.
	var required []map[string]json.RawMessage
	for _, r := range card.Requirements {
		required = append(required, r.Schemes)
	}
	required = append(required, card.Security...)
	for _, req := range required {
		names := make([]string, 0, len(req))
		for name := range req {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			if f := flows[name]; f != nil {
				f.scopes = scopeList(req[name])
				return f, nil
			}
		}
	}
	if len(flows) == 0 {
		return nil, nil
	}
	names := make([]string, 0, len(flows))
	for name := range flows {
		names = append(names, name)
	}
	slices.Sort(names)
	return flows[names[0]], nil
}

// oauth2Flow reads a security scheme's client credentials flow (nil: it
// declares none).
func oauth2Flow(raw json.RawMessage) *cardFlow {
	var s struct {
		Type  string          `json:"type"`
		Flows json.RawMessage `json:"flows"`
		V1    *struct {
			Flows json.RawMessage `json:"flows"`
		} `json:"oauth2SecurityScheme"`
	}
	if json.Unmarshal(raw, &s) != nil {
		return nil
	}
	flows := s.Flows
	switch {
	case s.V1 != nil:
		flows = s.V1.Flows
	case !strings.EqualFold(s.Type, "oauth2"):
		return nil
	}
	var f struct {
		ClientCredentials *struct {
			TokenURL string `json:"tokenUrl"`
		} `json:"clientCredentials"`
	}
	if json.Unmarshal(flows, &f) != nil || f.ClientCredentials == nil || f.ClientCredentials.TokenURL == "" {
		return nil
	}
	return &cardFlow{tokenURL: f.ClientCredentials.TokenURL}
}

// scopeList reads a requirement's scopes: a list (0.3, a2a-go), or
// {"list": […]} (A2A 1.0's protocol buffers JSON).
func scopeList(raw json.RawMessage) []string {
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return list
	}
	var wrapped struct {
		List []string `json:"list"`
	}
	json.Unmarshal(raw, &wrapped)
	return wrapped.List
}

// tokens gets and keeps the session's OAuth2 token.
type tokens struct {
	cfg clientcredentials.Config
	// hc sends the token requests: the session's client without its
	// credential.
	hc      *http.Client
	now     func() time.Time
	timeout time.Duration
	after   deadline.After

	mu      sync.Mutex
	token   string
	expires time.Time // zero: the endpoint gave no lifetime
	fetched int       // how many tokens were fetched
	// fresh are the tokens fetched since the session last took them
	// (take), to mask in reports.
	fresh []string
}

// newTokens is the token source of an OAuth2 Auth, for the token URL
// resolved (the Auth's, or the card's).
func newTokens(a *Auth, tokenURL string, scopes []string, base http.RoundTripper, o *Options, now func() time.Time) *tokens {
	style := oauth2.AuthStyleInHeader
	if a.ClientAuth == ClientAuthBody {
		style = oauth2.AuthStyleInParams
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = tokenTimeout
	}
	return &tokens{
		cfg: clientcredentials.Config{ClientID: a.ClientID, ClientSecret: a.ClientSecret, TokenURL: tokenURL,
			Scopes: scopes, AuthStyle: style},
		hc: &http.Client{Transport: base}, now: now, timeout: timeout, after: o.after,
	}
}

// errTokenTimeout is the cause of a token request the timeout ended.
var errTokenTimeout = errors.New("a2a: token timeout")

// get returns a valid token: the one kept, or a new one.
func (t *tokens) get(ctx context.Context) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.token != "" && (t.expires.IsZero() || t.now().Before(t.expires)) {
		return t.token, nil
	}
	asked := t.now()
	tctx, cancel := deadline.WithTimeoutCause(ctx, t.timeout, errTokenTimeout, t.after)
	defer cancel()
	tok, err := t.cfg.Token(context.WithValue(tctx, oauth2.HTTPClient, t.hc))
	if err != nil {
		return "", t.explain(ctx, tctx, err)
	}
	t.token, t.expires = tok.AccessToken, time.Time{}
	t.fetched++
	t.fresh = append(t.fresh, tok.AccessToken)
	if life := expiresIn(tok); life > 0 {
		margin := min(tokenMargin, life/2)
		t.expires = asked.Add(life - margin)
	}
	return t.token, nil
}

// take returns the tokens fetched since it was last called.
func (t *tokens) take() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := t.fresh
	t.fresh = nil
	return out
}

// expiresIn is a token's lifetime as the endpoint gave it (expires_in, a
// number or, as some endpoints send it, a string); 0 when it gave none.
func expiresIn(tok *oauth2.Token) time.Duration {
	var secs float64
	switch v := tok.Extra("expires_in").(type) {
	case float64:
		secs = v
	case int64: // a form-encoded answer's
		secs = float64(v)
	case json.Number:
		secs, _ = v.Float64()
	case string:
		secs, _ = strconv.ParseFloat(v, 64)
	}
	if secs <= 0 {
		return 0
	}
	return time.Duration(secs * float64(time.Second))
}

// TokenError is a token the token endpoint did not give.
type TokenError struct{ msg string }

func (e *TokenError) Error() string { return e.msg }

// explain says why no token came: the endpoint's status and the error it
// named (RFC 6749 §5.2), an answer without an access token, the timeout.
// The client's secret is never in it (the session masks what the
// endpoint may echo).
func (t *tokens) explain(ctx, tctx context.Context, err error) error {
	where := "oauth2 token from " + t.cfg.TokenURL
	var re *oauth2.RetrieveError
	switch {
	case errors.Is(context.Cause(tctx), errTokenTimeout) && ctx.Err() == nil:
		return &TokenError{fmt.Sprintf("%s: no answer within %v", where, t.timeout)}
	case errors.As(err, &re):
		msg := fmt.Sprintf("%s: the token endpoint answered", where)
		if re.Response != nil {
			msg += " HTTP " + re.Response.Status
		}
		switch {
		case re.ErrorCode != "":
			msg += ": " + re.ErrorCode
			if re.ErrorDescription != "" {
				msg += " (" + re.ErrorDescription + ")"
			}
		case len(re.Body) > 0:
			// Masked before it is cut: a cut secret is no longer found.
			msg += " " + excerpt(bytes.ReplaceAll(re.Body, []byte(t.cfg.ClientSecret), []byte("***")))
		}
		return &TokenError{msg}
	case strings.Contains(err.Error(), "missing access_token"):
		return &TokenError{where + ": the token endpoint's answer has no access_token"}
	}
	return &TokenError{fmt.Sprintf("%s: %s", where, strings.TrimPrefix(err.Error(), "oauth2: "))}
}
