package artifacttest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// upload is an artifact from CreateArtifact on.
type upload struct {
	Artifact
	key, sig  string
	blocks    map[string][]byte // uncommitted blocks by id
	order     []string          // block ids in the order first put
	committed bool
	finalized bool
}

// Proto field names of the requests; anything else (a camelCase name, say)
// fails the test.
var (
	createFields   = []string{"workflow_run_backend_id", "workflow_job_run_backend_id", "name", "version", "mime_type", "expires_at"}
	finalizeFields = []string{"workflow_run_backend_id", "workflow_job_run_backend_id", "name", "size", "hash"}
)

type createRequest struct {
	RunID     string          `json:"workflow_run_backend_id"`
	JobID     string          `json:"workflow_job_run_backend_id"`
	Name      string          `json:"name"`
	Version   json.RawMessage `json:"version"`
	MimeType  string          `json:"mime_type"`
	ExpiresAt string          `json:"expires_at"`
}

type finalizeRequest struct {
	RunID string          `json:"workflow_run_backend_id"`
	JobID string          `json:"workflow_job_run_backend_id"`
	Name  string          `json:"name"`
	Size  json.RawMessage `json:"size"`
	Hash  string          `json:"hash"`
}

func (s *Server) serveTwirp(w http.ResponseWriter, r *http.Request, method string) {
	if r.Method != http.MethodPost {
		s.errorf("%s: method %s, want POST", method, r.Method)
		writeTwirpError(w, http.StatusMethodNotAllowed, "bad_route", "twirp calls are POSTs")
		return
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+s.token {
		s.errorf("%s: Authorization header is not Bearer <the runtime token>", method)
		writeTwirpError(w, http.StatusUnauthorized, "unauthenticated", "invalid token")
		return
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		s.errorf("%s: Content-Type %q, want application/json", method, ct)
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		s.errorf("%s: read body: %v", method, err)
		return
	}
	switch method {
	case "CreateArtifact":
		var req createRequest
		if s.decode(w, method, body, createFields, &req) {
			s.create(w, req)
		}
	case "FinalizeArtifact":
		var req finalizeRequest
		if s.decode(w, method, body, finalizeFields, &req) {
			s.finalize(w, req)
		}
	default:
		s.errorf("unknown twirp method %q", method)
		writeTwirpError(w, http.StatusNotFound, "bad_route", "no such method")
	}
}

// decode checks that body has only the given proto field names and fills
// req; on a violation it fails the test, answers, and returns false.
func (s *Server) decode(w http.ResponseWriter, method string, body []byte, fields []string, req any) bool {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil {
		s.errorf("%s: body is not a JSON object: %v", method, err)
		writeTwirpError(w, http.StatusBadRequest, "malformed", "body is not JSON")
		return false
	}
	ok := true
	for k := range raw {
		if !slices.Contains(fields, k) {
			s.errorf("%s: unknown field %q (requests use proto field names: %v)", method, k, fields)
			ok = false
		}
	}
	if err := json.Unmarshal(body, req); err != nil {
		s.errorf("%s: decode body: %v", method, err)
		ok = false
	}
	if !ok {
		writeTwirpError(w, http.StatusBadRequest, "malformed", "bad request body")
	}
	return ok
}

// checkIDs fails the test unless the backend ids are the token's.
func (s *Server) checkIDs(w http.ResponseWriter, method, run, job string) bool {
	if run == runID && job == jobID {
		return true
	}
	s.errorf("%s: backend ids %q/%q, want the token's %q/%q", method, run, job, runID, jobID)
	writeTwirpError(w, http.StatusBadRequest, "invalid_argument", "backend ids do not match the token")
	return false
}

func (s *Server) create(w http.ResponseWriter, req createRequest) {
	if !s.checkIDs(w, "CreateArtifact", req.RunID, req.JobID) {
		return
	}
	if err := validName(req.Name); err != nil {
		s.errorf("CreateArtifact: %v", err)
		writeTwirpError(w, http.StatusBadRequest, "invalid_argument", err.Error())
		return
	}
	if v := string(req.Version); v != "7" {
		s.errorf("CreateArtifact: version %s, want 7", v)
	}
	if req.MimeType != "application/zip" {
		s.errorf("CreateArtifact: mime_type %q, want application/zip", req.MimeType)
	}
	var expires time.Time
	if req.ExpiresAt != "" {
		var err error
		if expires, err = time.Parse(time.RFC3339Nano, req.ExpiresAt); err != nil {
			s.errorf("CreateArtifact: expires_at %q is not RFC 3339", req.ExpiresAt)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.uploads[req.Name]; dup {
		writeTwirpError(w, http.StatusConflict, "already_exists",
			"an artifact with this name already exists on the workflow run")
		return
	}
	s.creates++
	key := fmt.Sprintf("artifact-%d", s.creates)
	sum := sha256.Sum256([]byte(key + "/" + req.Name))
	u := &upload{key: key, sig: base64.StdEncoding.EncodeToString(sum[:]), blocks: map[string][]byte{}}
	u.Name, u.ExpiresAt = req.Name, expires
	u.SignedURL = s.URL + blobPrefix + key + "?sv=2023-11-03&sr=b&sp=cw&se=2099-01-01T00%3A00%3A00Z&sig=" + url.QueryEscape(u.sig)
	s.uploads[req.Name], s.byKey[key] = u, u
	// Alternate the field style: the service writes snake_case, act camelCase.
	field := "signed_upload_url"
	if s.creates%2 == 0 {
		field = "signedUploadUrl"
	}
	writeJSON(w, map[string]any{"ok": true, field: u.SignedURL})
}

func (s *Server) finalize(w http.ResponseWriter, req finalizeRequest) {
	if !s.checkIDs(w, "FinalizeArtifact", req.RunID, req.JobID) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.uploads[req.Name]
	switch {
	case u == nil:
		s.errorf("FinalizeArtifact: no CreateArtifact for %q", req.Name)
		writeTwirpError(w, http.StatusNotFound, "not_found", "artifact not found")
		return
	case !u.committed:
		s.errorf("FinalizeArtifact %q: no Put Block List before it", req.Name)
		writeTwirpError(w, http.StatusBadRequest, "failed_precondition", "blob not committed")
		return
	case u.finalized:
		s.errorf("FinalizeArtifact %q: finalized twice", req.Name)
		writeTwirpError(w, http.StatusConflict, "already_exists", "artifact already finalized")
		return
	}
	if !s.checkSizeHash(u, req) {
		writeTwirpError(w, http.StatusBadRequest, "invalid_argument", "size or hash does not match the upload")
		return
	}
	s.finalizes++
	s.nextID++
	u.ID, u.finalized = s.nextID, true
	writeJSON(w, finalizeAnswer(s.finalizes, u.ID))
}

// checkSizeHash fails the test unless size (a JSON string: int64 in proto
// JSON) and hash describe the bytes assembled from the blocks.
func (s *Server) checkSizeHash(u *upload, req finalizeRequest) bool {
	var size string
	if err := json.Unmarshal(req.Size, &size); err != nil {
		s.errorf("FinalizeArtifact %q: size %s is not a JSON string", req.Name, req.Size)
		return false
	}
	n, err := strconv.ParseInt(size, 10, 64)
	sum := sha256.Sum256(u.Data)
	want := "sha256:" + hex.EncodeToString(sum[:])
	ok := true
	if err != nil || n != int64(len(u.Data)) {
		s.errorf("FinalizeArtifact %q: size %q, want %d (the bytes uploaded)", req.Name, size, len(u.Data))
		ok = false
	}
	if req.Hash != want {
		s.errorf("FinalizeArtifact %q: hash %q, want %q", req.Name, req.Hash, want)
		ok = false
	}
	u.Size, u.Hash = n, req.Hash
	return ok
}

// finalizeAnswer cycles through the answer styles: artifact_id as a string,
// artifactId as a string, artifact_id as a number, artifactId as a number.
func finalizeAnswer(call int, id int64) map[string]any {
	field := "artifact_id"
	if call%2 == 0 {
		field = "artifactId"
	}
	var v any = strconv.FormatInt(id, 10)
	if (call-1)%4 >= 2 {
		v = id
	}
	return map[string]any{"ok": true, field: v}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}
