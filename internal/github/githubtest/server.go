package githubtest

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"
)

// Server is a fake GitHub REST API: check runs, issue comments, workflow
// runs and their artifacts, backed by memory. Every request is validated against GitHub's OpenAPI description
// (testdata/api.github.com.trimmed.json via kin-openapi: route + request
// parameters + body schema); a request that does not validate fails the test
// (t.Errorf with the operation id and the validation error) and gets a 422.
//
// Requests outside the description (an unknown route or method) also fail the
// test and get a 404 — except the signed storage URLs that artifact
// downloads redirect to (blob.go), which are not GitHub's API. GitHub's
// limits that the schema does not express are checked too (see checks.go
// and comments.go). The server is safe for
// concurrent requests; it is closed when the test ends.
type Server struct {
	*httptest.Server

	t    testing.TB
	spec *spec

	mu       sync.Mutex
	requests []Request
	clock    int64 // seconds after epoch, advanced by every write

	runs       []*checkRun // ascending id
	nextRunID  int64
	comments   []*comment // ascending id, all issues
	nextCommID int64

	workflowRuns      []*WorkflowRun // in the order added
	nextWorkflowRunID int64
	artifacts         []*artifact // ascending id
	nextArtID         int64
	blobRequests      []Request // to signed storage URLs
	blobBytes         int64     // body bytes storage wrote

	readOnly bool
	faults   map[string][]*fault // operationId → pending faults, in order
}

// Request is one recorded request.
type Request struct {
	Method, Path string // path without query
	Query        url.Values
	Header       http.Header
	Body         []byte
	Operation    string // OpenAPI operationId, e.g. "checks/create"; BlobOperation for blob downloads
}

// epoch is the fake's clock origin: timestamps in responses are epoch plus
// one second per write, so responses are the same on every run.
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// dummyToken is what Client authenticates with; the fake only checks that
// writes carry some Authorization header, as GitHub answers 401 otherwise.
const dummyToken = "ghs_githubtest"

// New starts a fake GitHub API and closes it when the test ends.
func New(t testing.TB) *Server {
	t.Helper()
	sp, err := loadSpec()
	if err != nil {
		t.Fatalf("githubtest: %v", err)
	}
	s := &Server{
		t:                 t,
		spec:              sp,
		nextRunID:         1,
		nextCommID:        1,
		nextArtID:         1,
		nextWorkflowRunID: 1,
		faults:            make(map[string][]*fault),
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	t.Cleanup(s.Close)
	return s
}

// Client returns a go-github client pointed at the server (BaseURL = URL + "/",
// the trailing slash matters), authenticated with a dummy token.
func (s *Server) Client() *github.Client {
	c := github.NewClient(s.Server.Client()).WithAuthToken(dummyToken)
	base, err := url.Parse(s.URL + "/")
	if err != nil {
		panic(fmt.Sprintf("githubtest: parse server URL: %v", err)) // httptest URLs always parse
	}
	c.BaseURL = base
	c.UploadURL = base
	return c
}

// Requests returns every request received so far, in arrival order,
// including those that failed validation (their Operation is empty when no
// route matched).
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.requests))
	for i, r := range s.requests {
		out[i] = r.clone()
	}
	return out
}

func (r Request) clone() Request {
	r.Query = cloneValues(r.Query)
	r.Header = r.Header.Clone()
	r.Body = slices.Clone(r.Body)
	return r
}

// call is one validated request, as handlers see it.
type call struct {
	r      *http.Request
	op     string
	params map[string]string // path parameters
	body   []byte
}

// repo is "owner/repo" from the path.
func (c *call) repo() string { return c.params["owner"] + "/" + c.params["repo"] }

// reply is what a handler answers.
type reply struct {
	status int
	header http.Header
	body   any // marshalled as JSON
}

type handler func(*Server, *call) reply

// handlers maps each operationId of the trimmed description to its handler.
var handlers = map[string]handler{
	"actions/get-workflow-run":            (*Server).getWorkflowRun,
	"actions/list-workflow-runs":          (*Server).listWorkflowRuns,
	"actions/list-workflow-run-artifacts": (*Server).listArtifacts,
	"actions/download-artifact":           (*Server).downloadArtifact,
	"checks/create":                       (*Server).createCheckRun,
	"checks/update":                       (*Server).updateCheckRun,
	"checks/list-annotations":             (*Server).listAnnotations,
	"issues/list-comments":                (*Server).listComments,
	"issues/create-comment":               (*Server).createComment,
	"issues/update-comment":               (*Server).updateComment,
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, blobPrefix) {
		s.serveBlob(w, r) // signed storage URL: not part of the REST API
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		s.t.Errorf("githubtest: %s %s: read body: %v", r.Method, r.URL.Path, err)
		writeReply(w, errorReply(http.StatusBadRequest, "Problems parsing JSON", ""))
		return
	}
	rec := Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Header: r.Header.Clone(), Body: body}
	route, params, routeErr := s.spec.match(r)
	if routeErr == nil {
		rec.Operation = route.Operation.OperationID
	}
	s.mu.Lock()
	s.requests = append(s.requests, rec)
	s.mu.Unlock()

	if routeErr != nil {
		s.t.Errorf("githubtest: %s %s: not an operation of GitHub's REST description (%v); the fake serves %s",
			r.Method, r.URL.Path, routeErr, strings.Join(slices.Sorted(maps.Keys(handlers)), ", "))
		writeReply(w, notFound())
		return
	}
	c := &call{r: r, op: rec.Operation, params: params, body: body}
	if err := s.spec.validate(r.Context(), r, route, params, body); err != nil {
		s.t.Errorf("githubtest: %s (%s %s): request does not match GitHub's OpenAPI description: %v%s",
			c.op, r.Method, r.URL.Path, err, hints(c))
		writeReply(w, errorReply(http.StatusUnprocessableEntity, "Invalid request.\n\n"+err.Error(), s.spec.docURL(c.op)))
		return
	}
	writeReply(w, s.answer(c))
}

// answer applies faults, then the operation's handler.
func (s *Server) answer(c *call) reply {
	if c.r.Method != http.MethodGet && c.r.Header.Get("Authorization") == "" {
		s.t.Errorf("githubtest: %s (%s %s): write without an Authorization header; GitHub answers 401",
			c.op, c.r.Method, c.r.URL.Path)
		return errorReply(http.StatusUnauthorized, "Requires authentication", "https://docs.github.com/rest")
	}
	if f := s.takeFault(c.op); f != nil {
		return f.reply(s.spec.docURL(c.op))
	}
	if s.isReadOnly() && (c.r.Method == http.MethodPost || c.r.Method == http.MethodPatch) {
		return readOnlyReply(c.op, s.spec.docURL(c.op))
	}
	h := handlers[c.op]
	if h == nil {
		// The description holds an operation the fake does not implement:
		// testdata and handlers disagree.
		s.t.Errorf("githubtest: %s (%s %s): operation not implemented by the fake", c.op, c.r.Method, c.r.URL.Path)
		return notFound()
	}
	return h(s, c)
}

// hints runs the fake's own checks on a request the schema rejected: they
// name the field where kin-openapi can only say that no "anyOf" branch
// matched.
func hints(c *call) string {
	var probs []problem
	switch c.op {
	case "checks/create", "checks/update":
		var req checkRunRequest
		if json.Unmarshal(c.body, &req) == nil {
			probs = checkRunProblems(&req)
		}
	case "issues/create-comment", "issues/update-comment":
		var req commentRequest
		if json.Unmarshal(c.body, &req) == nil {
			if p, msg := commentProblem(req.Body); msg != "" {
				probs = append(probs, p)
			}
		}
	}
	if len(probs) == 0 {
		return ""
	}
	return " (also: " + joinProblems(probs) + ")"
}

func joinProblems(probs []problem) string {
	msgs := make([]string, len(probs))
	for i, p := range probs {
		msgs[i] = p.field + ": " + p.message
	}
	return strings.Join(msgs, "; ")
}

// violation reports a request that the schema accepts but GitHub rejects,
// and answers it the way GitHub does: 422 Validation Failed.
func (s *Server) violation(c *call, resource string, problems []problem) reply {
	errs := make([]apiFieldError, len(problems))
	for i, p := range problems {
		errs[i] = apiFieldError{Resource: resource, Code: "custom", Field: p.field, Message: p.message}
	}
	s.t.Errorf("githubtest: %s (%s %s): request breaks GitHub's limits: %s",
		c.op, c.r.Method, c.r.URL.Path, joinProblems(problems))
	return reply{status: http.StatusUnprocessableEntity, body: apiError{
		Message:          "Validation Failed",
		Errors:           errs,
		DocumentationURL: s.spec.docURL(c.op),
		Status:           "422",
	}}
}

// problem is one broken limit of a request.
type problem struct{ field, message string }

// apiError is GitHub's error body; go-github decodes it into
// *github.ErrorResponse.
type apiError struct {
	Message          string          `json:"message"`
	Errors           []apiFieldError `json:"errors,omitempty"`
	DocumentationURL string          `json:"documentation_url,omitempty"`
	Status           string          `json:"status,omitempty"`
}

type apiFieldError struct {
	Resource string `json:"resource"`
	Code     string `json:"code"`
	Field    string `json:"field"`
	Message  string `json:"message,omitempty"`
}

func errorReply(status int, message, docURL string) reply {
	return reply{status: status, body: apiError{
		Message:          message,
		DocumentationURL: docURL,
		Status:           fmt.Sprint(status),
	}}
}

func notFound() reply {
	return errorReply(http.StatusNotFound, "Not Found", "https://docs.github.com/rest")
}

func writeReply(w http.ResponseWriter, rep reply) {
	for k, vs := range rep.header {
		w.Header()[k] = vs
	}
	w.Header().Set("X-GitHub-Media-Type", "github.v3; format=json")
	if rep.body == nil { // e.g. a redirect
		w.WriteHeader(rep.status)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(rep.status)
	_ = json.NewEncoder(w).Encode(rep.body) // fails only when the client went away
}

// tick advances the fake clock by one second and returns the new time.
// Callers hold s.mu.
func (s *Server) tick() time.Time {
	s.clock++
	return epoch.Add(time.Duration(s.clock) * time.Second)
}

// baseURL is the server's address as the client used it.
func baseURL(r *http.Request) string { return "http://" + r.Host }

func cloneValues(v url.Values) url.Values {
	if v == nil {
		return nil
	}
	out := make(url.Values, len(v))
	for k, vs := range v {
		out[k] = slices.Clone(vs)
	}
	return out
}
