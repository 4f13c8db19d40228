// Package artifacttest is a fake GitHub Actions artifact service (the v4
// protocol) for tests: the twirp endpoints CreateArtifact and
// FinalizeArtifact and an Azure-like blob store behind the signed URLs, in
// one httptest server, modelled on nektos/act pkg/artifacts/artifacts_v4.go.
//
// It is strict where the real service is: every request a real service or
// Azure would reject, or that breaks the protocol, fails the test through
// t.Errorf and gets an error answer. A name uploaded twice only gets the
// error answer, as from the real service. Answers alternate between the
// snake_case and camelCase field styles, and artifact ids between strings
// and numbers, so clients must read both.
package artifacttest

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	twirpPrefix = "/twirp/github.actions.results.api.v1.ArtifactService/"
	blobPrefix  = "/blob/"
	runID       = "8d1e4c9e-run-backend-id"
	jobID       = "5f0a7b2c-job-backend-id"
)

// Artifact is a finalized artifact as the fake stored it.
type Artifact struct {
	ID          int64
	Name        string
	Data        []byte    // the bytes assembled from the committed blocks
	Blocks      []int     // the committed blocks' sizes, in order
	Size        int64     // FinalizeArtifact's size, as sent
	Hash        string    // FinalizeArtifact's hash, as sent
	ContentType string    // Put Block List's x-ms-blob-content-type
	ExpiresAt   time.Time // CreateArtifact's expires_at; zero when not sent
	SignedURL   string    // the signed upload URL handed out
}

// Server is a fake artifact service: the twirp endpoints and a blob store for
// signed URLs, in one httptest server.
type Server struct {
	*httptest.Server
	t     testing.TB
	token string

	mu        sync.Mutex
	failures  []*failure
	received  []string           // endpoint keys of all requests, in order
	uploads   map[string]*upload // by artifact name
	byKey     map[string]*upload // by blob key in the signed URL
	creates   int
	finalizes int
	nextID    int64
}

// New starts a fake service that reports protocol violations to t and stops
// when the test ends.
func New(t testing.TB) *Server {
	s := &Server{
		t:       t,
		token:   makeToken("Actions.GenericRead:00000000-0000-0000-0000-000000000000 Actions.Results:" + runID + ":" + jobID),
		uploads: map[string]*upload{},
		byKey:   map[string]*upload{},
		nextID:  1000,
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// makeToken is an unsigned JWT (alg none) with the given scp claim.
func makeToken(scp string) string {
	enc := base64.RawURLEncoding
	header := enc.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`))
	payload, _ := json.Marshal(map[string]any{"scp": scp, "iss": "artifacttest", "exp": 4102444800})
	return header + "." + enc.EncodeToString(payload) + "."
}

// Token returns a runtime token (an unsigned JWT) whose scp claim grants
// run/job backend ids the server expects.
func (s *Server) Token() string { return s.token }

// Artifacts returns the finalized artifacts in the order they were
// finalized: name, the uploaded bytes, size and hash as sent.
func (s *Server) Artifacts() []Artifact {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Artifact
	for _, u := range s.uploads {
		if u.finalized {
			a := u.Artifact
			a.Data = append([]byte(nil), a.Data...)
			a.Blocks = append([]int(nil), a.Blocks...)
			out = append(out, a)
		}
	}
	slices.SortFunc(out, func(a, b Artifact) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// Count returns how many requests reached the endpoints whose key ends in
// suffix (see Fail); "" counts every request.
func (s *Server) Count(suffix string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, k := range s.received {
		if strings.HasSuffix(k, suffix) {
			n++
		}
	}
	return n
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	key := endpointKey(r)
	s.mu.Lock()
	s.received = append(s.received, key)
	f := s.takeFailure(key)
	s.mu.Unlock()
	switch {
	case f != nil:
		s.writeFailure(w, r, f)
	case strings.HasPrefix(r.URL.Path, twirpPrefix):
		s.serveTwirp(w, r, key)
	case strings.HasPrefix(r.URL.Path, blobPrefix):
		s.serveBlob(w, r)
	default:
		s.t.Errorf("artifacttest: unexpected request %s %s", r.Method, r.URL.Path)
		http.NotFound(w, r)
	}
}

// endpointKey names the endpoint a request is for: the twirp method
// ("CreateArtifact") or the blob operation ("comp=block", "comp=blocklist";
// "comp=" for a Put Blob).
func endpointKey(r *http.Request) string {
	if m, ok := strings.CutPrefix(r.URL.Path, twirpPrefix); ok {
		return m
	}
	if strings.HasPrefix(r.URL.Path, blobPrefix) {
		return "comp=" + r.URL.Query().Get("comp")
	}
	return r.URL.Path
}

func (s *Server) errorf(format string, args ...any) {
	s.t.Errorf("artifacttest: "+format, args...)
}

// uploadFor finds the pending upload behind a blob key, or nil.
func (s *Server) uploadFor(key string) *upload {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byKey[key]
}
