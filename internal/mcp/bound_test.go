//go:build unix

package mcp

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// hanging is a streamable HTTP server, in process, that answers the
// requests answer names and never answers the others: it holds them until
// the client gives up.
type hanging struct {
	answer map[string]string // JSON-RPC method → result; "GET": the stream
	mu     sync.Mutex
	held   []string // the requests held, "POST method" or "GET"/"DELETE"
}

func (h *hanging) RoundTrip(r *http.Request) (*http.Response, error) {
	what := r.Method
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if r.Body != nil {
		body, _ := io.ReadAll(r.Body)
		json.Unmarshal(body, &msg)
		what += " " + msg.Method
	}
	if _, ok := h.answer["GET"]; ok && r.Method == http.MethodGet {
		// No stream: the SDK goes on without one.
		return &http.Response{StatusCode: http.StatusMethodNotAllowed, Request: r, Body: http.NoBody, Header: http.Header{}}, nil
	}
	if res, ok := h.answer[msg.Method]; ok && r.Method == http.MethodPost && res == accepted {
		return &http.Response{StatusCode: http.StatusAccepted, Request: r, Body: http.NoBody, Header: http.Header{}}, nil
	}
	if res, ok := h.answer[msg.Method]; ok && r.Method == http.MethodPost {
		body := `{"jsonrpc":"2.0","id":` + string(msg.ID) + `,` + res + `}`
		return &http.Response{StatusCode: http.StatusOK, Request: r, Body: io.NopCloser(strings.NewReader(body)),
			Header: http.Header{"Content-Type": {"application/json"}, "Mcp-Session-Id": {"s1"}}}, nil
	}
	h.mu.Lock()
	h.held = append(h.held, what)
	h.mu.Unlock()
	<-r.Context().Done()
	return nil, r.Context().Err()
}

// accepted answers a notification with 202 Accepted.
const accepted = "202"

// TestHandshakeBounded: whatever the server leaves unanswered, opening a
// session ends when its timeout does — in a bubble, so the time measured
// is the clock's, not the machine's.
func TestHandshakeBounded(t *testing.T) {
	const timeout = 3 * time.Second
	initialized := `"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"h","version":"1"}}`
	noDiscover := `"error":{"code":-32601,"message":"method not found"}`
	for _, tc := range []struct {
		name   string
		answer map[string]string
	}{
		// Nothing answered: initialize times out.
		{"silent", map[string]string{}},
		// Initialized, then the stream the SDK opens at once is never
		// answered: before, Dial waited on it for ever.
		{"stream held", map[string]string{"server/discover": noDiscover, "initialize": initialized}},
		// Initialized with a session and no stream, then the notification
		// held: the DELETE that ends the session is held too.
		{"initialized held", map[string]string{"server/discover": noDiscover, "initialize": initialized, "GET": ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := &hanging{answer: tc.answer}
				o := Options{Transport: TransportHTTP, Endpoint: "http://mcp.test/mcp", Timeout: timeout, HTTP: &http.Client{Transport: h}}
				start := time.Now()
				s, err := Dial(t.Context(), o)
				took := time.Since(start)
				if err == nil {
					s.Close()
					t.Fatal("Dial succeeded, want a timeout")
				}
				if !strings.Contains(err.Error(), "no answer within 3s") {
					t.Errorf("Dial: %v, want no answer within 3s", err)
				}
				if took != timeout {
					t.Errorf("Dial took %v, want its timeout, %v (held: %v)", took, timeout, h.held)
				}
			})
		})
	}
}

// TestCloseBounded: the DELETE that ends an HTTP session is bounded by the
// session's timeout.
func TestCloseBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &hanging{answer: map[string]string{"server/discover": `"error":{"code":-32601,"message":"method not found"}`,
			"initialize": `"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"h","version":"1"}}`,
			"GET":        "", "notifications/initialized": accepted}}
		const timeout = 2 * time.Second
		s, err := Dial(t.Context(), Options{Transport: TransportHTTP, Endpoint: "http://mcp.test/mcp", Timeout: timeout, HTTP: &http.Client{Transport: h}})
		if err != nil {
			t.Fatalf("Dial: %v", err)
		}
		start := time.Now()
		err = s.Close()
		if took := time.Since(start); took != timeout {
			t.Errorf("Close took %v, want the timeout, %v (held: %v)", took, timeout, h.held)
		}
		if err == nil || !strings.Contains(err.Error(), "mcp: close session") {
			t.Errorf("Close: %v, want the DELETE's failure", err)
		}
	})
}

// TestStdioHandshakeStop: a stdio server that does not answer the handshake
// in time is not waited for again beyond exitWait, even when it ignores
// SIGTERM.
func TestStdioHandshakeStop(t *testing.T) {
	var mu sync.Mutex
	var waited time.Duration
	o := Options{Transport: TransportStdio, Command: []string{"sh", "-c", "trap '' TERM; exec sleep 60"}, Timeout: 200 * time.Millisecond,
		after: func(d time.Duration) <-chan time.Time {
			mu.Lock()
			waited += d
			mu.Unlock()
			return time.After(d)
		}}
	s, err := Dial(t.Context(), o)
	if err == nil {
		s.Close()
		t.Fatal("Dial succeeded, want a timeout")
	}
	if !strings.Contains(err.Error(), "no answer within 200ms") {
		t.Errorf("Dial: %v, want no answer within 200ms", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if waited > exitWait {
		t.Errorf("stopping the server waited up to %v, want at most exitWait (%v)", waited, exitWait)
	}
}
