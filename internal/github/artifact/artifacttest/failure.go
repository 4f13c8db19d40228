package artifacttest

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// failure is an injected error answer for the next n matching requests.
type failure struct {
	suffix     string
	n, status  int
	retryAfter time.Duration
	code, msg  string // twirp error body; empty: derived from status
}

// Fail makes the next n requests to the endpoint suffix (e.g.
// "CreateArtifact", "FinalizeArtifact", "comp=block", "comp=blocklist")
// answer status (with a Retry-After header when retryAfter > 0). Status 0
// closes the connection without an answer: a network error. A failed
// request changes nothing on the server. Blob error answers echo the
// request URL, signature included, to prove clients keep it out of their
// errors.
func (s *Server) Fail(suffix string, n, status int, retryAfter time.Duration) {
	s.addFailure(&failure{suffix: suffix, n: n, status: status, retryAfter: retryAfter})
}

// FailTwirp makes the next n calls to the twirp method answer status with
// the twirp error body {"code": code, "msg": msg}, e.g. the storage quota
// error ("insufficient usage").
func (s *Server) FailTwirp(method string, n, status int, code, msg string) {
	s.addFailure(&failure{suffix: method, n: n, status: status, code: code, msg: msg})
}

func (s *Server) addFailure(f *failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures = append(s.failures, f)
}

// takeFailure returns the first pending failure for key and counts it
// down; s.mu is held.
func (s *Server) takeFailure(key string) *failure {
	for _, f := range s.failures {
		if f.n > 0 && strings.HasSuffix(key, f.suffix) {
			f.n--
			return f
		}
	}
	return nil
}

func (s *Server) writeFailure(w http.ResponseWriter, r *http.Request, f *failure) {
	if f.status == 0 {
		hj, ok := w.(http.Hijacker)
		if !ok {
			s.errorf("cannot hijack the connection to drop it")
			return
		}
		conn, _, err := hj.Hijack()
		if err == nil {
			conn.Close()
		}
		return
	}
	if f.retryAfter > 0 {
		secs := int((f.retryAfter + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
	}
	if strings.HasPrefix(r.URL.Path, twirpPrefix) {
		code, msg := f.code, f.msg
		if code == "" {
			code, msg = twirpCode(f.status), "injected failure"
		}
		writeTwirpError(w, f.status, code, msg)
		return
	}
	writeBlobError(w, f.status, "InjectedFailure", "injected failure for PUT "+r.URL.RequestURI())
}

// twirpCode is the twirp error code a status stands for
// (twitchtv/twirp errors.go ServerHTTPStatusFromErrorCode, reversed).
func twirpCode(status int) string {
	switch status {
	case http.StatusBadRequest:
		return "invalid_argument"
	case http.StatusUnauthorized:
		return "unauthenticated"
	case http.StatusForbidden:
		return "permission_denied"
	case http.StatusNotFound:
		return "not_found"
	case http.StatusConflict:
		return "already_exists"
	case http.StatusTooManyRequests:
		return "resource_exhausted"
	case http.StatusServiceUnavailable:
		return "unavailable"
	case http.StatusGatewayTimeout:
		return "deadline_exceeded"
	}
	return "internal"
}

func writeTwirpError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"code": code, "msg": msg})
}

func writeBlobError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/xml")
	w.Header().Set("x-ms-error-code", code)
	w.WriteHeader(status)
	fmt.Fprintf(w, `<?xml version="1.0" encoding="utf-8"?><Error><Code>%s</Code><Message>%s</Message></Error>`,
		xmlEscape(code), xmlEscape(msg))
}

func xmlEscape(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}
