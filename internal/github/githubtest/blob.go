package githubtest

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// BlobOperation names the signed storage URL that actions/download-artifact
// redirects to, in Requests of BlobRequests and for Fail.
const BlobOperation = "githubtest/blob"

// blobPrefix is the path of the fake's storage, outside GitHub's REST API:
// its requests are not validated against the description.
const blobPrefix = "/_githubtest/blob/"

// blobURL is a's signed download URL, shaped like the Azure SAS URLs GitHub
// hands out: the signature in sig is what authorises the request. Callers
// hold s.mu.
func (s *Server) blobURL(r *http.Request, a *artifact) string {
	q := url.Values{
		"sv":  {"2025-01-05"},
		"sr":  {"b"},
		"sp":  {"r"},
		"se":  {a.expiry.Format("2006-01-02T15:04:05Z")},
		"sig": {blobSig(a.id)},
	}
	return fmt.Sprintf("%s%sartifacts/%d.zip?%s", baseURL(r), blobPrefix, a.id, q.Encode())
}

// blobSig is artifact id's signature; it holds '+', '/' and '=' so that it
// needs escaping, as real ones do.
func blobSig(id int64) string {
	sum := sha256.Sum256([]byte("githubtest-blob-" + strconv.FormatInt(id, 10)))
	return base64.StdEncoding.EncodeToString(sum[:])
}

// BlobRequests returns the requests to signed storage URLs, in arrival
// order.
func (s *Server) BlobRequests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.blobRequests))
	for i, r := range s.blobRequests {
		out[i] = r.clone()
	}
	return out
}

// serveBlob serves an artifact's zip to a GET carrying its signature. A
// signed URL is a credential of its own: a request that also carries an
// Authorization header leaks the GitHub token to the storage service, and
// fails the test.
func (s *Server) serveBlob(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.blobRequests = append(s.blobRequests, Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(),
		Header: r.Header.Clone(), Operation: BlobOperation})
	s.mu.Unlock()

	if r.Header.Get("Authorization") != "" {
		s.t.Errorf("githubtest: %s %s: a signed storage URL was sent an Authorization header", r.Method, r.URL.Path)
		writeBlobError(w, http.StatusBadRequest, "InvalidAuthenticationInfo", "Authentication information is not given in the correct format.")
		return
	}
	if f := s.takeFault(BlobOperation); f != nil {
		writeBlobError(w, f.status, "ServerBusy", http.StatusText(f.status))
		return
	}
	if r.Method != http.MethodGet {
		writeBlobError(w, http.StatusMethodNotAllowed, "UnsupportedHttpVerb", "The resource doesn't support the specified HTTP verb.")
		return
	}
	name := strings.TrimPrefix(r.URL.Path, blobPrefix+"artifacts/")
	id, err := strconv.ParseInt(strings.TrimSuffix(name, ".zip"), 10, 64)
	s.mu.Lock()
	a := s.artifact(id)
	s.mu.Unlock()
	switch {
	case err != nil || !strings.HasSuffix(name, ".zip") || a == nil || a.expired:
		writeBlobError(w, http.StatusNotFound, "BlobNotFound", "The specified blob does not exist.")
	case r.URL.Query().Get("sig") != blobSig(a.id):
		writeBlobError(w, http.StatusForbidden, "AuthenticationFailed", "Signature did not match.")
	default:
		w.Header().Set("Content-Type", "application/zip")
		w.Header().Set("Content-Length", strconv.Itoa(len(a.zip)))
		w.WriteHeader(http.StatusOK)
		n, _ := w.Write(a.zip) // fails only when the client went away
		s.mu.Lock()
		s.blobBytes += int64(n)
		s.mu.Unlock()
	}
}

// BlobBytes is how many bytes of artifacts storage has served: the body
// bytes written to clients (a client that hangs up early may have read
// fewer).
func (s *Server) BlobBytes() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.blobBytes
}

// writeBlobError answers like Azure storage: an XML error body.
func writeBlobError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/xml")
	w.Header().Set("X-Ms-Error-Code", code)
	w.WriteHeader(status)
	fmt.Fprintf(w, "<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>%s</Code><Message>%s</Message></Error>", code, message)
}
