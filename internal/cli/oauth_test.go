package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// oauthAgent is an A2A 1.0 agent whose card declares an OAuth2 client
// credentials flow at its /token, which issues tok-leak-1, tok-leak-2, …
// to the right client secret; its JSON-RPC endpoint wants one of them,
// and its answer echoes the token and a data part and a file holding it.
func oauthAgent(t *testing.T, secret string, echoSecret bool) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var issued, rpcs atomic.Int32
	mux := http.NewServeMux()
	var srv *httptest.Server
	mux.HandleFunc("GET /.well-known/agent-card.json", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, `{"name":"oauth","version":"1","capabilities":{"streaming":false},
			"supportedInterfaces":[{"url":%q,"protocolBinding":"JSONRPC","protocolVersion":"1.0"}],
			"securitySchemes":{"corp":{"oauth2SecurityScheme":{"flows":{"clientCredentials":{"tokenUrl":%q,"scopes":{}}}}}},"skills":[]}`,
			srv.URL+"/rpc", srv.URL+"/token")
	})
	mux.HandleFunc("POST /token", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if _, got, _ := r.BasicAuth(); got != secret || echoSecret {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"error":"invalid_client","error_description":"unknown secret %s"}`, got)
			return
		}
		fmt.Fprintf(w, `{"access_token":"tok-leak-%d","token_type":"Bearer","expires_in":3600}`, issued.Add(1))
	})
	mux.HandleFunc("POST /rpc", func(w http.ResponseWriter, r *http.Request) {
		token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer tok-leak-")
		if !ok {
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		tok := "tok-leak-" + token
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"message":{"messageId":"m%d","contextId":"c","role":"ROLE_AGENT","parts":[
			{"text":"your token is %s"},{"data":{"token":%q}},
			{"raw":"dG9r","mediaType":"text/plain","filename":"%s.txt"}]}}}`, req.ID, rpcs.Add(1), tok, tok, tok)
	})
	srv = httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, &issued
}

// TestOAuth2NeverLeaks: the OAuth2 client secret and the tokens fetched
// with it appear in no byte of any report file nor on the console —
// though the agent echoes the token in its text, a data part and a
// file's name, and a token endpoint that refuses echoes the secret.
func TestOAuth2NeverLeaks(t *testing.T) {
	const secret = "cs-leak-5a4b3c2d1e"
	for _, tc := range []struct {
		name string
		// refuse: the token endpoint refuses the client, echoing its
		// secret in its error.
		refuse   bool
		wantCode int
	}{
		{"token used", false, ExitFail},
		{"token refused", true, ExitError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			agent, issued := oauthAgent(t, secret, tc.refuse)
			dir := t.TempDir()
			cfg := "version: \"1.1\"\ntarget:\n  type: a2a\n  agentCardUrl: \"" + agent.URL + "\"\n" +
				"  auth: {scheme: oauth2, clientId: ananke, clientSecret: \"${ENV.A2A_CLIENT_SECRET}\"}\n"
			test := "version: \"1.1\"\nname: leak\nturns:\n  - user: one\n  - user: two\n    assert:\n      text: {must_match: \"nope\", json_path: [{path: $.token, equals: nope}]}\n"
			os.WriteFile(filepath.Join(dir, "ananke.config.yaml"), []byte(cfg), 0o644)
			os.WriteFile(filepath.Join(dir, "t.ananke.yaml"), []byte(test), 0o644)
			out := filepath.Join(dir, "out")
			r := run(t, dir, map[string]string{"A2A_CLIENT_SECRET": secret}, "run", "-v", "--report-dir", out)
			if r.code != tc.wantCode {
				t.Fatalf("exit %d, want %d\n%s%s", r.code, tc.wantCode, r.out, r.errOut)
			}
			leaks := []string{secret}
			if !tc.refuse {
				if issued.Load() != 1 {
					t.Fatalf("%d tokens issued; want one, reused by both turns", issued.Load())
				}
				leaks = append(leaks, "tok-leak-1")
				if !strings.Contains(r.out, `$.token is "***", expected "nope"`) {
					t.Errorf("the console does not show the data part's token, masked:\n%s", r.out)
				}
			} else if !strings.Contains(r.out+r.errOut, "the token endpoint answered HTTP 401 Unauthorized: invalid_client (unknown secret ***)") {
				t.Errorf("the console does not say why no token came:\n%s%s", r.out, r.errOut)
			}
			for _, leak := range leaks {
				if strings.Contains(r.out+r.errOut, leak) {
					t.Errorf("the console shows %q:\n%s%s", leak, r.out, r.errOut)
				}
			}
			masks := 0
			filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				b, _ := os.ReadFile(p)
				for _, leak := range leaks {
					if bytes.Contains(b, []byte(leak)) {
						t.Errorf("%s contains %q", p, leak)
					}
				}
				masks += bytes.Count(b, []byte("***"))
				return nil
			})
			if masks == 0 {
				t.Error("no file shows a mask; the secret never reached the report")
			}
		})
	}
}
