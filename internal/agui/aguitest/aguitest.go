// Package aguitest provides a scripted AG-UI endpoint for tests: each
// request is answered by a function that sees the decoded RunAgentInput and
// returns what to send — events, raw bytes, an error status, or a fault
// (a stall, a dropped connection). Every request is recorded.
package aguitest

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/ananke/action/internal/agui"
)

// Request is one recorded run request.
type Request struct {
	Input  agui.RunAgentInput
	Header http.Header
	Body   []byte
}

// Response says how to answer a request. The zero value answers 200 with an
// empty event stream.
type Response struct {
	Status      int    // default 200
	ContentType string // default text/event-stream
	// Events are marshaled to JSON and written as `data: <json>\n\n`, one
	// flush each, like the official encoders.
	Events []any
	// Raw is written after Events, verbatim (framing and malformed tests).
	Raw string
	// Delay is slept before each event (and before Raw).
	Delay time.Duration
	// Drip writes Raw one byte at a time with this pause between bytes.
	Drip time.Duration
	// Hang blocks after writing everything until the client goes away.
	Hang bool
	// Reset drops the TCP connection (RST) after writing everything.
	Reset bool
}

// Handler answers one request.
type Handler func(r *Request) Response

// Server is a scripted AG-UI endpoint.
type Server struct {
	*httptest.Server
	handle Handler

	mu       sync.Mutex
	requests []Request
}

// New starts a server answering with handle; it is closed when the test
// ends.
func New(t testing.TB, handle Handler) *Server {
	s := &Server{handle: handle}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Endpoint is the run URL.
func (s *Server) Endpoint() string { return s.URL + "/agent" }

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := Request{Header: r.Header.Clone(), Body: body}
	if err := json.Unmarshal(body, &req.Input); err != nil {
		http.Error(w, `{"error":"bad json"}`, http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.mu.Unlock()
	resp := s.handle(&req)
	write(w, r, resp)
}

func write(w http.ResponseWriter, r *http.Request, resp Response) {
	ct := resp.ContentType
	if ct == "" {
		ct = "text/event-stream"
	}
	w.Header().Set("Content-Type", ct)
	w.WriteHeader(max(resp.Status, 200))
	flush(w)
	for _, ev := range resp.Events {
		if !pause(r, resp.Delay) {
			return
		}
		js, err := json.Marshal(ev)
		if err != nil {
			panic(fmt.Sprintf("aguitest: cannot encode event %v: %v", ev, err))
		}
		fmt.Fprintf(w, "data: %s\n\n", js)
		flush(w)
	}
	if resp.Raw != "" && pause(r, resp.Delay) {
		if resp.Drip > 0 {
			for i := 0; i < len(resp.Raw); i++ {
				if _, err := io.WriteString(w, resp.Raw[i:i+1]); err != nil || !pause(r, resp.Drip) {
					return
				}
				flush(w)
			}
		} else {
			io.WriteString(w, resp.Raw)
			flush(w)
		}
	}
	switch {
	case resp.Reset:
		reset(w)
	case resp.Hang:
		<-r.Context().Done()
	}
}

func flush(w http.ResponseWriter) {
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// pause sleeps d unless the client goes away first.
func pause(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	select {
	case <-time.After(d):
		return true
	case <-r.Context().Done():
		return false
	}
}

// reset closes the connection with a TCP RST instead of a clean close.
func reset(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	conn.Close()
}
