package model

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/ananke/action/internal/secret"
)

// Defaults for the zero values of Config.
const (
	// defaultTimeout bounds one request attempt. Chat completions of the size
	// a simulator or judge asks for take seconds; a minute leaves room for a
	// slow local model without letting a dead server stall a run.
	defaultTimeout = 60 * time.Second
	// defaultMaxRetries matches the official OpenAI SDKs' default.
	defaultMaxRetries = 2
	// defaultMaxRetryWait caps one wait between attempts, whatever the server
	// asks for in Retry-After, so a run never sleeps for minutes.
	defaultMaxRetryWait = 30 * time.Second
)

// Config is the config's model section, resolved.
type Config struct {
	Endpoint    string   // base URL, e.g. https://api.openai.com/v1
	Name        string   // model name
	APIKey      string   // may be empty (local servers); a secret: never in any error or log
	Temperature *float64 // nil: the server's default
	Seed        *int64   // nil: none

	Timeout  time.Duration // per request attempt; 0: 60s
	CacheDir string        // "": no cache
	HTTP     *http.Client  // nil: a client of the package's own

	MaxRetries   int           // for 429, 5xx and network errors; 0 means the default 2; negative: none
	MaxRetryWait time.Duration // cap on one wait (Retry-After or backoff); 0: 30s

	// Sleep waits between attempts; nil: a real, cancellable sleep. Tests
	// inject a fake so that retries run instantly.
	Sleep func(ctx context.Context, d time.Duration) error
}

// parseEndpoint checks that the endpoint is an absolute http(s) URL that
// "/chat/completions" can be joined to. A query or fragment would be dropped
// silently by that join, so they are refused rather than ignored.
func parseEndpoint(endpoint string) (*url.URL, error) {
	endpoint = strings.TrimSpace(endpoint)
	if endpoint == "" {
		return nil, errors.New("model.endpoint is empty")
	}
	u, err := url.Parse(endpoint)
	if err != nil {
		// url.Error repeats the raw URL, which may hold credentials.
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err
		}
		return nil, fmt.Errorf("model.endpoint is not a valid URL: %w", err)
	}
	switch {
	case (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return nil, fmt.Errorf("model.endpoint %q: want an http:// or https:// URL", secret.URL(u.String()))
	case u.RawQuery != "" || u.ForceQuery:
		return nil, fmt.Errorf("model.endpoint %q: query parameters are not supported", secret.URL(u.String()))
	case u.Fragment != "":
		return nil, fmt.Errorf("model.endpoint %q: a fragment is not supported", secret.URL(u.String()))
	}
	return u, nil
}

// httpClient returns a copy of the configured client (or a new one) that
// refuses redirects: a redirect would send the conversation, and with some
// clients the key, somewhere other than the configured endpoint.
func httpClient(hc *http.Client) *http.Client {
	var c http.Client
	if hc != nil {
		c = *hc
	} else {
		t := http.DefaultTransport.(*http.Transport).Clone()
		// Only internal/cli reads the environment; it passes Config.HTTP
		// when a proxy is wanted.
		t.Proxy = nil
		c.Transport = t
	}
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &c
}

// realSleep waits d or until ctx is done.
func realSleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
