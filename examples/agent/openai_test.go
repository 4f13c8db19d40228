package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// post sends body (a string as it is, anything else encoded) to path and
// returns the response with its body read.
func post(t *testing.T, srv *httptest.Server, path string, body any) (*http.Response, string) {
	t.Helper()
	raw, ok := body.(string)
	if !ok {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		raw = string(b)
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL+path, bytes.NewReader([]byte(raw)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

// frame is one server-sent event: its "event:" name ("" without one) and
// its data.
type frame struct{ event, data string }

// parseFrames splits a stream the way OpenAI writes it, strictly: LF only,
// each event an optional "event: NAME" line and one "data: ..." line,
// events separated by a blank line.
func parseFrames(raw string) ([]frame, error) {
	if strings.Contains(raw, "\r") {
		return nil, fmt.Errorf("stream contains CR")
	}
	if !strings.HasSuffix(raw, "\n\n") {
		return nil, fmt.Errorf("stream does not end with a blank line")
	}
	var frames []frame
	for _, block := range strings.Split(strings.TrimSuffix(raw, "\n\n"), "\n\n") {
		var f frame
		lines := strings.Split(block, "\n")
		if name, ok := strings.CutPrefix(lines[0], "event: "); ok && len(lines) == 2 {
			f.event, lines = name, lines[1:]
		}
		data, ok := strings.CutPrefix(lines[0], "data: ")
		if !ok || len(lines) != 1 {
			return nil, fmt.Errorf("event %q is not [event: line and] one data line", block)
		}
		f.data = data
		frames = append(frames, f)
	}
	return frames, nil
}

// decodeStrict decodes data into v, failing on fields v does not declare.
func decodeStrict(data string, v any) error {
	dec := json.NewDecoder(strings.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// wireError is OpenAI's error body, as a client reads it.
type wireError struct {
	Error struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	} `json:"error"`
}

// checkAPIError checks an error answer: the status, a JSON error object
// of OpenAI's shape, its message and param.
func checkAPIError(t *testing.T, resp *http.Response, body string, status int, message, param string) {
	t.Helper()
	if resp.StatusCode != status {
		t.Errorf("status = %d, want %d (%s)", resp.StatusCode, status, body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
	var e wireError
	if err := decodeStrict(body, &e); err != nil {
		t.Fatalf("error body %s: %v", body, err)
	}
	if !strings.Contains(e.Error.Message, message) {
		t.Errorf("error message = %q, want it to contain %q", e.Error.Message, message)
	}
	wantType := "invalid_request_error"
	if status >= 500 {
		wantType = "server_error"
	}
	if e.Error.Type != wantType {
		t.Errorf("error type = %q, want %q", e.Error.Type, wantType)
	}
	if got := deref(e.Error.Param); got != param {
		t.Errorf("error param = %q, want %q", got, param)
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// said is an answer as a client puts it together, whichever API and mode
// it came in: the text, the refusal, the calls (name and arguments; ids
// apart), why it finished and the tokens used.
type said struct {
	text, refusal string
	calls         []string // "name args"
	finish        string
	in, out       int
}

func (s said) String() string {
	return fmt.Sprintf("text %q refusal %q calls %q finish %q usage %d/%d", s.text, s.refusal, s.calls, s.finish, s.in, s.out)
}

func (s said) equal(o said) bool { return s.String() == o.String() }

func TestModels(t *testing.T) {
	srv := newTestServer(t)
	resp, err := srv.Client().Get(srv.URL + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list struct {
		Object string `json:"object"`
		Data   []struct {
			ID      string `json:"id"`
			Object  string `json:"object"`
			Created int64  `json:"created"`
			OwnedBy string `json:"owned_by"`
		} `json:"data"`
	}
	b, _ := io.ReadAll(resp.Body)
	if err := decodeStrict(string(b), &list); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || list.Object != "list" || len(list.Data) != 1 || list.Data[0].ID != Model || list.Data[0].Object != "model" {
		t.Errorf("GET /v1/models = %d %s; want the list of one model, %s", resp.StatusCode, b, Model)
	}
}

func TestCallProblem(t *testing.T) {
	call := turn{Role: "assistant", Calls: []toolCall{{ID: "c1", Name: "get_weather"}, {ID: "c2", Name: "get_weather"}}}
	tests := []struct {
		name string
		conv []turn
		want string
	}{
		{"no calls", []turn{{Role: "user", Text: "hi"}, {Role: "assistant", Text: "hello"}}, ""},
		{"answered", []turn{call, {Role: "tool", CallID: "c2"}, {Role: "tool", CallID: "c1"}, {Role: "user"}}, ""},
		{"a result for no call", []turn{{Role: "user"}, {Role: "tool", CallID: "c9"}}, `no tool call found for the tool output with call id "c9"`},
		{"a result answered twice", []turn{call, {Role: "tool", CallID: "c1"}, {Role: "tool", CallID: "c1"}}, `no tool call found for the tool output with call id "c1"`},
		{"one call left", []turn{call, {Role: "tool", CallID: "c1"}, {Role: "user"}}, `no tool output found for tool call "c2"`},
		{"ends with calls", []turn{{Role: "user"}, call}, `no tool output found for tool call "c1"`},
	}
	for _, tc := range tests {
		if got := callProblem(tc.conv); got != tc.want {
			t.Errorf("%s: callProblem = %q, want %q", tc.name, got, tc.want)
		}
	}
}
