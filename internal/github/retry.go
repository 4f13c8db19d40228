package github

import (
	"bytes"
	"cmp"
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Retry policy: GitHub asks clients to wait as long as Retry-After says
// after a rate limit. Ananke waits at most maxWait per attempt and tries at
// most maxAttempts times, so a rate-limited publish delays the job by
// minutes, not hours; publishing problems never change the verdict.
const (
	maxAttempts = 4
	maxWait     = 60 * time.Second
	defaultWait = 5 * time.Second
	// serverErrorWait is the first wait after a 5xx, doubled on each retry.
	serverErrorWait = 2 * time.Second
	// attemptTimeout bounds one request, body included.
	attemptTimeout = 30 * time.Second
)

// retrier retries requests GitHub rejected for rate limiting. Such a
// request was not acted on, so even a POST is safe to send again. It also
// retries reads (GET, HEAD) that met a passing server error (500, 502,
// 503, 504); a write that met one may have been acted on, and is not sent
// twice.
type retrier struct {
	next  http.RoundTripper
	sleep func(context.Context, time.Duration) error
	now   func() time.Time
	// timeout bounds one attempt, body included (0: attemptTimeout).
	timeout time.Duration
}

func (r *retrier) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		req.Body.Close()
	}
	orig := req
	for attempt := 1; ; attempt++ {
		ctx, cancel := context.WithTimeout(orig.Context(), cmp.Or(r.timeout, attemptTimeout))
		req := orig.WithContext(ctx)
		if body != nil {
			req.Body = io.NopCloser(bytes.NewReader(body))
		}
		resp, err := r.next.RoundTrip(req)
		if err != nil {
			cancel()
			return resp, err
		}
		resp.Body = &closeOnEOF{rc: resp.Body, done: cancel}
		if attempt == maxAttempts {
			return resp, nil
		}
		wait, again := rateLimited(resp, r.now())
		if !again {
			wait, again = serverError(req, resp, attempt)
		}
		if !again {
			return resp, nil
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err := r.sleep(orig.Context(), min(wait, maxWait)); err != nil {
			return nil, err
		}
	}
}

// rateLimited reports whether resp is a rate limit (429, or 403 with
// Retry-After, an exhausted quota or the secondary-limit message) and how
// long to wait.
func rateLimited(resp *http.Response, now time.Time) (time.Duration, bool) {
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusForbidden {
		return 0, false
	}
	if s := resp.Header.Get("Retry-After"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n >= 0 {
			return time.Duration(n) * time.Second, true
		}
	}
	if resp.Header.Get("X-RateLimit-Remaining") == "0" {
		if reset, err := strconv.ParseInt(resp.Header.Get("X-RateLimit-Reset"), 10, 64); err == nil {
			return time.Unix(reset, 0).Sub(now), true
		}
	}
	if resp.StatusCode == http.StatusTooManyRequests || secondary(resp) {
		return defaultWait, true
	}
	return 0, false
}

// serverError reports whether resp is a passing server error on a read,
// worth another attempt, and how long to wait before it.
func serverError(req *http.Request, resp *http.Response, attempt int) (time.Duration, bool) {
	if req.Method != http.MethodGet && req.Method != http.MethodHead {
		return 0, false
	}
	switch resp.StatusCode {
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return serverErrorWait << (attempt - 1), true
	}
	return 0, false
}

// secondary peeks at a 403's body for GitHub's secondary-rate-limit text,
// leaving the body readable — and closable: the original body must still
// be closed, or its connection and goroutine leak.
func secondary(resp *http.Response) bool {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	resp.Body = peeked{Reader: io.MultiReader(bytes.NewReader(b), resp.Body), Closer: resp.Body}
	return strings.Contains(strings.ToLower(string(b)), "secondary rate limit")
}

// closeOnEOF closes a response body (and ends its attempt's context) as
// soon as it has been read to the end. go-github v66's CheckResponse reads
// an error response's body and replaces it with a NopCloser, so the
// original is never closed; an http.Client.Timeout would then keep a timer
// goroutine alive until it fires — hence the per-attempt context instead.
type closeOnEOF struct {
	rc     io.ReadCloser
	done   context.CancelFunc
	closed bool
}

func (b *closeOnEOF) Read(p []byte) (int, error) {
	if b.closed {
		// Still at the end: secondary's peek may have read to EOF, closing
		// the body, and a MultiReader reads once more after its prefix.
		return 0, io.EOF
	}
	n, err := b.rc.Read(p)
	if err == io.EOF {
		b.Close()
	}
	return n, err
}

func (b *closeOnEOF) Close() error {
	if b.closed {
		return nil
	}
	b.closed = true
	err := b.rc.Close()
	b.done()
	return err
}

// peeked is a body whose start was read ahead.
type peeked struct {
	io.Reader
	io.Closer
}
