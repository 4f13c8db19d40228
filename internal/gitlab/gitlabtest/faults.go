package gitlabtest

import (
	"net/http"
	"strconv"
)

// fault is a pending error answer for the next n requests of one operation.
type fault struct {
	n          int
	status     int
	retryAfter string // 429's Retry-After header; "" sends none
	// acted: the request is carried out before the error is answered, as
	// when a proxy times out on a GitLab that went on to do it.
	acted bool
}

func (f *fault) reply() reply {
	rep := message(f.status, strconv.Itoa(f.status)+" "+http.StatusText(f.status))
	if f.status == http.StatusTooManyRequests {
		rep = reply{status: f.status, body: map[string]string{"message": "Retry later"}}
	}
	if f.retryAfter != "" {
		rep.header = http.Header{"Retry-After": {f.retryAfter}}
	}
	return rep
}

// RateLimit makes the next n requests of operation op answer 429 with the
// given Retry-After header (seconds or an HTTP date; "" sends none), as
// GitLab's rate limits do. Requests that fail validation do not use up a
// fault.
func (s *Server) RateLimit(op string, n int, retryAfter string) {
	s.addFault(op, &fault{n: n, status: http.StatusTooManyRequests, retryAfter: retryAfter})
}

// Fail makes the next n requests of operation op answer status with
// GitLab's {"message": "<status> <text>"} body — a 500 or 502, a 403 of a
// role too low, a 404.
func (s *Server) Fail(op string, n, status int) {
	s.addFault(op, &fault{n: n, status: status})
}

// FailRetryAfter is Fail with a Retry-After header (seconds or an HTTP
// date), as a 503 may carry.
func (s *Server) FailRetryAfter(op string, n, status int, retryAfter string) {
	s.addFault(op, &fault{n: n, status: status, retryAfter: retryAfter})
}

// FailActed is Fail, but each request is carried out before the error is
// answered: a 502 or 504 from a proxy in front of a GitLab that did the
// work. A client that sends such a POST again blindly makes two notes.
func (s *Server) FailActed(op string, n, status int) {
	s.addFault(op, &fault{n: n, status: status, acted: true})
}

func (s *Server) addFault(op string, f *fault) {
	if _, ok := handlers[op]; !ok {
		s.t.Fatalf("gitlabtest: no operation %q", op)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults[op] = append(s.faults[op], f)
}

func (s *Server) takeFault(op string) *fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.faults[op]
	if len(q) == 0 {
		return nil
	}
	f := q[0]
	if f.n--; f.n <= 0 {
		s.faults[op] = q[1:]
	}
	return f
}

// ReadOnly makes the token one with the read_api scope only: every write
// answers 403 {"error": "insufficient_scope", …, "scope": "api"}, as
// GitLab's API does.
func (s *Server) ReadOnly() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.readOnly = true
}

// Revoke makes the token unknown: every request answers 401.
func (s *Server) Revoke() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.revoked = true
}
