package a2a

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

const (
	clientID     = "ananke-client"
	clientSecret = "cs-0123456789-secret"
)

// idp is a token endpoint: answer writes the n-th answer (from 0); it
// keeps each request's form and Authorization header.
type idp struct {
	srv    *httptest.Server
	answer func(w http.ResponseWriter, n int)

	mu    sync.Mutex
	forms []url.Values
	auths []string
}

func newIDP(t *testing.T, answer func(w http.ResponseWriter, n int)) *idp {
	t.Helper()
	p := &idp{answer: answer}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.ParseForm() != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		p.mu.Lock()
		n := len(p.forms)
		p.forms, p.auths = append(p.forms, r.PostForm), append(p.auths, r.Header.Get("Authorization"))
		p.mu.Unlock()
		p.answer(w, n)
	}))
	t.Cleanup(p.srv.Close)
	return p
}

func (p *idp) url() string { return p.srv.URL + "/token" }

func (p *idp) requests() ([]url.Values, []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.forms), slices.Clone(p.auths)
}

// issue answers each request with a new token, tok-1, tok-2, …, that
// lives expires seconds.
func issue(expires int) func(w http.ResponseWriter, n int) {
	return func(w http.ResponseWriter, n int) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"access_token":"tok-%d","token_type":"Bearer","expires_in":%d}`, n+1, expires)
	}
}

// guarded is an A2A 1.0 agent whose card declares schemes (JSON) and
// requirements, and whose JSON-RPC endpoint wants a bearer token it
// issued; it keeps the Authorization header of each request.
type guarded struct {
	srv   *httptest.Server
	valid func(token string) bool

	mu    sync.Mutex
	auths []string // "card: …" or "rpc: …"
}

func newGuarded(t *testing.T, schemes, requirements string, valid func(string) bool) *guarded {
	t.Helper()
	g := &guarded{valid: valid}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/agent-card.json", func(w http.ResponseWriter, r *http.Request) {
		g.keep("card: " + r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"name":"guarded","version":"1","capabilities":{"streaming":false},
			"supportedInterfaces":[{"url":%q,"protocolBinding":"JSONRPC","protocolVersion":"1.0"}],
			"securitySchemes":%s,"securityRequirements":%s,"skills":[]}`, g.srv.URL+"/rpc", schemes, requirements)
	})
	mux.HandleFunc("POST /rpc", func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		g.keep("rpc: " + auth)
		token, ok := strings.CutPrefix(auth, "Bearer ")
		if !ok || !g.valid(token) {
			http.Error(w, "no valid token", http.StatusUnauthorized)
			return
		}
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		// The agent echoes the token: no error or report may show it.
		result(w, req.ID, `{"message":{"messageId":"m-`+fmt.Sprint(len(g.seen()))+`","contextId":"c1","role":"ROLE_AGENT","parts":[{"text":"hi, `+token+`"}]}}`)
	})
	g.srv = httptest.NewServer(mux)
	t.Cleanup(g.srv.Close)
	return g
}

func (g *guarded) keep(s string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.auths = append(g.auths, s)
}

func (g *guarded) seen() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.auths)
}

// ccScheme is a 1.0 card's OAuth2 scheme with a client credentials flow.
func ccScheme(tokenURL string) string {
	return fmt.Sprintf(`{"oauth2SecurityScheme":{"flows":{"clientCredentials":{"tokenUrl":%q,"scopes":{"a2a.read":"read","a2a.admin":"all"}}}}}`, tokenURL)
}

func anyToken(tok string) bool { return strings.HasPrefix(tok, "tok-") }

// manualClock is a clock a test moves.
type manualClock struct {
	mu sync.Mutex
	at time.Time
}

func (c *manualClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.at
}

func (c *manualClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at = c.at.Add(d)
}

// turns plays texts in one session, moving clock by gap between turns,
// and returns the trace, each turn's error, and what the session told
// Options.Secret.
func turns(t *testing.T, o Options, clock *manualClock, gap time.Duration, texts ...string) (*trace.Trace, []error, []string) {
	t.Helper()
	var learned []string
	o.Now = clock.now
	o.Secret = func(v string) { learned = append(learned, v) }
	s, err := Dial(t.Context(), o)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	defer s.Close()
	rec := trace.NewRecorder()
	var errs []error
	for i, text := range texts {
		if i > 0 {
			clock.advance(gap)
		}
		rec.StartTurn(i, target.TurnUser, text, clock.now())
		errs = append(errs, s.Turn(t.Context(), target.Turn{Index: i, Type: target.TurnUser, Text: text}, rec))
		rec.EndTurn(clock.now(), nil)
	}
	return rec.Trace(), errs, learned
}

func oauth(extra ...func(*Auth)) *Auth {
	a := &Auth{Scheme: SchemeOAuth2, ClientID: clientID, ClientSecret: clientSecret}
	for _, f := range extra {
		f(a)
	}
	return a
}

// TestOAuth2Token: the token comes from the card's client credentials
// flow, asked for with the scopes the card requires and the client's
// credentials in HTTP Basic authentication; it is fetched once and
// reused while it is valid, replaced once it is about to expire, never
// sent with the card's request, and told to Options.Secret.
func TestOAuth2Token(t *testing.T) {
	for _, tc := range []struct {
		name string
		gap  time.Duration // between turns
		// the token endpoint's lifetime, in seconds
		expires int
		want    []string // the tokens the turns sent
	}{
		{"reused", 10 * time.Minute, 3600, []string{"tok-1", "tok-1", "tok-1"}},
		// 60 s, replaced 30 s before: valid for the first 30 s.
		{"replaced before it expires", 29 * time.Second, 60, []string{"tok-1", "tok-1", "tok-2"}},
		// 20 s: replaced halfway, after 10 s.
		{"short-lived", 11 * time.Second, 20, []string{"tok-1", "tok-2", "tok-3"}},
		// No expires_in: kept for the session.
		{"no lifetime", 24 * time.Hour, 0, []string{"tok-1", "tok-1", "tok-1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newIDP(t, func(w http.ResponseWriter, n int) {
				if tc.expires == 0 {
					w.Header().Set("Content-Type", "application/json")
					fmt.Fprintf(w, `{"access_token":"tok-%d","token_type":"bearer"}`, n+1)
					return
				}
				issue(tc.expires)(w, n)
			})
			g := newGuarded(t, `{"corp":`+ccScheme(p.url())+`}`, `[{"schemes":{"corp":{"list":["a2a.read"]}}}]`, anyToken)
			clock := &manualClock{at: time.UnixMilli(1_700_000_000_000)}
			tr, errs, learned := turns(t, Options{CardURL: g.srv.URL, Auth: oauth()}, clock, tc.gap, "a", "b", "c")
			for i, err := range errs {
				if err != nil {
					t.Fatalf("turn %d: %v", i, err)
				}
			}
			var sent []string
			for _, turn := range tr.Turns {
				sent = append(sent, strings.TrimPrefix(turn.Text(), "hi, "))
			}
			if !slices.Equal(sent, tc.want) {
				t.Errorf("the turns sent %v; want %v", sent, tc.want)
			}
			if got := g.seen(); got[0] != "card: " {
				t.Errorf("the card's request carried %q; want no credential", got[0])
			}
			forms, auths := p.requests()
			fetched := slices.Compact(slices.Clone(tc.want))
			if len(forms) != len(fetched) || !slices.Equal(learned, fetched) {
				t.Fatalf("%d token requests, secrets learned %v; want %v", len(forms), learned, fetched)
			}
			basic := "Basic " + basicAuth(clientID, clientSecret)
			for i, f := range forms {
				if f.Get("grant_type") != "client_credentials" || f.Get("scope") != "a2a.read" || f.Has("client_secret") || auths[i] != basic {
					t.Errorf("token request %d: form %v, Authorization %q; want the grant, the card's scope, HTTP Basic", i, f, auths[i])
				}
			}
		})
	}
}

func basicAuth(id, secret string) string {
	r, _ := http.NewRequest(http.MethodGet, "http://x", nil)
	r.SetBasicAuth(url.QueryEscape(id), url.QueryEscape(secret))
	return strings.TrimPrefix(r.Header.Get("Authorization"), "Basic ")
}

// TestOAuth2Config: what the config says wins over the card: its token
// URL (the only one an endpoint alone has), its scopes, client
// authentication in the body; a 0.3 card's scheme and requirement are
// read too.
func TestOAuth2Config(t *testing.T) {
	p := newIDP(t, issue(3600))
	other := newIDP(t, issue(3600))
	g := newGuarded(t, `{"corp":`+ccScheme(other.url())+`}`, `[{"schemes":{"corp":["a2a.admin"]}}]`, anyToken)
	clock := &manualClock{at: time.UnixMilli(0)}
	a := oauth(func(a *Auth) {
		a.TokenURL, a.Scopes, a.ClientAuth = p.url(), []string{"x.read", "x.write"}, ClientAuthBody
	})
	_, errs, _ := turns(t, Options{CardURL: g.srv.URL, Auth: a}, clock, 0, "a")
	if errs[0] != nil {
		t.Fatal(errs[0])
	}
	forms, auths := p.requests()
	if len(forms) != 1 || forms[0].Get("scope") != "x.read x.write" || forms[0].Get("client_id") != clientID ||
		forms[0].Get("client_secret") != clientSecret || auths[0] != "" {
		t.Errorf("token requests %v, Authorization %q; want one, with the config's scopes and the credentials in the body", forms, auths)
	}
	if f, _ := other.requests(); len(f) != 0 {
		t.Errorf("the card's token endpoint was asked %d times; the config names another", len(f))
	}

	// An endpoint alone: the config's token URL and no scopes.
	_, errs, _ = turns(t, Options{Endpoint: g.srv.URL + "/rpc", Auth: oauth(func(a *Auth) { a.TokenURL = p.url() })}, clock, 0, "a")
	if forms, _ = p.requests(); errs[0] != nil || len(forms) != 2 || forms[1].Has("scope") {
		t.Errorf("endpoint alone: %v, token requests %v", errs[0], forms)
	}

	// A 0.3 card: {"type": "oauth2", "flows": …}, requirements in
	// "security". The scheme the requirement names is taken, not the
	// first by name.
	flow, err := clientCredentialsFlow([]byte(`{"securitySchemes":{"a":{"type":"oauth2","flows":{"clientCredentials":{"tokenUrl":"https://a/token"}}},
		"b":{"type":"oauth2","flows":{"clientCredentials":{"tokenUrl":"https://b/token","scopes":{"s":""}}}},
		"key":{"type":"apiKey","in":"header","name":"k"}},"security":[{"key":[]},{"b":["s"]}]}`))
	if err != nil || flow == nil || flow.scheme != "b" || flow.tokenURL != "https://b/token" || !slices.Equal(flow.scopes, []string{"s"}) {
		t.Errorf("0.3 card: %+v, %v", flow, err)
	}
}

// TestOAuth2Errors: a token the endpoint does not give is a clear error
// naming what happened, which never shows the client's secret; a card
// without a client credentials flow is one at Dial.
func TestOAuth2Errors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer func(w http.ResponseWriter, n int)
		want   string // TOKEN stands for the token URL
	}{
		{"bad credentials", func(w http.ResponseWriter, _ int) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"error":"invalid_client","error_description":"Client authentication failed"}`)
		}, "oauth2 token from TOKEN: the token endpoint answered HTTP 401 Unauthorized: invalid_client (Client authentication failed)"},
		{"no access token", func(w http.ResponseWriter, _ int) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"token_type":"bearer","expires_in":3600}`)
		}, "oauth2 token from TOKEN: the token endpoint's answer has no access_token"},
		{"an error echoing the secret", func(w http.ResponseWriter, _ int) {
			http.Error(w, "unknown client secret "+clientSecret, http.StatusBadGateway)
		}, `oauth2 token from TOKEN: the token endpoint answered HTTP 502 Bad Gateway "unknown client secret ***"`},
		{"an error echoing the secret where the excerpt ends", func(w http.ResponseWriter, _ int) {
			http.Error(w, strings.Repeat("x", 50)+clientSecret, http.StatusBadGateway)
		}, `oauth2 token from TOKEN: the token endpoint answered HTTP 502 Bad Gateway "` + strings.Repeat("x", 50) + `***"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newIDP(t, tc.answer)
			g := newGuarded(t, `{"corp":`+ccScheme(p.url())+`}`, `[]`, anyToken)
			_, errs, learned := turns(t, Options{CardURL: g.srv.URL, Auth: oauth()}, &manualClock{}, 0, "a")
			want := strings.ReplaceAll(tc.want, "TOKEN", p.url())
			if errs[0] == nil || errs[0].Error() != want {
				t.Errorf("error %v; want %q", errs[0], want)
			}
			if errs[0] != nil && strings.Contains(errs[0].Error(), clientSecret) || len(learned) != 0 {
				t.Errorf("error %q, secrets learned %v", errs[0], learned)
			}
			if seen := g.seen(); len(seen) != 1 {
				t.Errorf("the agent got %q; want the card's request alone", seen)
			}
		})
	}
	t.Run("no client credentials flow", func(t *testing.T) {
		g := newGuarded(t, `{"corp":{"oauth2SecurityScheme":{"flows":{"authorizationCode":{"authorizationUrl":"https://a","tokenUrl":"https://t"}}}}}`, `[]`, anyToken)
		_, err := Dial(t.Context(), Options{CardURL: g.srv.URL, Auth: oauth()})
		const want = "oauth2 auth: the agent card declares no OAuth2 client credentials flow (securitySchemes); set auth.tokenUrl"
		if err == nil || err.Error() != want {
			t.Errorf("error %v; want %q", err, want)
		}
	})
	t.Run("a token URL that is not http", func(t *testing.T) {
		g := newGuarded(t, `{"corp":`+ccScheme("/token")+`}`, `[]`, anyToken)
		_, err := Dial(t.Context(), Options{CardURL: g.srv.URL, Auth: oauth()})
		const want = `oauth2 auth: the agent card's client credentials tokenUrl "/token" is not an http(s) URL`
		if err == nil || err.Error() != want {
			t.Errorf("error %v; want %q", err, want)
		}
	})
	t.Run("an endpoint alone without a token URL", func(t *testing.T) {
		_, err := Dial(t.Context(), Options{Endpoint: "http://127.0.0.1:9/rpc", Auth: oauth()})
		if err == nil || !strings.Contains(err.Error(), "set auth.tokenUrl") {
			t.Errorf("error %v", err)
		}
	})
	t.Run("the agent refuses the token", func(t *testing.T) {
		p := newIDP(t, issue(3600))
		g := newGuarded(t, `{"corp":`+ccScheme(p.url())+`}`, `[]`, func(string) bool { return false })
		_, errs, learned := turns(t, Options{CardURL: g.srv.URL, Auth: oauth()}, &manualClock{}, 0, "a")
		if errs[0] == nil || errs[0].Error() != "the agent answered HTTP 401 Unauthorized" || !slices.Equal(learned, []string{"tok-1"}) {
			t.Errorf("error %v, learned %v", errs[0], learned)
		}
	})
}

// TestOAuth2Timeout: a token endpoint that never answers ends the turn
// once the token's timeout has passed (its wait ends when the endpoint
// has the request), with an error that says so.
func TestOAuth2Timeout(t *testing.T) {
	asked := make(chan struct{})
	release := make(chan struct{})
	p := newIDP(t, func(w http.ResponseWriter, _ int) {
		close(asked)
		<-release
	})
	t.Cleanup(func() { close(release) })
	g := newGuarded(t, `{"corp":`+ccScheme(p.url())+`}`, `[]`, anyToken)
	never := make(chan time.Time)
	var mu sync.Mutex
	waits := 0
	o := Options{CardURL: g.srv.URL, Auth: oauth(), Timeout: 500 * time.Millisecond}
	// The third wait is the token's (discovery's, the turn's, then the
	// token's): it ends once the endpoint has the request.
	o.after = func(time.Duration) <-chan time.Time {
		mu.Lock()
		defer mu.Unlock()
		if waits++; waits != 3 {
			return never
		}
		ch := make(chan time.Time)
		go func() {
			<-asked
			close(ch)
		}()
		return ch
	}
	_, errs, _ := turns(t, o, &manualClock{}, 0, "a")
	want := "oauth2 token from " + p.url() + ": no answer within 500ms"
	if errs[0] == nil || errs[0].Error() != want {
		t.Errorf("error %v; want %q", errs[0], want)
	}
}
