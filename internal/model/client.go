package model

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/ananke/action/internal/secret"
)

// Client calls the configured model. It is safe for concurrent use.
type Client struct {
	name     string
	display  string // the endpoint for messages, password masked
	cacheURL string // the endpoint as it enters cache keys
	apiKey   string // kept only to redact it from errors

	temperature *float64
	seed        *int64

	timeout    time.Duration
	maxRetries int
	maxWait    time.Duration
	sleep      func(context.Context, time.Duration) error
	now        func() time.Time

	http  *http.Client
	cache *cache // nil: no cache

	mu    sync.Mutex
	usage Usage
}

// New returns a client for cfg after checking the endpoint (an http or https
// URL) and the model name.
func New(cfg Config) (*Client, error) {
	u, err := parseEndpoint(cfg.Endpoint)
	if err != nil {
		return nil, err
	}
	name := strings.TrimSpace(cfg.Name)
	if name == "" {
		return nil, errors.New("model.name is empty")
	}
	c := &Client{
		name:       name,
		display:    secret.URL(strings.TrimSuffix(u.String(), "/")),
		cacheURL:   strings.TrimSuffix(u.String(), "/"),
		apiKey:     cfg.APIKey,
		timeout:    orDefault(cfg.Timeout, defaultTimeout),
		maxWait:    orDefault(cfg.MaxRetryWait, defaultMaxRetryWait),
		maxRetries: cfg.MaxRetries,
		sleep:      cfg.Sleep,
		now:        time.Now,
		http:       httpClient(cfg.HTTP),
	}
	switch {
	case cfg.MaxRetries == 0:
		c.maxRetries = defaultMaxRetries
	case cfg.MaxRetries < 0:
		c.maxRetries = 0
	}
	if c.sleep == nil {
		c.sleep = realSleep
	}
	if cfg.Temperature != nil {
		t := *cfg.Temperature
		c.temperature = &t
	}
	if cfg.Seed != nil {
		s := *cfg.Seed
		c.seed = &s
	}
	if cfg.CacheDir != "" {
		c.cache = &cache{dir: cfg.CacheDir}
	}
	return c, nil
}

// Complete sends req to the model, or answers it from the cache. On error the
// Reply still carries the usage of the call (requests sent, tokens of a
// malformed reply); on a KindCache error, and on an answer to a request
// with a schema that is not JSON (errors.Is ErrNotJSON), it also carries
// the content.
func (c *Client) Complete(ctx context.Context, req Request) (Reply, error) {
	params, err := c.params(req)
	if err != nil {
		return Reply{}, err
	}
	var key string
	if c.cache != nil {
		if key, err = c.cacheKey(req); err != nil {
			return Reply{}, err
		}
		if content, ok := c.cache.load(key, req.Schema != nil); ok {
			reply := Reply{Content: content, Usage: Usage{CacheHits: 1}}
			c.add(reply.Usage)
			return reply, nil
		}
	}
	reply, err := c.send(ctx, params, req.Schema != nil)
	c.add(reply.Usage)
	if err != nil || c.cache == nil {
		return reply, err
	}
	entry := cacheEntry{Content: reply.Content, PromptTokens: reply.Usage.PromptTokens, CompletionTokens: reply.Usage.CompletionTokens}
	if err := c.cache.store(key, entry); err != nil {
		return reply, c.newError(&failure{kind: KindCache, detail: "cache: " + err.Error(), err: err}, reply.Usage.Requests)
	}
	return reply, nil
}

// Usage returns the total over every Complete so far.
func (c *Client) Usage() Usage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.usage
}

// CloseIdleConnections closes the client's idle keep-alive connections, as
// http.Client's method does; the Client stays usable. Tests call it before
// checking for leaked goroutines.
func (c *Client) CloseIdleConnections() { c.http.CloseIdleConnections() }

func (c *Client) add(u Usage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.usage.Add(u)
}

// orDefault returns v, or def when v is not positive.
func orDefault(v, def time.Duration) time.Duration {
	if v <= 0 {
		return def
	}
	return v
}

// Name is the model's name, as the config's model.name gives it: what a
// judge's verdicts are recorded under (docs/judges.md).
func (c *Client) Name() string { return c.name }
