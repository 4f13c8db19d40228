package gitlab

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/ananke/action/internal/deadline"
)

// tokenHeader carries the token, as GitLab's REST API documents for
// personal, project and group access tokens.
const tokenHeader = "PRIVATE-TOKEN"

// Bounds of one request.
const (
	// attemptTimeout bounds one attempt at an API request, body included.
	attemptTimeout = 30 * time.Second
	// maxResponseBytes bounds an API answer read into memory (a page of
	// 100 notes of up to 1,000,000 characters each is the largest).
	maxResponseBytes = 128 << 20
)

// Client talks to one project's REST API.
type Client struct {
	base    *url.URL // CI_API_V4_URL, without a trailing slash
	project string   // CI_PROJECT_ID, path-escaped
	token   string
	hc      *http.Client
	sleep   func(context.Context, time.Duration) error
	now     func() time.Time
}

// Options configure New.
type Options struct {
	// HTTP is the underlying client (nil: http.DefaultTransport). Each
	// attempt is bounded by its own timeout.
	HTTP *http.Client
	// Sleep waits between retries (nil: a context-aware sleep).
	Sleep func(context.Context, time.Duration) error
	// Now is the run's clock, for a Retry-After given as a date. Required:
	// only internal/cli reads the process's clock.
	Now func() time.Time
}

// New returns a client for project (CI_PROJECT_ID) at apiURL
// (CI_API_V4_URL), authenticated with token. The token goes only to
// apiURL's host: a redirect elsewhere (artifacts kept in object storage)
// does not carry it, and no error quotes it.
func New(apiURL, project, token string, o Options) (*Client, error) {
	if o.Now == nil {
		return nil, errors.New("gitlab client: no clock (Options.Now)")
	}
	base, err := url.Parse(strings.TrimRight(apiURL, "/"))
	if err != nil || base.Scheme == "" || base.Host == "" {
		return nil, fmt.Errorf("CI_API_V4_URL %q is not a URL", apiURL)
	}
	if project == "" {
		return nil, errors.New("no project (CI_PROJECT_ID)")
	}
	hc := &http.Client{}
	if o.HTTP != nil {
		*hc = *o.HTTP
	}
	next := hc.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	hc.Transport = &authTransport{next: next, scheme: base.Scheme, host: base.Host, token: token}
	sleep := o.Sleep
	if sleep == nil {
		sleep = deadline.Sleep
	}
	return &Client{base: base, project: url.PathEscape(project), token: token, hc: hc, sleep: sleep, now: o.Now}, nil
}

// authTransport adds the token to requests for the API's own host only.
// It sets the header on a copy: a redirect is built from the request as
// sent, so the next host sees the token only if it is the API's again.
type authTransport struct {
	next         http.RoundTripper
	scheme, host string
	token        string
}

func (t *authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Scheme == t.scheme && req.URL.Host == t.host && t.token != "" {
		req = req.Clone(req.Context())
		req.Header.Set(tokenHeader, t.token)
	}
	return t.next.RoundTrip(req)
}

// request is one API call.
type request struct {
	method string
	// path is relative to the API's base and already escaped, e.g.
	// "projects/42/merge_requests/12/notes".
	path  string
	query url.Values
	body  any // sent as JSON when not nil
	// limit bounds the answer's body (0: maxResponseBytes); timeout one
	// attempt (0: attemptTimeout).
	limit   int64
	timeout time.Duration
}

// response is a successful (2xx) answer, read whole.
type response struct {
	header http.Header
	body   []byte
}

// do sends r, retrying as retry.go says, and returns a 2xx answer; any
// other answer is an *APIError.
func (c *Client) do(ctx context.Context, r request) (*response, error) {
	var body []byte
	if r.body != nil {
		var err error
		if body, err = json.Marshal(r.body); err != nil {
			return nil, err
		}
	}
	u := c.base.String() + "/" + r.path
	if len(r.query) > 0 {
		u += "?" + r.query.Encode()
	}
	limit := cmp.Or(r.limit, maxResponseBytes)
	for attempt := 1; ; attempt++ {
		status, header, data, err := c.attempt(ctx, r.method, u, body, limit, cmp.Or(r.timeout, attemptTimeout))
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", r.method, r.path, c.mask(err))
		}
		if status/100 == 2 {
			if int64(len(data)) > limit {
				return nil, fmt.Errorf("%s %s: the answer is larger than the %d-byte limit", r.method, r.path, limit)
			}
			return &response{header: header, body: data}, nil
		}
		e := c.apiError(r, status, data)
		e.Attempts = attempt
		if attempt == maxAttempts {
			return nil, e
		}
		wait, again := retryable(r.method, status, header, attempt, c.now())
		if !again {
			return nil, e
		}
		if err := c.sleep(ctx, min(wait, maxWait)); err != nil {
			return nil, fmt.Errorf("%s %s: %w (waiting to retry after %s)", r.method, r.path, err, e.statusText())
		}
	}
}

// attempt sends one request, bounded by timeout, and reads at most
// limit+1 bytes of the answer.
func (c *Client) attempt(ctx context.Context, method, u string, body []byte, limit int64, timeout time.Duration) (int, http.Header, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return 0, nil, nil, fmt.Errorf("read the answer: %w", err)
	}
	return resp.StatusCode, resp.Header, data, nil
}

// APIError is an answer other than 2xx, after any retries.
type APIError struct {
	Method, Path string
	Status       int
	// Message is GitLab's message ("403 Forbidden", a validation error),
	// with the token masked should it appear.
	Message string
	// Scope is the token scope GitLab says the request needs, on an
	// insufficient_scope answer (e.g. "api").
	Scope string
	// Attempts is how many times the request was sent.
	Attempts int
}

func (e *APIError) Error() string {
	s := fmt.Sprintf("%s %s: %s", e.Method, e.Path, e.statusText())
	if e.Message != "" && e.Message != e.statusText() {
		s += ": " + e.Message
	}
	if e.Scope != "" {
		s += " (the token needs the " + e.Scope + " scope)"
	}
	if e.Attempts > 1 {
		s += fmt.Sprintf(" (after %d attempts)", e.Attempts)
	}
	return s
}

func (e *APIError) statusText() string {
	return fmt.Sprintf("%d %s", e.Status, http.StatusText(e.Status))
}

// apiError reads GitLab's error body: {"message": "..."} (a string, or
// an object of field errors), or an OAuth-style {"error", "error_description",
// "scope"}.
func (c *Client) apiError(r request, status int, data []byte) *APIError {
	e := &APIError{Method: r.method, Path: r.path, Status: status}
	var b struct {
		Message     json.RawMessage `json:"message"`
		Error       string          `json:"error"`
		Description string          `json:"error_description"`
		Scope       string          `json:"scope"`
	}
	if json.Unmarshal(data, &b) != nil {
		return e
	}
	var s string
	switch {
	case json.Unmarshal(b.Message, &s) == nil:
		e.Message = s
	case len(b.Message) > 0:
		var buf bytes.Buffer
		if json.Compact(&buf, b.Message) == nil {
			e.Message = buf.String()
		}
	case b.Error != "":
		e.Message = strings.TrimSuffix(b.Error+": "+b.Description, ": ")
	}
	e.Message = c.mask(errors.New(e.Message)).Error()
	if b.Error == "insufficient_scope" {
		e.Scope = b.Scope
	}
	return e
}

// mask replaces the token in err's text, should a server or a transport
// ever quote it; errors.Is and errors.As still see the error underneath.
func (c *Client) mask(err error) error {
	if c.token == "" || !strings.Contains(err.Error(), c.token) {
		return err
	}
	return &maskedError{msg: strings.ReplaceAll(err.Error(), c.token, "[masked]"), err: err}
}

type maskedError struct {
	msg string
	err error
}

func (e *maskedError) Error() string { return e.msg }
func (e *maskedError) Unwrap() error { return e.err }

// Forbidden reports whether err is GitLab refusing the token: 401 (no
// token, or one expired or revoked) or 403 (a scope or role that does not
// allow the request).
func Forbidden(err error) bool {
	var e *APIError
	return errors.As(err, &e) && (e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden)
}

// NeededScope is the token scope a refused request needed, when GitLab
// said ("api"); "" otherwise.
func NeededScope(err error) string {
	var e *APIError
	if errors.As(err, &e) {
		return e.Scope
	}
	return ""
}

// projectPath is the path of the project's resource rel, e.g.
// "projects/42/merge_requests/12/notes".
func (c *Client) projectPath(rel string) string { return "projects/" + c.project + "/" + rel }
