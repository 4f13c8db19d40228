package model

import (
	"fmt"
	"strings"
	"time"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/secret"
)

// Kind says what went wrong in a call to the model, so callers can decide
// what to tell the user (and internal/cli which exit code to use) without
// parsing messages.
type Kind string

// The kinds of Error.
const (
	KindUnreachable  Kind = "unreachable"  // no HTTP answer: refused, DNS, TLS, reset (after retries)
	KindUnauthorized Kind = "unauthorized" // 401 or 403: the key is wrong or lacks access
	KindRateLimited  Kind = "rate_limited" // 429 after retries
	KindServer       Kind = "server"       // 5xx after retries
	KindTimeout      Kind = "timeout"      // an attempt got no answer within Config.Timeout
	KindMalformed    Kind = "malformed"    // the reply is not what was asked for
	KindBadRequest   Kind = "bad_request"  // any other 4xx: wrong model name, bad schema, …
	KindCanceled     Kind = "canceled"     // the caller's context ended first
	KindCache        Kind = "cache"        // the reply could not be stored in Config.CacheDir
)

// Error is a failed call to the model. Its message is one lowercase phrase
// naming the model, the endpoint and what happened; it never contains the
// API key.
type Error struct {
	Kind     Kind
	Model    string // the model name
	Endpoint string // the endpoint, without any userinfo password
	Status   int    // the HTTP status of the last attempt; 0 when there was none
	Attempts int    // requests sent for this call
	// Detail is the server's own message, or the cause, with the API key
	// removed; empty when there was none.
	Detail string
	// Err is the underlying cause when there is one worth matching with
	// errors.Is (context.Canceled, context.DeadlineExceeded, a network or JSON
	// error). It never holds the request, whose header holds the key.
	Err error

	what string // the phrase after "model M at E: "
}

func (e *Error) Error() string {
	what := e.what
	if what == "" {
		what = string(e.Kind)
	}
	return fmt.Sprintf("model %s at %s: %s", e.Model, e.Endpoint, what)
}

func (e *Error) Unwrap() error { return e.Err }

// newError builds the Error for a failure after attempts requests, with the
// API key removed from everything that came from outside.
func (c *Client) newError(f *failure, attempts int) *Error {
	e := &Error{
		Kind:     f.kind,
		Model:    c.name,
		Endpoint: c.display,
		Status:   f.status,
		Attempts: attempts,
		Detail:   c.redact(f.detail),
		Err:      f.err,
	}
	e.what = c.redact(phrase(e, c.timeout))
	return e
}

// phrase says what happened, e.g. "rate limited (429) after 3 attempts".
func phrase(e *Error, timeout time.Duration) string {
	var what string
	switch e.Kind {
	case KindUnauthorized:
		return fmt.Sprintf("%s: check model.api_key", statusPhrase(e.Status))
	case KindRateLimited:
		what = fmt.Sprintf("rate limited (%d) after %s", e.Status, plural.Count(e.Attempts, "attempt"))
	case KindServer:
		what = fmt.Sprintf("server error (%d) after %s", e.Status, plural.Count(e.Attempts, "attempt"))
	case KindBadRequest:
		what = statusPhrase(e.Status)
	case KindUnreachable:
		what = "unreachable"
		if e.Attempts > 1 {
			what += " after " + plural.Count(e.Attempts, "attempt")
		}
	case KindTimeout:
		return "no answer within " + seconds(timeout)
	case KindCanceled:
		what = "interrupted"
	default: // KindMalformed, KindCache: the detail is the whole phrase
		return e.Detail
	}
	if e.Detail != "" {
		what += ": " + e.Detail
	}
	return what
}

// statusPhrase is e.g. "404 not found".
func statusPhrase(status int) string {
	if text := statusText(status); text != "" {
		return fmt.Sprintf("%d %s", status, text)
	}
	return fmt.Sprintf("status %d", status)
}

// seconds writes whole-second durations as "60s" rather than "1m0s", the
// way users write model.timeout.
func seconds(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return d.String()
}

// redact removes the API key from s: servers echo it in error messages
// ("Incorrect API key provided: sk-…") and proxies in headers dumps.
func (c *Client) redact(s string) string {
	if c.apiKey == "" {
		return s
	}
	return strings.ReplaceAll(s, c.apiKey, secret.Mask)
}
