package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestRejectsBadRequests(t *testing.T) {
	srv := newTestServer(t)
	tests := []struct {
		name, body, wantErr string
	}{
		{"bad json", `{"threadId":`, "decode RunAgentInput"},
		{"not an object", `[1,2]`, "decode RunAgentInput"},
		{"missing threadId", `{"runId":"r","messages":[]}`, "threadId is required"},
		{"missing runId", `{"threadId":"t","messages":[]}`, "runId is required"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := srv.Client().Post(srv.URL+"/agent", "application/json", strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != http.StatusBadRequest {
				t.Errorf("status = %d, want 400", resp.StatusCode)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type = %q, want application/json", ct)
			}
			var body struct{ Error string }
			if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
				t.Fatalf("decode error body: %v", err)
			}
			if !strings.Contains(body.Error, tc.wantErr) {
				t.Errorf("error = %q, want it to contain %q", body.Error, tc.wantErr)
			}
		})
	}
}

// TestIgnoresUnknownFields sends the exact body of the official HttpAgent,
// with fields this agent does not read, plus a 1.0 content-part message
// whose parts carry optional members and one of a type it does not know.
// (An image part would make it read an attachment: attachments_test.go.)
func TestIgnoresUnknownFields(t *testing.T) {
	body := `{"threadId":"thread-1","runId":"run-1","protocolVersion":"1.0","state":{},` +
		`"messages":[{"id":"u1","role":"user","content":[{"type":"text","text":"weather in ","id":"p1","metadata":{"k":1}},{"type":"hologram","source":{"type":"url","value":"x"}},{"type":"text","text":"Tokyo"}],"metadata":{"k":1}}],` +
		`"tools":[],"context":[{"description":"d","value":"v"}],"forwardedProps":{},"future":true}`
	var in RunAgentInput
	if err := json.Unmarshal([]byte(body), &in); err != nil {
		t.Fatal(err)
	}
	events := postRun(t, newTestServer(t), in)
	calls, _ := capture(events)
	checkCalls(t, calls, []wantCall{{"get_weather", `{"city":"Tokyo"}`, `{"city":"Tokyo","temp_c":26,"conditions":"cloudy"}`}})

	// And the raw body, not re-encoded by the test.
	srv := newTestServer(t)
	resp, err := srv.Client().Post(srv.URL+"/agent", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("status = %d, want 200", resp.StatusCode)
	}
}

func TestRoutes(t *testing.T) {
	srv := newTestServer(t)
	tests := []struct {
		method, path string
		wantStatus   int
		wantBody     string
	}{
		{http.MethodGet, "/health", http.StatusOK, "ok"},
		{http.MethodGet, "/agent", http.StatusMethodNotAllowed, ""},
		{http.MethodPost, "/other", http.StatusNotFound, ""},
		{http.MethodGet, "/v1/chat/completions", http.StatusMethodNotAllowed, ""},
		{http.MethodGet, "/v1/responses", http.StatusMethodNotAllowed, ""},
		{http.MethodGet, "/api/chat", http.StatusMethodNotAllowed, ""},
	}
	for _, tc := range tests {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), tc.method, srv.URL+tc.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.wantStatus {
				t.Errorf("status = %d, want %d", resp.StatusCode, tc.wantStatus)
			}
			if tc.wantBody != "" && string(body) != tc.wantBody {
				t.Errorf("body = %q, want %q", body, tc.wantBody)
			}
		})
	}
}

// TestDeterministic runs the same input twice, with a delay between events,
// and expects byte-identical streams.
func TestDeterministic(t *testing.T) {
	srv := httptest.NewServer(newHandler(time.Millisecond))
	t.Cleanup(srv.Close)
	body := `{"threadId":"t","runId":"r","messages":[{"id":"u1","role":"user","content":"compare"}]}`
	var streams []string
	for range 2 {
		resp, err := srv.Client().Post(srv.URL+"/agent", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		raw, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		streams = append(streams, string(raw))
	}
	if streams[0] != streams[1] {
		t.Errorf("streams differ:\n%s\n---\n%s", streams[0], streams[1])
	}
}

// TestStopsWhenClientLeaves hangs up during a wait that outlasts any test:
// an hour between events, on each streaming endpoint. The handler must
// stop when the client leaves; httptest.Server.Close waits for it, and a
// minute passing first means it kept waiting.
func TestStopsWhenClientLeaves(t *testing.T) {
	for _, tc := range []struct{ path, body, first string }{
		{"/agent", `{"threadId":"t","runId":"r","messages":[{"id":"u1","role":"user","content":"hello"}]}`, "RUN_STARTED"},
		{"/v1/chat/completions", `{"model":"m","stream":true,"messages":[{"role":"user","content":"hello"}]}`, "chat.completion.chunk"},
		{"/v1/responses", `{"model":"m","stream":true,"input":"hello"}`, "response.created"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			srv := httptest.NewServer(newHandler(time.Hour))
			ctx, cancel := context.WithCancel(t.Context())
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+tc.path, bytes.NewReader([]byte(tc.body)))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			// Read the first event (the next is an hour away), then hang up.
			buf := make([]byte, 4096)
			var got string
			for !strings.Contains(got, tc.first) {
				n, err := resp.Body.Read(buf)
				got += string(buf[:n])
				if err != nil {
					t.Fatalf("read: %v (got %q)", err, got)
				}
			}
			cancel()
			resp.Body.Close()

			closed := make(chan struct{})
			go func() { srv.Close(); close(closed) }()
			select {
			case <-closed:
			case <-time.After(time.Minute):
				t.Fatal("the handler was still waiting a minute after the client left")
			}
		})
	}
}
