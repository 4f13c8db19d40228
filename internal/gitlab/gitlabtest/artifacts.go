package gitlabtest

import (
	"archive/zip"
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// Zip is an artifacts archive holding files (path in the archive →
// content), for SetArtifacts.
func Zip(t testing.TB, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// SetArtifacts makes zip the artifacts archive of job on the latest
// successful pipeline of ref in project; nil removes it.
func (s *Server) SetArtifacts(project, ref, job string, zip []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := artKey{project, ref, job}
	if zip == nil {
		delete(s.artifacts, k)
		return
	}
	s.artifacts[k] = zip
}

// RedirectArtifacts serves archives as a GitLab that keeps them in object
// storage does: the API answers 302 to a storage server on another host,
// which fails the test if sent the token (PRIVATE-TOKEN).
func (s *Server) RedirectArtifacts() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.storage != nil {
		return
	}
	s.storage = httptest.NewServer(http.HandlerFunc(s.serveStorage))
	s.t.Cleanup(s.storage.Close)
}

// StorageRequests is how many requests the storage server received.
func (s *Server) StorageRequests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.storageN
}

func (s *Server) downloadArtifacts(c *call) reply {
	k := artKey{c.params["id"], c.params["ref_name"], c.r.URL.Query().Get("job")}
	s.mu.Lock()
	data, ok := s.artifacts[k]
	storage := s.storage
	s.mu.Unlock()
	if !ok {
		return message(http.StatusNotFound, "404 Not found")
	}
	if storage != nil {
		loc := storage.URL + "/artifacts/" + url.PathEscape(k.project) + "/" + url.PathEscape(k.ref) + "/" + url.PathEscape(k.job) +
			"/artifacts.zip?X-Amz-Signature=fake"
		return reply{status: http.StatusFound, header: http.Header{"Location": {loc}}, raw: []byte{}}
	}
	return archive(data)
}

func archive(data []byte) reply {
	return reply{status: http.StatusOK, raw: data, header: http.Header{
		"Content-Type":        {"application/zip"},
		"Content-Disposition": {`attachment; filename="artifacts.zip"`},
		"Content-Length":      {strconv.Itoa(len(data))},
	}}
}

func (s *Server) serveStorage(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.storageN++
	s.mu.Unlock()
	if r.Header.Get("PRIVATE-TOKEN") != "" {
		s.t.Errorf("gitlabtest: storage %s was sent the GitLab token", r.URL.Path)
		http.Error(w, "forbidden", http.StatusForbidden)
		return
	}
	parts := strings.SplitN(strings.TrimPrefix(r.URL.EscapedPath(), "/artifacts/"), "/", 4)
	if len(parts) != 4 {
		http.NotFound(w, r)
		return
	}
	for i, p := range parts {
		parts[i], _ = url.PathUnescape(p)
	}
	s.mu.Lock()
	data, ok := s.artifacts[artKey{parts[0], parts[1], parts[2]}]
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	writeReply(w, archive(data))
}
