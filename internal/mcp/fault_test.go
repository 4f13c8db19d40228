//go:build unix

package mcp

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

func TestDialFaults(t *testing.T) {
	tests := []struct {
		name string
		opts func(t *testing.T) Options
		want []string // substrings of the error
	}{
		{"command not found", func(*testing.T) Options {
			return Options{Transport: TransportStdio, Command: []string{"ananke-no-such-mcp-server"}}
		}, []string{"mcp: start server", "executable file not found"}},
		{"exits at once", func(*testing.T) Options {
			return Options{Transport: TransportStdio, Command: []string{"sh", "-c", "echo starting >&2; echo boom >&2; exit 3"}}
		}, []string{"exited during initialize", "exit status 3", "stderr: starting | boom"}},
		// Its stderr is read to the end a second after it exits (a child
		// holds it): a busy machine's delay between the exit and the end
		// of reading the stderr, made long.
		{"exits at once, stderr read late", func(*testing.T) Options {
			return Options{Transport: TransportStdio, Command: []string{"sh", "-c", "echo starting >&2; sleep 1 >/dev/null & echo boom >&2; exit 3"}}
		}, []string{"exited during initialize", "exit status 3", "stderr: starting | boom"}},
		{"not JSON-RPC", func(*testing.T) Options {
			return Options{Transport: TransportStdio, Command: []string{"sh", "-c", "read line; echo this is not json; exec sleep 60"}}
		}, []string{`mcp: initialize (the server sent something that is not JSON-RPC: "this is not json")`}},
		{"refused", func(t *testing.T) Options {
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			l.Close()
			return Options{Transport: TransportHTTP, Endpoint: "http://" + l.Addr().String() + "/mcp"}
		}, []string{"initialize http://127.0.0.1:", "connection refused"}},
		{"not found", func(t *testing.T) Options {
			ts := httptest.NewServer(http.NotFoundHandler())
			t.Cleanup(ts.Close)
			return Options{Transport: TransportHTTP, Endpoint: ts.URL + "/mcp"}
		}, []string{"HTTP 404 Not Found"}},
		{"not JSON over HTTP", func(t *testing.T) Options {
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.Write([]byte("this is not json"))
			}))
			t.Cleanup(ts.Close)
			return Options{Transport: TransportHTTP, Endpoint: ts.URL + "/mcp"}
		}, []string{`(the server sent something that is not JSON-RPC: "this is not json")`}},
		{"secret echoed", func(t *testing.T) Options {
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusUnauthorized)
				w.Write([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"bad credentials: ` + r.Header.Get("Authorization") + `"}}`))
			}))
			t.Cleanup(ts.Close)
			return Options{Transport: TransportHTTP, Endpoint: ts.URL + "/mcp", Headers: http.Header{"Authorization": {"Bearer " + secret}}}
		}, []string{"HTTP 401 Unauthorized", "bad credentials: ***"}},
		{"no command", func(*testing.T) Options { return Options{Transport: TransportStdio} }, []string{"needs a command"}},
		{"bad endpoint", func(*testing.T) Options { return Options{Transport: TransportHTTP, Endpoint: "localhost:3001"} }, []string{"not an http(s) URL"}},
		{"unknown transport", func(*testing.T) Options { return Options{Transport: "websocket"} }, []string{`unknown transport "websocket"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := tc.opts(t)
			o.Timeout = time.Minute // no case waits for it: only a hang would meet it
			s, err := Dial(t.Context(), o)
			if err == nil {
				s.Close()
				t.Fatal("Dial succeeded, want an error")
			}
			msg := err.Error()
			t.Log(msg)
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("Dial error %q lacks %q", msg, w)
				}
			}
			if strings.Contains(msg, secret) {
				t.Errorf("Dial error %q shows the header's secret", msg)
			}
		})
	}
}

func TestTurnFaults(t *testing.T) {
	for _, tr := range []struct {
		name string
		opts func(t *testing.T) Options
	}{{"stdio", fakeStdio}, {"http", fakeHTTP}, {"http stateless", fakeStateless}} {
		t.Run(tr.name, func(t *testing.T) {
			t.Parallel()
			o := tr.opts(t)
			// Long enough for a loaded machine (only a hang meets it); the
			// slow call alone gets a short one.
			o.Timeout = time.Minute
			s, err := Dial(t.Context(), o)
			if err != nil {
				t.Fatalf("Dial: %v", err)
			}
			defer s.Close()
			rec := trace.NewRecorder()

			// A JSON-RPC error is the call's failed result, not the turn's error.
			tt, err := turnWith(t, s, rec, call("nope", `{}`))
			if err != nil {
				t.Fatalf("unknown tool: %v", err)
			}
			c := tt.ToolCalls[0]
			if c.Result == nil || !strings.Contains(c.Result.Error, "JSON-RPC error -32602") || !strings.HasPrefix(c.Result.Content, `{"error":{"code":-32602`) {
				t.Errorf("unknown tool: result %+v, want the JSON-RPC error", c.Result)
			}
			if got := types(tt); len(got) != 1 || got[0] != EventError {
				t.Errorf("unknown tool: events %v, want one %s", got, EventError)
			}

			// No answer within the timeout: the turn errors, the call has no result.
			s.o.Timeout = 300 * time.Millisecond
			tt, err = turnWith(t, s, rec, call("slow", `{}`))
			s.o.Timeout = o.Timeout
			if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), `mcp: call "slow": no answer within 300ms`) {
				t.Errorf("slow: %v, want a timeout", err)
			}
			if len(tt.ToolCalls) != 1 || tt.ToolCalls[0].Result != nil || !strings.Contains(string(tt.Runs[0].Request), `"slow"`) {
				t.Errorf("slow: calls %+v, request %s; want one call without a result", tt.ToolCalls, tt.Runs[0].Request)
			}

			// The session goes on.
			tt, err = turnWith(t, s, rec, call("ok", ``))
			if err != nil || tt.ToolCalls[0].Result == nil || !strings.Contains(tt.ToolCalls[0].Result.Content, `"text":"ok"`) {
				t.Errorf("ok after a timeout: %v, calls %+v", err, tt.ToolCalls)
			}

			// Turns the session refuses, before sending anything.
			if _, err := turnWith(t, s, rec, call("ok", `[1, 2]`)); err == nil || !strings.Contains(err.Error(), "not a JSON object") {
				t.Errorf("array arguments: %v, want an error", err)
			}
			if _, err := turnWith(t, s, rec, target.Turn{Type: target.TurnUser, Text: "hi"}); err == nil || !strings.Contains(err.Error(), `not "user"`) {
				t.Errorf("a user turn: %v, want an error", err)
			}
		})
	}
}

func TestServerExitsMidSession(t *testing.T) {
	s, err := Dial(t.Context(), fakeStdio(t))
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	defer s.Close()
	_, err = turnWith(t, s, trace.NewRecorder(), call("crash", `{}`))
	if err == nil || !strings.Contains(err.Error(), "the server exited (exit status 7; stderr: fatal: crashed on purpose)") {
		t.Errorf("crash: %v, want the exit and its stderr", err)
	}
}

func TestCloseKillsStubbornServer(t *testing.T) {
	t.Parallel()
	o := Options{Command: []string{"sh", "-c", "trap '' TERM; sleep 30"}}
	srv, _, err := startServer(&o, newWire(time.Now))
	if err != nil {
		t.Fatal(err)
	}
	err = srv.stop()
	if err == nil || !strings.Contains(err.Error(), "was killed") { // not the sleep's own end
		t.Errorf("stop: %v, want a kill", err)
	}
}
