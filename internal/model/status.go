package model

import (
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ananke/action/internal/secret"
)

// maxDetail caps how much of a server's error message goes into an Error:
// enough for any real message, not a whole HTML error page.
const maxDetail = 300

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

// serverMessage finds the server's explanation: the OpenAI error object's
// message ({"error": {"message": "…"}}), Ollama's {"error": "…"}, vLLM's
// {"message": "…"} or FastAPI's {"detail": "…"}, else the start of the
// body text.
func serverMessage(body []byte) string {
	if len(body) > 64<<10 {
		body = body[:64<<10]
	}
	var shapes struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &shapes) == nil {
		var object struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(shapes.Error, &object) == nil && object.Message != "" {
			return truncate(object.Message)
		}
		for _, raw := range []json.RawMessage{shapes.Error, shapes.Detail} {
			var s string
			if json.Unmarshal(raw, &s) == nil && s != "" {
				return truncate(s)
			}
		}
		if shapes.Message != "" {
			return truncate(shapes.Message)
		}
	}
	return truncate(strings.Join(strings.Fields(string(body)), " "))
}

func truncate(s string) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= maxDetail {
		return s
	}
	r := []rune(s)
	return string(r[:maxDetail]) + "…"
}

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
