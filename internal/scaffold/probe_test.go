package scaffold

import (
	"context"
	"errors"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/agui"
	"github.com/ananke/action/internal/agui/aguitest"
)

func TestProbe(t *testing.T) {
	a := aguitest.Seq
	tests := []struct {
		name      string
		events    func(in agui.RunAgentInput) aguitest.Response
		wantReply string
		wantTools []string
		wantErr   string
	}{
		{"text", func(in agui.RunAgentInput) aguitest.Response {
			return aguitest.Response{Events: aguitest.Run(in, aguitest.Text("m1", "Hi, ", "I am the shop.")...)}
		}, "Hi, I am the shop.", nil, ""},
		{"backend tools and text", func(in agui.RunAgentInput) aguitest.Response {
			return aguitest.Response{Events: aguitest.Run(in, a(aguitest.Call("c1", "search", `{}`, `[]`), aguitest.Call("c2", "search", `{}`, `[]`),
				aguitest.Call("c3", "get_price", `{}`, `1`), aguitest.Text("m1", "Found nothing."))...)}
		}, "Found nothing.", []string{"search", "get_price"}, ""},
		{"run error", func(in agui.RunAgentInput) aguitest.Response {
			return aguitest.Response{Events: []any{aguitest.E{"type": agui.RunStarted, "threadId": in.ThreadID, "runId": in.RunID},
				aguitest.E{"type": agui.RunError, "message": "no model key", "code": "config"}}}
		}, "", nil, `the agent sent RUN_ERROR "config": no model key`},
		{"client tool", func(in agui.RunAgentInput) aguitest.Response {
			return aguitest.Response{Events: aguitest.Run(in, aguitest.Call("c1", "confirm", `{}`, "")...)}
		}, "", []string{"confirm"}, `the agent called "confirm" and no result came back`},
		{"silence", func(in agui.RunAgentInput) aguitest.Response {
			return aguitest.Response{Events: aguitest.Run(in)}
		}, "", nil, "the agent sent no text and called no tool"},
		{"http error", func(agui.RunAgentInput) aguitest.Response {
			return aguitest.Response{Status: http.StatusInternalServerError, ContentType: "text/plain", Raw: "boom"}
		}, "", nil, "the agent answered HTTP 500: boom"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := aguitest.New(t, func(r *aguitest.Request) aguitest.Response { return tc.events(r.Input) })
			hc := &http.Client{Transport: &http.Transport{}}
			defer hc.CloseIdleConnections()
			o := Probe(context.Background(), &agui.Client{Endpoint: srv.Endpoint(), HTTP: hc}, "Hello")
			if o.Reply != tc.wantReply || !slices.Equal(o.Tools, tc.wantTools) {
				t.Errorf("Probe = reply %q, tools %q; want %q, %q", o.Reply, o.Tools, tc.wantReply, tc.wantTools)
			}
			if got := errString(o.Err); tc.wantErr == "" && got != "" || !strings.Contains(got, tc.wantErr) {
				t.Errorf("Probe error = %q; want %q", got, tc.wantErr)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 || len(reqs[0].Input.Messages) != 1 || reqs[0].Input.ProtocolVersion != "1.0" {
				t.Fatalf("requests: %+v; want one with one message", reqs)
			}
			if s, _ := reqs[0].Input.Messages[0].TextContent(); s != "Hello" || reqs[0].Input.Messages[0].Role != agui.RoleUser {
				t.Errorf("sent %q; want the user message Hello", s)
			}
		})
	}
}

func TestProbeRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	o := Probe(context.Background(), &agui.Client{Endpoint: "http://" + addr + "/agent"}, "Hello")
	if o.Err == nil || !strings.Contains(o.Err.Error(), "refused") {
		t.Errorf("Probe of a closed port: error %v; want connection refused", o.Err)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestWrongPath: a server that answers 404 or 405 serves no agent at the
// path; other failures say nothing about the path.
func TestWrongPath(t *testing.T) {
	for _, tc := range []struct {
		status int
		want   bool
	}{{http.StatusNotFound, true}, {http.StatusMethodNotAllowed, true}, {http.StatusInternalServerError, false}, {http.StatusUnauthorized, false}} {
		srv := aguitest.New(t, func(*aguitest.Request) aguitest.Response {
			return aguitest.Response{Status: tc.status, ContentType: "text/plain", Raw: "no"}
		})
		hc := &http.Client{Transport: &http.Transport{}}
		o := Probe(context.Background(), &agui.Client{Endpoint: srv.Endpoint(), HTTP: hc}, "Hello")
		hc.CloseIdleConnections()
		if got := WrongPath(o.Err); got != tc.want {
			t.Errorf("HTTP %d: WrongPath(%v) = %v; want %v", tc.status, o.Err, got, tc.want)
		}
	}
	if WrongPath(nil) || WrongPath(errors.New("connection refused")) {
		t.Error("WrongPath of no error, or of another error, is true")
	}
}

func TestUsualEndpoints(t *testing.T) {
	for endpoint, want := range map[string][]string{
		"http://localhost:8000/api/agent": {"http://localhost:8000/agent", "http://localhost:8000/agui", "http://localhost:8000/"},
		"https://shop.example.com/agent":  {"https://shop.example.com/agui", "https://shop.example.com/"},
		"http://127.0.0.1:8000":           {"http://127.0.0.1:8000/agent", "http://127.0.0.1:8000/agui"},
		"not a url":                       nil,
	} {
		if got := UsualEndpoints(endpoint); !slices.Equal(got, want) {
			t.Errorf("UsualEndpoints(%q) = %q; want %q", endpoint, got, want)
		}
	}
}
