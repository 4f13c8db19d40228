package gitlab

import (
	"net/http"
	"strconv"
	"time"
)

// Retry policy. GitLab answers 429 with Retry-After when a rate limit is
// hit; a rate-limited request was not acted on, so even a POST is sent
// again. A passing server error (500, 502, 503, 504) is retried only for
// requests that are safe to repeat — reads, and PUT, which sets the same
// body again — after doubling waits, or as long as its Retry-After says; a POST that met one may have been acted on, and the note's
// upsert looks for the note again before creating it anew (notes.go).
// Ananke waits at most maxWait at a time and tries at most maxAttempts
// times, so a struggling GitLab delays the job by minutes, not hours;
// publishing never changes the verdict.
const (
	maxAttempts = 4
	maxWait     = 60 * time.Second
	// defaultWait is the wait after a 429 that says nothing of when to
	// come back.
	defaultWait = 5 * time.Second
	// serverErrorWait is the first wait after a 5xx, doubled each time.
	serverErrorWait = 2 * time.Second
)

// retryable reports whether an answer of status to a method request is
// worth another attempt, and how long to wait first.
func retryable(method string, status int, h http.Header, attempt int, now time.Time) (time.Duration, bool) {
	switch {
	case status == http.StatusTooManyRequests:
		return rateLimitWait(h, now), true
	case serverError(status) && method != http.MethodPost:
		if h.Get("Retry-After") != "" { // a 503 may say when to come back
			return rateLimitWait(h, now), true
		}
		return serverErrorWait << (attempt - 1), true
	}
	return 0, false
}

// serverError reports a passing server error.
func serverError(status int) bool {
	switch status {
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// rateLimitWait reads how long a 429 asks to wait: Retry-After in seconds
// or as a date, else RateLimit-Reset (a Unix time), else defaultWait.
func rateLimitWait(h http.Header, now time.Time) time.Duration {
	if s := h.Get("Retry-After"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n >= 0 {
			return time.Duration(n) * time.Second
		}
		if t, err := http.ParseTime(s); err == nil {
			return max(t.Sub(now), 0)
		}
	}
	if reset, err := strconv.ParseInt(h.Get("RateLimit-Reset"), 10, 64); err == nil {
		return max(time.Unix(reset, 0).Sub(now), 0)
	}
	return defaultWait
}
