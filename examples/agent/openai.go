package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// api serves what the agent offers besides AG-UI: an OpenAI-compatible
// API (chat.go: POST /v1/chat/completions; responses.go: POST
// /v1/responses; GET /v1/models) and a JSON API of its own (jsonapi.go:
// POST /api/chat), all answered by the scripted model of reply.go.
type api struct {
	delay time.Duration // the pause between streamed events
	now   func() time.Time
	mu    sync.Mutex
	ids   map[string]int // per-prefix counters: resp_1, call_2, ...
	// responses are the Responses API's stored conversations by response
	// id, for previous_response_id.
	responses map[string][]turn
	// sessions are the JSON API's conversations by session id.
	sessions map[string][]turn
}

func newAPI(delay time.Duration, now func() time.Time) *api {
	return &api{delay: delay, now: now, ids: map[string]int{}, responses: map[string][]turn{}, sessions: map[string][]turn{}}
}

// mount adds the API's routes to mux.
func (a *api) mount(mux *http.ServeMux) {
	mux.HandleFunc("POST /v1/chat/completions", a.serveChat)
	mux.HandleFunc("POST /v1/responses", a.serveResponses)
	mux.HandleFunc("GET /v1/models", a.serveModels)
	mux.HandleFunc("POST /api/chat", a.serveJSONChat)
}

// newID returns the next id with a prefix: "resp_1", "call_2",
// "chatcmpl-3". Ids only need to be unique while the agent runs.
func (a *api) newID(prefix string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.ids[prefix]++
	return fmt.Sprintf("%s%d", prefix, a.ids[prefix])
}

// serveModels lists the one model, as GET /v1/models does: a client
// checking the API before its first request finds it here.
func (a *api) serveModels(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []map[string]any{
		{"id": Model, "object": "model", "created": 0, "owned_by": "ananke-example"},
	}})
}

// apiError is OpenAI's error object, the body of every error status and
// of an error in a stream.
type apiError struct {
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Param   *string `json:"param"`
	Code    *string `json:"code"`
}

// writeAPIError answers with status and OpenAI's error body; param and
// code may be "" (null).
func writeAPIError(w http.ResponseWriter, status int, message, param, code string) {
	typ := "invalid_request_error"
	if status >= 500 {
		typ = "server_error"
	}
	writeJSON(w, status, map[string]apiError{"error": {Message: message, Type: typ, Param: nullable(param), Code: nullable(code)}})
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// startStream sends the headers of a server-sent event stream.
func startStream(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
}

// decodeBody reads a JSON request body into v.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) error {
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBodyBytes)).Decode(v); err != nil {
		return fmt.Errorf("the body is not valid JSON: %w", err)
	}
	return nil
}

// contentText is the text of an OpenAI message content: a string, null,
// or an array of parts whose text parts (text, input_text, output_text)
// are joined.
func contentText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", fmt.Errorf("content is neither a string nor an array of parts")
	}
	var b strings.Builder
	for _, p := range parts {
		switch p.Type {
		case "text", "input_text", "output_text":
			b.WriteString(p.Text)
		}
	}
	return b.String(), nil
}

// resultText is a tool's output as text: a JSON string's value, or any
// other JSON as it is.
func resultText(raw json.RawMessage) string {
	if text, err := contentText(raw); err == nil {
		return text
	}
	return string(raw)
}

// callProblem says what OpenAI's APIs refuse in a conversation: a tool
// result that answers no call of the assistant message before it, or a
// call the conversation goes on (or ends) without answering; "" when
// every call has its result.
func callProblem(conv []turn) string {
	var open []string // the last assistant message's calls not yet answered
	for _, t := range conv {
		if t.Role == "tool" {
			i := slices.Index(open, t.CallID)
			if i < 0 {
				return fmt.Sprintf("no tool call found for the tool output with call id %q", t.CallID)
			}
			open = slices.Delete(open, i, i+1)
			continue
		}
		if len(open) > 0 {
			break
		}
		for _, c := range t.Calls {
			open = append(open, c.ID)
		}
	}
	if len(open) > 0 {
		return fmt.Sprintf("no tool output found for tool call %q", open[0])
	}
	return ""
}
