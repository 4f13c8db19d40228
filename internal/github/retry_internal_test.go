package github

import (
	"net/http"
	"strconv"
	"testing"
	"time"
)

// TestRateLimitResetUsesClock: the wait until an exhausted quota's reset is
// measured on the run's clock, not the process's.
func TestRateLimitResetUsesClock(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	resp := &http.Response{StatusCode: http.StatusForbidden, Header: http.Header{}}
	resp.Header.Set("X-RateLimit-Remaining", "0")
	resp.Header.Set("X-RateLimit-Reset", strconv.FormatInt(now.Add(42*time.Second).Unix(), 10))
	wait, again := rateLimited(resp, now)
	if !again || wait != 42*time.Second {
		t.Errorf("rateLimited = %v, %v; want 42s, true", wait, again)
	}
}
