package gitlabtest

import (
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Server is a fake GitLab REST API v4, backed by memory. Requests outside
// the trimmed description, or that do not validate against it, fail the
// test. It is safe for concurrent requests and closed when the test ends.
type Server struct {
	*httptest.Server

	t    testing.TB
	spec *spec

	mu       sync.Mutex
	requests []Request
	notes    map[mrKey][]*Note // in creation order
	nextNote int64

	artifacts map[artKey][]byte
	storage   *httptest.Server // artifacts served through a redirect; nil: directly
	storageN  int              // requests storage received

	readOnly     bool
	revoked      bool
	noNextHeader bool
	faults       map[string][]*fault
}

// Request is one recorded API request.
type Request struct {
	Method string
	// Path is as sent, still escaped (a branch "feature/x" is feature%2Fx).
	Path   string
	Query  url.Values
	Header http.Header
	Body   []byte
	// Operation is the operationId, e.g. OpCreateNote; "" when no route
	// matched.
	Operation string
}

// Note is a note as the fake keeps it.
type Note struct {
	ID     int64
	Body   string
	System bool
	// Edits counts the PUTs that changed it.
	Edits int
}

type mrKey struct {
	project string
	mr      string
}

type artKey struct{ project, ref, job string }

// token is the only token the fake accepts (Token).
const token = "glpat-gitlabtest-0123456789"

// New starts a fake GitLab and closes it when the test ends.
func New(t testing.TB) *Server {
	t.Helper()
	sp, err := loadSpec()
	if err != nil {
		t.Fatalf("gitlabtest: %v", err)
	}
	s := &Server{t: t, spec: sp, notes: map[mrKey][]*Note{}, nextNote: 1, artifacts: map[artKey][]byte{}, faults: map[string][]*fault{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	t.Cleanup(s.Close)
	return s
}

// APIURL is what CI_API_V4_URL says in a job on this GitLab.
func (s *Server) APIURL() string { return s.URL + "/api/v4" }

// Token is the token the fake accepts, with the api scope (unless
// ReadOnly).
func (s *Server) Token() string { return token }

// Requests returns every API request received so far, in arrival order,
// including those that failed validation.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.requests))
	for i, r := range s.requests {
		r.Query = maps.Clone(r.Query)
		r.Header = r.Header.Clone()
		r.Body = slices.Clone(r.Body)
		out[i] = r
	}
	return out
}

// Count is how many requests of operation op the fake received.
func (s *Server) Count(op string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.requests {
		if r.Operation == op {
			n++
		}
	}
	return n
}

// call is one validated request, as handlers see it.
type call struct {
	r      *http.Request
	op     string
	params map[string]string // path parameters, unescaped
	body   []byte
}

// reply is what a handler answers.
type reply struct {
	status int
	header http.Header
	body   any    // marshalled as JSON
	raw    []byte // sent as is when not nil
}

type handler func(*Server, *call) reply

var handlers = map[string]handler{
	OpListNotes:         (*Server).listNotes,
	OpCreateNote:        (*Server).createNote,
	OpUpdateNote:        (*Server).updateNote,
	OpDownloadArtifacts: (*Server).downloadArtifacts,
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		s.t.Errorf("gitlabtest: %s %s: read body: %v", r.Method, r.URL.Path, err)
		writeReply(w, message(http.StatusBadRequest, "400 Bad request"))
		return
	}
	rec := Request{Method: r.Method, Path: r.URL.EscapedPath(), Query: r.URL.Query(), Header: r.Header.Clone(), Body: body}
	route, params, routeErr := s.spec.router.FindRoute(r)
	if routeErr == nil {
		rec.Operation = route.Operation.OperationID
	}
	s.mu.Lock()
	s.requests = append(s.requests, rec)
	s.mu.Unlock()
	if routeErr != nil {
		s.t.Errorf("gitlabtest: %s %s: not an operation of GitLab's trimmed description (%v); the fake serves %s",
			r.Method, r.URL.EscapedPath(), routeErr, strings.Join(slices.Sorted(maps.Keys(handlers)), ", "))
		writeReply(w, message(http.StatusNotFound, "404 Not Found"))
		return
	}
	if err := s.spec.validate(r.Context(), r, route, params, body); err != nil {
		s.t.Errorf("gitlabtest: %s (%s %s): request does not match GitLab's OpenAPI description: %v", rec.Operation, r.Method, r.URL.EscapedPath(), err)
		writeReply(w, reply{status: http.StatusBadRequest, body: map[string]string{"error": err.Error()}})
		return
	}
	for k, v := range params {
		if u, err := url.PathUnescape(v); err == nil {
			params[k] = u
		}
	}
	writeReply(w, s.answer(&call{r: r, op: rec.Operation, params: params, body: body}))
}

// answer checks the token, applies faults, then the operation's handler.
func (s *Server) answer(c *call) reply {
	s.mu.Lock()
	revoked, readOnly := s.revoked, s.readOnly
	s.mu.Unlock()
	switch {
	case c.r.Header.Get("PRIVATE-TOKEN") != token || revoked:
		return reply{status: http.StatusUnauthorized, body: map[string]string{"message": "401 Unauthorized"}}
	}
	if f := s.takeFault(c.op); f != nil {
		if f.acted {
			handlers[c.op](s, c)
		}
		return f.reply()
	}
	if readOnly && c.r.Method != http.MethodGet {
		return reply{status: http.StatusForbidden, body: map[string]string{
			"error":             "insufficient_scope",
			"error_description": "The request requires higher privileges than provided by the access token.",
			"scope":             "api",
		}}
	}
	return handlers[c.op](s, c)
}

// message is GitLab's usual error answer, {"message": "404 Not Found"}.
func message(status int, msg string) reply {
	return reply{status: status, body: map[string]any{"message": msg}}
}

func writeReply(w http.ResponseWriter, rep reply) {
	for k, vs := range rep.header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	if rep.raw != nil {
		w.WriteHeader(rep.status)
		w.Write(rep.raw)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(rep.status)
	json.NewEncoder(w).Encode(rep.body)
}
