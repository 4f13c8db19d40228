package model

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/ananke/action/internal/oaiwire"
	"github.com/ananke/action/internal/secret"
)

// maxRetryAfter bounds a parsed Retry-After before it is converted to a
// time.Duration, so absurd values cannot overflow; Config.MaxRetryWait caps
// the actual wait far below it.
const maxRetryAfter = 24 * time.Hour

// httpFailure classifies a non-2xx answer, body its (bounded) body.
func httpFailure(res *http.Response, body []byte, now time.Time) *failure {
	f := &failure{status: res.StatusCode, detail: serverMessage(body)}
	f.retryAfter, f.hasRetryAfter = retryAfter(res.Header, now)
	switch code := res.StatusCode; {
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		f.kind = KindUnauthorized
	case code == http.StatusTooManyRequests:
		f.kind = KindRateLimited
	case code >= 500:
		f.kind = KindServer
	case code >= 400:
		f.kind = KindBadRequest
	default: // a redirect, refused by httpClient
		f.kind = KindMalformed
		f.detail = "the endpoint answered " + statusPhrase(code)
		if loc := res.Header.Get("Location"); loc != "" {
			f.detail += " to " + secret.URL(loc) // a signed URL's query holds its token
		}
		f.detail += ": set model.endpoint to the final URL"
	}
	return f
}

// serverMessage finds the server's explanation in an error body
// (oaiwire.ErrorMessage).
func serverMessage(body []byte) string { return oaiwire.ErrorMessage(body) }

// truncate trims s and cuts it to oaiwire.MaxDetail characters.
func truncate(s string) string { return oaiwire.Truncate(s) }

// retryAfter reads how long the server asks us to wait: OpenAI's
// retry-after-ms first (more precise), then Retry-After in seconds or as an
// HTTP date.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil {
		if d, ok := fromSeconds(ms / 1000); ok {
			return d, true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		return fromSeconds(s)
	}
	if t, err := http.ParseTime(v); err == nil {
		return fromSeconds(max(t.Sub(now), 0).Seconds()) // a past date: retry now
	}
	return 0, false
}

// fromSeconds converts a server-given number of seconds, refusing negative
// and NaN values and clamping huge ones.
func fromSeconds(s float64) (time.Duration, bool) {
	switch {
	case math.IsNaN(s) || s < 0:
		return 0, false
	case s >= maxRetryAfter.Seconds():
		return maxRetryAfter, true
	}
	return time.Duration(s * float64(time.Second)), true
}

// statusText is http.StatusText in lowercase, as error phrases are.
func statusText(status int) string { return strings.ToLower(http.StatusText(status)) }
