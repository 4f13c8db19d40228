package github

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	gh "github.com/google/go-github/v66/github"

	"github.com/ananke/action/internal/deadline"
)

// Client publishes to one repository.
type Client struct {
	gh *gh.Client
	// blob fetches from pre-signed storage URLs: the same transport and
	// retries, but no token (the URL's signature is the credential) and a
	// longer bound per attempt for a whole artifact.
	blob        *http.Client
	owner, repo string
	now         func() time.Time
}

// ClientOptions configure NewClient.
type ClientOptions struct {
	// HTTP is the underlying client (nil: http.DefaultClient's transport).
	// Each request is bounded by its own timeout; do not set
	// http.Client.Timeout (see closeOnEOF).
	HTTP *http.Client
	// Sleep waits between retries (nil: a context-aware sleep).
	Sleep func(context.Context, time.Duration) error
	// Now is the run's clock: a check run's completion time, and how long
	// until a rate limit's reset. Required: only internal/cli reads the
	// process's clock.
	Now func() time.Time
}

// NewClient returns a client for c's repository at c.APIURL, authenticated
// with token.
func NewClient(c *Context, token string, o ClientOptions) (*Client, error) {
	if o.Now == nil {
		return nil, errors.New("github client: no clock (ClientOptions.Now)")
	}
	hc := o.HTTP
	if hc == nil {
		hc = &http.Client{}
	}
	sleep := o.Sleep
	if sleep == nil {
		sleep = deadline.Sleep
	}
	next := hc.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	withRetry := *hc
	withRetry.Transport = &retrier{next: next, sleep: sleep, now: o.Now}
	client := gh.NewClient(&withRetry).WithAuthToken(token) // wraps a copy: withRetry stays without the token
	blob := &http.Client{Transport: &retrier{next: next, sleep: sleep, now: o.Now, timeout: blobAttemptTimeout}}
	base, err := url.Parse(c.APIURL + "/") // go-github needs the trailing slash
	if err != nil {
		return nil, fmt.Errorf("parse GITHUB_API_URL %q: %w", c.APIURL, err)
	}
	client.BaseURL = base
	return &Client{gh: client, blob: blob, owner: c.Owner, repo: c.Repo, now: o.Now}, nil
}

// Forbidden reports whether err is GitHub refusing the token: a fork pull
// request's read-only token answers 403 "Resource not accessible by
// integration", and GitHub answers 404 for what a token may not see. Rate
// limits are retried before they get here.
func Forbidden(err error) bool {
	var er *gh.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		return er.Response.StatusCode == http.StatusForbidden || er.Response.StatusCode == http.StatusNotFound
	}
	return false
}
