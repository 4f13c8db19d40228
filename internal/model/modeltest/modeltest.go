// Package modeltest is a fake OpenAI-compatible chat completions endpoint
// for tests of code that calls the model: an httptest server that records
// every request and answers from a script. It never touches the network
// beyond the loopback interface.
package modeltest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// Usage that Answer reports for every reply.
const (
	PromptTokens     = 10
	CompletionTokens = 5
)

// Server is the fake endpoint.
type Server struct {
	// URL is the endpoint to configure: the server's base URL plus "/v1",
	// as for OpenAI, so requests arrive at /v1/chat/completions.
	URL string

	srv       *httptest.Server
	closed    chan struct{}
	closeOnce sync.Once

	mu       sync.Mutex
	script   []Responder
	requests []Request
}

// Request is one request the server received.
type Request struct {
	Method, Path string
	Header       http.Header
	Body         []byte
}

// JSON decodes the request body, failing the test if it is not JSON.
func (r Request) JSON(t testing.TB) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(r.Body, &v); err != nil {
		t.Fatalf("request body %q: %v", r.Body, err)
	}
	return v
}

// Responder answers one request.
type Responder func(w http.ResponseWriter, r *http.Request)

// New starts a server that answers the n-th request with script[n], and
// every request after the script with its last entry (an empty script
// answers "ok"). The server is closed when the test ends.
func New(t testing.TB, script ...Responder) *Server {
	t.Helper()
	if len(script) == 0 {
		script = []Responder{Answer("ok")}
	}
	s := &Server{script: script, closed: make(chan struct{})}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL + "/v1"
	t.Cleanup(s.Close)
	return s
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	respond := s.script[min(n, len(s.script)-1)]
	s.mu.Unlock()
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		Respond(http.StatusNotFound, `{"error":{"message":"no such route","type":"invalid_request_error"}}`)(w, r)
		return
	}
	// A hanging responder must not keep Close, which waits for handlers,
	// from returning: the request's context also ends when the server closes.
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	go func() {
		select {
		case <-s.closed:
			cancel()
		case <-ctx.Done():
		}
	}()
	respond(w, r.WithContext(ctx))
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Client returns an HTTP client for the server, whose idle connections are
// closed with it.
func (s *Server) Client() *http.Client { return s.srv.Client() }

// Close stops the server; its URL then refuses connections. It is safe to
// call more than once.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.closed)
		s.srv.Close()
	})
}

// Answer replies with a chat completion whose first choice has content, and
// usage PromptTokens and CompletionTokens.
func Answer(content string) Responder {
	return Respond(http.StatusOK, Completion(content, PromptTokens, CompletionTokens))
}

// Completion is the JSON body of a chat completion with one choice.
func Completion(content string, promptTokens, completionTokens int64) string {
	b, _ := json.Marshal(map[string]any{
		"id": "chatcmpl-fake", "object": "chat.completion", "created": 1700000000, "model": "fake",
		"choices": []any{map[string]any{
			"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": content},
		}},
		"usage": map[string]any{
			"prompt_tokens": promptTokens, "completion_tokens": completionTokens,
			"total_tokens": promptTokens + completionTokens,
		},
	})
	return string(b)
}

// Respond replies with status and body, as JSON unless the header pairs
// (name, value, name, value, …) set another Content-Type.
func Respond(status int, body string, header ...string) Responder {
	if len(header)%2 != 0 {
		panic(fmt.Sprintf("modeltest.Respond: odd header pairs %q", header))
	}
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		for i := 0; i < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

// EchoAuth replies with status and an OpenAI error whose message repeats the
// request's Authorization header, as a careless proxy might: tests use it to
// check the key never reaches an error message.
func EchoAuth(status int) Responder {
	return func(w http.ResponseWriter, r *http.Request) {
		msg, _ := json.Marshal("bad credentials: " + r.Header.Get("Authorization"))
		Respond(status, fmt.Sprintf(`{"error":{"message":%s,"type":"invalid_request_error"}}`, msg))(w, r)
	}
}

// Hang never answers: it returns only when the client gives up or the
// server closes.
func Hang() Responder {
	return func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }
}
