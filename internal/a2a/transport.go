package a2a

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"sync"
)

// captureLimit bounds the part of a response body kept to explain a
// failure: a JSON-RPC error is small.
const captureLimit = 64 << 10

// transport adds the session's headers and credential to every request,
// and keeps the start of every response that is not an event stream, so
// that a failed call can name the JSON-RPC error the SDK folds into a
// generic one.
type transport struct {
	base    http.RoundTripper
	headers http.Header
	auth    *Auth
	// tokens gets an OAuth2 Auth's token; nil until the card, which names
	// the token endpoint, is read (the card's request carries none).
	tokens *tokens
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	// A clone: the caller's request, and so the URL its errors show,
	// never carries the credential.
	r := req.Clone(req.Context())
	for k, vs := range t.headers {
		r.Header[http.CanonicalHeaderKey(k)] = append([]string(nil), vs...)
	}
	if a := t.auth; a != nil {
		switch {
		case a.Scheme == SchemeOAuth2:
			if t.tokens != nil {
				token, err := t.tokens.get(req.Context())
				if err != nil {
					return nil, err
				}
				r.Header.Set("Authorization", "Bearer "+token)
			}
		case a.Scheme == SchemeBearer:
			r.Header.Set("Authorization", "Bearer "+a.Token)
		case a.In == "query":
			q := r.URL.Query()
			q.Set(a.Name, a.Value)
			r.URL.RawQuery = q.Encode()
		default:
			r.Header.Set(a.Name, a.Value)
		}
	}
	resp, err := t.base.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	if c, _ := req.Context().Value(captureKey{}).(*capture); c != nil {
		c.observe(resp)
	}
	return resp, nil
}

// CloseIdleConnections closes the base transport's idle connections.
func (t *transport) CloseIdleConnections() {
	if c, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

type captureKey struct{}

// capture is what a turn's last HTTP response was.
type capture struct {
	mu     sync.Mutex
	status int
	stream bool // an event stream
	body   bytes.Buffer
}

func withCapture(ctx context.Context, c *capture) context.Context {
	return context.WithValue(ctx, captureKey{}, c)
}

func (c *capture) observe(resp *http.Response) {
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	c.mu.Lock()
	defer c.mu.Unlock()
	c.status, c.stream = resp.StatusCode, mt == "text/event-stream"
	c.body.Reset()
	if !c.stream {
		resp.Body = &teeBody{ReadCloser: resp.Body, c: c}
	}
}

// teeBody copies what is read of a body into its capture, up to the limit.
type teeBody struct {
	io.ReadCloser
	c *capture
}

func (b *teeBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.c.mu.Lock()
	if room := captureLimit - b.c.body.Len(); room > 0 {
		b.c.body.Write(p[:min(n, room)])
	}
	b.c.mu.Unlock()
	return n, err
}

// RPCError is a JSON-RPC error the agent answered.
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// last returns the last response's status, whether it was an event stream,
// and the JSON-RPC error its body held, if any.
func (c *capture) last() (status int, stream bool, rpc *RPCError, raw json.RawMessage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var resp struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(c.body.Bytes(), &resp) == nil && len(resp.Error) > 0 && string(resp.Error) != "null" {
		var e RPCError
		if json.Unmarshal(resp.Error, &e) == nil {
			rpc, raw = &e, resp.Error
		}
	}
	return c.status, c.stream, rpc, raw
}
