package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// wireJSONChat is an /api/chat answer as its client reads it.
type wireJSONChat struct {
	SessionID string `json:"session_id"`
	Reply     string `json:"reply"`
	ToolCalls []struct {
		ID     string          `json:"id"`
		Name   string          `json:"name"`
		Args   json.RawMessage `json:"args"`
		Output json.RawMessage `json:"output"`
	} `json:"tool_calls"`
	Usage struct {
		In  int `json:"in"`
		Out int `json:"out"`
	} `json:"usage"`
	Error string `json:"error"`
}

func jsonChat(t *testing.T, srv *httptest.Server, session, message string) wireJSONChat {
	t.Helper()
	resp, raw := post(t, srv, "/api/chat", map[string]string{"session": session, "message": message})
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("status %d, %s: %s", resp.StatusCode, resp.Header.Get("Content-Type"), raw)
	}
	var out wireJSONChat
	if err := decodeStrict(raw, &out); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	if out.SessionID == "" || out.ToolCalls == nil || out.Usage.In <= 120 {
		t.Fatalf("answer %s: want a session id, tool_calls (an array) and usage", raw)
	}
	return out
}

// TestJSONChat plays three turns of one session: the agent keeps the
// conversation, runs get_weather itself and lists the call with its
// output. Another session knows nothing of it.
func TestJSONChat(t *testing.T) {
	srv := newTestServer(t)
	first := jsonChat(t, srv, "", "Hello, my name is Ada.")
	if first.Reply != "Nice to meet you, Ada." || len(first.ToolCalls) != 0 || first.Usage.In != 126 || first.Usage.Out != 6 {
		t.Errorf("turn 1: %+v", first)
	}
	session := first.SessionID
	second := jsonChat(t, srv, session, "What's the weather in Paris and Tokyo?")
	if second.SessionID != session || second.Reply != "It is sunny and 21°C in Paris. It is cloudy and 26°C in Tokyo." {
		t.Errorf("turn 2: %+v", second)
	}
	var calls []string
	for _, c := range second.ToolCalls {
		if !strings.HasPrefix(c.ID, "call_") {
			t.Errorf("call id %q", c.ID)
		}
		calls = append(calls, c.Name+" "+string(c.Args)+" → "+string(c.Output))
	}
	want := []string{`get_weather {"city":"Paris"} → {"city":"Paris","temp_c":21,"conditions":"sunny"}`,
		`get_weather {"city":"Tokyo"} → {"city":"Tokyo","temp_c":26,"conditions":"cloudy"}`}
	if strings.Join(calls, "\n") != strings.Join(want, "\n") {
		t.Errorf("turn 2 calls:\n%s\nwant\n%s", strings.Join(calls, "\n"), strings.Join(want, "\n"))
	}
	if third := jsonChat(t, srv, session, "What is my name?"); third.SessionID != session || third.Reply != "Your name is Ada." {
		t.Errorf("turn 3: %+v", third)
	}
	if other := jsonChat(t, srv, "", "What is my name?"); other.SessionID == session || other.Reply != "You have not told me your name." {
		t.Errorf("a new session: %+v", other)
	}
	// A session id the client chose is kept as given.
	jsonChat(t, srv, "mine-1", "My name is Grace.")
	if got := jsonChat(t, srv, "mine-1", "what is my name"); got.SessionID != "mine-1" || got.Reply != "Your name is Grace." {
		t.Errorf("a session of the client's: %+v", got)
	}
}

// TestJSONChatErrors: a request it cannot read is a 400 with
// {"error": ...}; a crash is the error field of an answer, and the
// session does not keep the message.
func TestJSONChatErrors(t *testing.T) {
	srv := newTestServer(t)
	for body, want := range map[string]string{`{"message":`: "the body is not valid JSON", `{"session":"s","message":"  "}`: "message is required"} {
		resp, raw := post(t, srv, "/api/chat", body)
		var e struct{ Error string }
		if err := json.Unmarshal([]byte(raw), &e); err != nil || resp.StatusCode != http.StatusBadRequest || !strings.Contains(e.Error, want) {
			t.Errorf("%s: status %d %s; want 400 with %q", body, resp.StatusCode, raw, want)
		}
	}
	crash := jsonChat(t, srv, "s", "crash")
	if crash.Error != crashMessage || crash.Reply != "" || crash.SessionID != "s" {
		t.Errorf("crash: %+v", crash)
	}
	if got := jsonChat(t, srv, "s", "What did I say first?"); got.Reply != `Your first message was: "What did I say first?"` {
		t.Errorf("after a crash: %+v; want the crashed message forgotten", got)
	}
}

func TestRunBackendTool(t *testing.T) {
	for args, want := range map[string]string{
		`{"city":"london"}`: `{"city":"London","temp_c":14,"conditions":"rainy"}`,
		`{"city":"Rome"}`:   `{"error":"no forecast for Rome"}`,
		`not json`:          `{"error":"no forecast for "}`,
	} {
		if got := runBackendTool(toolCall{Name: "get_weather", Args: args}); got != want {
			t.Errorf("get_weather %s = %s, want %s", args, got, want)
		}
	}
}
