package githubtest

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// GitHub's texts for the faults, as go-github sees them.
const (
	// readOnlyMessage is the 403 a read-only GITHUB_TOKEN gets on writes, e.g.
	// in a pull_request workflow run from a fork.
	readOnlyMessage = "Resource not accessible by integration"

	// secondaryMessage and secondaryDocURL: go-github turns a 403 whose
	// documentation_url ends in "secondary-rate-limits" into
	// *github.AbuseRateLimitError (github.go CheckResponse).
	secondaryMessage = "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."
	secondaryDocURL  = "https://docs.github.com/free-pro-team@latest/rest/overview/resources-in-the-rest-api#secondary-rate-limits"

	primaryMessage = "API rate limit exceeded for installation ID 1."
	primaryDocURL  = "https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting"

	// primaryLimit is an installation token's hourly quota, for the
	// X-RateLimit-Limit header.
	primaryLimit = 5000
)

type faultKind int

const (
	faultPrimary429   faultKind = iota // 429 + Retry-After
	faultSecondary403                  // 403 secondary-rate-limit body + Retry-After
	faultExhausted403                  // 403 + X-RateLimit-Remaining: 0 + X-RateLimit-Reset
	faultStatus                        // any other status (Fail)
)

// fault is a pending error answer for the next n requests of one operation.
type fault struct {
	kind   faultKind
	n      int
	delay  time.Duration // Retry-After, or time until X-RateLimit-Reset
	status int           // faultStatus's status code
	op     string
}

// ReadOnly makes every write (POST/PATCH) answer 403 {"message":"Resource not
// accessible by integration", …} like a fork PR's token. go-github returns a
// *github.ErrorResponse with Response.StatusCode 403 and that Message.
func (s *Server) ReadOnly() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.readOnly = true
}

func (s *Server) isReadOnly() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.readOnly
}

// RateLimit makes the next n requests whose operationId is op answer
// 429 (primary=false) or 403 with a secondary-rate-limit message (secondary=true),
// each with a `Retry-After: <seconds>` header.
//
// retryAfter is sent in whole seconds, rounded up. What go-github v66 returns:
//   - secondary: *github.AbuseRateLimitError with RetryAfter = the header's
//     seconds and Message = GitHub's text. The client then refuses further
//     requests itself, returning the same error type without calling the
//     server, until RetryAfter has passed: use a retryAfter of 0, or a new
//     Client, to retry at once.
//   - primary (429): a plain *github.ErrorResponse with Response.StatusCode
//     429 and the Retry-After header in Response.Header; go-github v66 maps
//     only 403 responses to its rate-limit error types. No X-RateLimit-*
//     headers are sent, so the client does not block later requests.
//
// Requests that fail validation do not use up a fault.
func (s *Server) RateLimit(op string, n int, secondary bool, retryAfter time.Duration) {
	kind := faultPrimary429
	if secondary {
		kind = faultSecondary403
	}
	s.addFault(op, &fault{kind: kind, n: n, delay: retryAfter})
}

// ExhaustRateLimit makes the next n requests whose operationId is op answer
// 403 with X-RateLimit-Remaining: 0 and X-RateLimit-Reset: now+reset (Unix
// seconds), as GitHub does when the primary quota is used up. go-github v66
// returns *github.RateLimitError with Rate.Remaining 0, Rate.Limit 5000 and
// Rate.Reset, and then refuses further requests itself until Rate.Reset.
func (s *Server) ExhaustRateLimit(op string, n int, reset time.Duration) {
	s.addFault(op, &fault{kind: faultExhausted403, n: n, delay: reset})
}

// Fail makes the next n requests whose operationId is op answer status with
// GitHub's error body, e.g. 502 or 503 as GitHub does now and then, 404, or
// 403 {"message":"Resource not accessible by integration"} with the
// X-Accepted-GitHub-Permissions header naming what the token lacks (as for
// a workflow whose permissions leave out actions: read). go-github returns a
// *github.ErrorResponse with that status — except for
// actions/download-artifact, which go-github v66 turns into a plain error
// with the status in the returned Response.
//
// op may also be BlobOperation: the signed storage URL then answers status
// with storage's XML error body.
func (s *Server) Fail(op string, n, status int) {
	s.t.Helper()
	if status < 400 || status > 599 {
		s.t.Errorf("githubtest: Fail(%q, %d, %d): not an error status", op, n, status)
		return
	}
	s.addFault(op, &fault{kind: faultStatus, n: n, status: status})
}

func (s *Server) addFault(op string, f *fault) {
	s.t.Helper()
	f.op = op
	if op == BlobOperation && f.kind != faultStatus {
		s.t.Errorf("githubtest: storage has no rate limits to fake; use Fail(BlobOperation, …)")
		return
	}
	if _, ok := s.spec.ops[op]; !ok && op != BlobOperation {
		s.t.Errorf("githubtest: fault for %q: no such operationId in GitHub's REST description", op)
		return
	}
	if f.n <= 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults[op] = append(s.faults[op], f)
}

// takeFault uses up one pending fault of op, if any.
func (s *Server) takeFault(op string) *fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	queue := s.faults[op]
	if len(queue) == 0 {
		return nil
	}
	f := *queue[0]
	queue[0].n--
	if queue[0].n == 0 {
		s.faults[op] = queue[1:]
	}
	return &f
}

// reply is the fault's answer; docURL is the operation's documentation.
func (f *fault) reply(docURL string) reply {
	h := make(http.Header)
	switch f.kind {
	case faultStatus:
		if f.status == http.StatusForbidden {
			return readOnlyReply(f.op, docURL)
		}
		return errorReply(f.status, statusMessage(f.status), docURL)
	case faultSecondary403:
		h.Set("Retry-After", retryAfterSeconds(f.delay))
		rep := errorReply(http.StatusForbidden, secondaryMessage, secondaryDocURL)
		rep.header = h
		return rep
	case faultExhausted403:
		h.Set("X-RateLimit-Limit", strconv.Itoa(primaryLimit))
		h.Set("X-RateLimit-Remaining", "0")
		h.Set("X-RateLimit-Used", strconv.Itoa(primaryLimit))
		h.Set("X-RateLimit-Reset", strconv.FormatInt(time.Now().Add(f.delay).Unix(), 10))
		h.Set("X-RateLimit-Resource", "core")
		rep := errorReply(http.StatusForbidden, primaryMessage, primaryDocURL)
		rep.header = h
		return rep
	default:
		h.Set("Retry-After", retryAfterSeconds(f.delay))
		rep := errorReply(http.StatusTooManyRequests, primaryMessage, primaryDocURL)
		rep.header = h
		return rep
	}
}

// retryAfterSeconds formats d as Retry-After's whole seconds, rounded up.
func retryAfterSeconds(d time.Duration) string {
	if d <= 0 {
		return "0"
	}
	return strconv.FormatInt(int64(math.Ceil(d.Seconds())), 10)
}

// readOnlyReply is GitHub's answer to a write with a read-only token. The
// X-Accepted-GitHub-Permissions header names what the token lacks.
func readOnlyReply(op, docURL string) reply {
	rep := errorReply(http.StatusForbidden, readOnlyMessage, docURL)
	perm := "issues=write; pull_requests=write"
	switch {
	case strings.HasPrefix(op, "checks/"):
		perm = "checks=write"
	case strings.HasPrefix(op, "actions/"):
		perm = "actions=read"
	}
	rep.header = http.Header{"X-Accepted-Github-Permissions": {perm}}
	return rep
}

// statusMessage is GitHub's message for an error status.
func statusMessage(status int) string {
	switch status {
	case http.StatusNotFound:
		return "Not Found"
	case http.StatusInternalServerError:
		return "Server Error"
	case http.StatusGone:
		return "Gone"
	}
	return http.StatusText(status)
}
