package a2a

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

func TestDialErrors(t *testing.T) {
	notJSON := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "<html>hello</html>")
	}))
	defer notJSON.Close()
	missing := httptest.NewServer(http.NotFoundHandler())
	defer missing.Close()
	grpcOnly := `{"name":"g","supportedInterfaces":[{"url":"http://x","protocolBinding":"GRPC","protocolVersion":"1.0"},
		{"url":"http://x/rest","protocolBinding":"HTTP+JSON","protocolVersion":"1.0"}]}`
	tests := []struct {
		name string
		o    Options
		want string
	}{
		{"nothing", Options{}, "no agent card URL, agent card or endpoint"},
		{"both cards", Options{CardURL: "http://x", Card: json.RawMessage(`{}`)}, "both an agent card URL and an inline agent card"},
		{"bad auth", Options{Endpoint: "http://x", Auth: &Auth{Scheme: "basic"}}, `unknown auth scheme "basic"`},
		{"apiKey where", Options{Endpoint: "http://x", Auth: &Auth{Scheme: SchemeAPIKey, Name: "k", Value: "v", In: "cookie"}}, `apiKey auth in "cookie"`},
		{"apiKey value", Options{Endpoint: "http://x", Auth: &Auth{Scheme: SchemeAPIKey}}, "apiKey auth without a value"},
		{"bearer token", Options{Endpoint: "http://x", Auth: &Auth{Scheme: SchemeBearer}}, "bearer auth without a token"},
		{"not found", Options{CardURL: missing.URL}, "agent card not found at " + missing.URL + "/.well-known/agent-card.json (HTTP 404 Not Found)"},
		{"not JSON", Options{CardURL: notJSON.URL + "/card.json"}, `agent card ` + notJSON.URL + `/card.json is not JSON ("<html>hello</html>")`},
		{"not a URL", Options{CardURL: "localhost:1234"}, `agent card URL "localhost:1234" is not an http(s) URL`},
		{"no usable interface", Options{Card: json.RawMessage(grpcOnly)}, "no usable interface: the agent card offers GRPC 1.0, HTTP+JSON 1.0; Ananke speaks JSONRPC 1.0 and 0.3"},
		{"no interface", Options{Card: json.RawMessage(`{"name":"n"}`)}, "no usable interface: the agent card lists no interface"},
		{"inline not JSON", Options{Card: json.RawMessage(`[1]`)}, "agent card is not a JSON object"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Dial(t.Context(), tc.o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Dial error %v; want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestDialCards(t *testing.T) {
	const legacy = `{"name":"old","url":"http://agent/rpc","protocolVersion":"0.3.0","capabilities":{"streaming":true}}`
	const both = `{"name":"both","capabilities":{},"supportedInterfaces":[
		{"url":"http://agent/v03","protocolBinding":"JSONRPC","protocolVersion":"0.3"},
		{"url":"http://agent/v1","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]}`
	tests := []struct {
		name      string
		o         Options
		version   string
		streaming bool
	}{
		{"0.3 card, transport by default", Options{Card: json.RawMessage(legacy)}, "0.3", true},
		{"newest version first", Options{Card: json.RawMessage(both)}, "1.0", false},
		{"endpoint alone", Options{Endpoint: "http://agent/rpc"}, "1.0", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Dial(t.Context(), tc.o)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			src := s.Source()
			if src.Version != tc.version || s.streaming != tc.streaming {
				t.Errorf("version %q, streaming %t; want %q, %t", src.Version, s.streaming, tc.version, tc.streaming)
			}
		})
	}
}

func TestLegacyCardPath(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/.well-known/agent.json" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, `{"name":"old","url":"http://agent/rpc","protocolVersion":"0.2.5"}`)
	}))
	defer srv.Close()
	s, err := Dial(t.Context(), Options{CardURL: srv.URL + "/"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v := s.Source().Version; v != "0.2" {
		t.Errorf("version %q; want 0.2", v)
	}
}

func TestTurnFaults(t *testing.T) {
	tests := []struct {
		name      string
		streaming bool
		timeout   time.Duration
		rpc       func(w http.ResponseWriter, r *http.Request, method string, params, id json.RawMessage)
		want      string
		events    int
	}{
		{
			name: "JSON-RPC error", streaming: false,
			rpc: func(w http.ResponseWriter, _ *http.Request, _ string, _, id json.RawMessage) {
				rpcErr(w, id, -32001, "Task not found")
			},
			want: "the agent answered JSON-RPC error -32001: Task not found", events: 1,
		},
		{
			name: "plain JSON-RPC error to a stream", streaming: true,
			rpc: func(w http.ResponseWriter, _ *http.Request, _ string, _, id json.RawMessage) {
				rpcErr(w, id, -32603, "scripted failure")
			},
			want:   "the stream ended without a final task state (no events): the agent answered the streaming request with JSON-RPC error -32603: scripted failure",
			events: 1,
		},
		{
			name: "empty stream", streaming: true,
			rpc:  func(w http.ResponseWriter, _ *http.Request, _ string, _, id json.RawMessage) { sse(w, id) },
			want: "the stream ended without a final task state (no events)",
		},
		{
			name: "plain result to a stream", streaming: true,
			rpc:  func(w http.ResponseWriter, _ *http.Request, _ string, _, id json.RawMessage) { result(w, id, answer) },
			want: "the stream ended without a final task state (no events): the agent answered with a plain response, not an event stream",
		},
		{
			name: "stream cut short", streaming: true,
			rpc:  func(w http.ResponseWriter, _ *http.Request, _ string, _, id json.RawMessage) { sse(w, id, working) },
			want: "the stream ended without a final task state (last state: working)", events: 1,
		},
		{
			name: "HTTP error", streaming: true,
			rpc: func(w http.ResponseWriter, _ *http.Request, _ string, _, _ json.RawMessage) {
				http.Error(w, "down", http.StatusBadGateway)
			},
			want: "the agent answered HTTP 502 Bad Gateway",
		},
		{
			name: "timeout", streaming: true, timeout: 200 * time.Millisecond,
			rpc: func(w http.ResponseWriter, r *http.Request, _ string, _, id json.RawMessage) {
				sse(w, id, working)
				<-r.Context().Done()
			},
			want: "no final state after 200ms (last state: working)", events: 1,
		},
		{
			name: "timeout polling", streaming: false, timeout: 300 * time.Millisecond,
			rpc: func(w http.ResponseWriter, _ *http.Request, method string, _, id json.RawMessage) {
				const task = `{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"}}`
				if method == "GetTask" {
					result(w, id, task) // unchanged: not recorded again
					return
				}
				result(w, id, `{"task":`+task+`}`)
			},
			want: "no final state after 300ms (last state: working)", events: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, tc.streaming, tc.rpc)
			// In a bubble, with the agent in process: the timeout fires
			// once the agent has sent all it will, however busy the
			// machine, and the turn takes the timeout exactly.
			synctest.Test(t, func(t *testing.T) {
				start := time.Now()
				turn, err := play(t, Options{CardURL: f.srv.URL, Timeout: tc.timeout, HTTP: f.inProcess()}, "hello")
				if err == nil || err.Error() != tc.want {
					t.Fatalf("Turn error %v; want %q", err, tc.want)
				}
				if took := time.Since(start); tc.timeout > 0 && took != tc.timeout {
					t.Errorf("the turn took %v; want its timeout, %v", took, tc.timeout)
				}
				if len(turn.Events) != tc.events {
					t.Errorf("%d events recorded; want %d", len(turn.Events), tc.events)
				}
				if len(turn.Runs) != 1 || turn.Runs[0].EndMs == 0 {
					t.Errorf("runs %+v; want one ended run", turn.Runs)
				}
			})
		})
	}
}

func TestHeadersAndAuth(t *testing.T) {
	const secret = "s3cr3t-value"
	tests := []struct {
		name  string
		auth  *Auth
		check func(r *http.Request) string
	}{
		{"bearer", &Auth{Scheme: SchemeBearer, Token: secret}, func(r *http.Request) string { return r.Header.Get("Authorization") }},
		{"apiKey header", &Auth{Scheme: SchemeAPIKey, Name: "X-Key", In: "header", Value: secret}, func(r *http.Request) string { return r.Header.Get("X-Key") }},
		{"apiKey defaults", &Auth{Scheme: SchemeAPIKey, Value: secret}, func(r *http.Request) string { return r.Header.Get("X-API-Key") }},
		{"apiKey query", &Auth{Scheme: SchemeAPIKey, Name: "key", In: "query", Value: secret}, func(r *http.Request) string { return r.URL.Query().Get("key") }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, false, func(w http.ResponseWriter, _ *http.Request, _ string, _, id json.RawMessage) {
				rpcErr(w, id, -32000, "rejected "+secret) // an agent echoing the credential
			})
			o := Options{CardURL: f.srv.URL, Auth: tc.auth, Headers: http.Header{"X-Team": {"team-" + secret}}}
			_, err := play(t, o, "hello")
			if err == nil {
				t.Fatal("no error")
			}
			if strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "rejected ***") {
				t.Errorf("error %q shows the secret", err)
			}
			for i, r := range f.requests {
				if got := tc.check(r); !strings.Contains(got, secret) {
					t.Errorf("request %d (%s) carried %q; want the credential", i, r.URL.Path, got)
				}
				if got := r.Header.Get("X-Team"); got != "team-"+secret {
					t.Errorf("request %d X-Team %q", i, got)
				}
			}
			if len(f.requests) != 2 {
				t.Errorf("%d requests; want the card's and the message's", len(f.requests))
			}
		})
	}
}

func TestUnreachableRedacted(t *testing.T) {
	const secret = "tok-123456"
	f := newFake(t, true, nil)
	url := f.srv.URL
	card := f.card()
	f.srv.Close()
	s, err := Dial(t.Context(), Options{Card: json.RawMessage(card), Endpoint: url + "/rpc?token=" + secret})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = play(t, Options{Card: json.RawMessage(card), Endpoint: url + "/rpc?token=" + secret, Headers: http.Header{"X": {secret}}}, "hi")
	if err == nil || strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("error %v; want connection refused without the secret", err)
	}
}

func TestTurnType(t *testing.T) {
	s, err := Dial(t.Context(), Options{Endpoint: "http://127.0.0.1:9/rpc"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rec := trace.NewRecorder()
	rec.StartTurn(0, target.TurnMCPCall, "", time.Now())
	err = s.Turn(t.Context(), target.Turn{Type: target.TurnMCPCall, Tool: "x"}, rec)
	if want := `turn type "mcp:call" is not an A2A turn`; err == nil || err.Error() != want {
		t.Errorf("error %v; want %q", err, want)
	}
}
