package mcp

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
)

// roundTripper adds the configured headers to every request of an HTTP
// session, taps the JSON-RPC messages of requests and responses into the
// wire, and remembers the last failing HTTP status for Dial's errors (the
// SDK names it by its text only).
type roundTripper struct {
	base    http.RoundTripper
	headers http.Header
	wire    *wire

	mu     sync.Mutex
	status string // the last response status outside 2xx, e.g. "404 Not Found"

	// bound ends the requests of the handshake and of closing with them.
	bound bound
}

func (rt *roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	req, release := rt.bound.tie(req.Clone(req.Context()))
	resp, err := rt.roundTrip(req)
	if err != nil {
		release()
		return nil, err
	}
	resp.Body = &releaseBody{ReadCloser: resp.Body, release: release}
	return resp, nil
}

func (rt *roundTripper) roundTrip(req *http.Request) (*http.Response, error) {
	for k, vs := range rt.headers {
		req.Header.Del(k)
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	if req.Method == http.MethodPost && req.Body != nil {
		body, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		rt.wire.out(body)
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	resp, err := rt.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		rt.mu.Lock()
		rt.status = resp.Status
		rt.mu.Unlock()
		if ct == "application/json" {
			// A JSON-RPC error can come with a status outside 2xx (400 for
			// -32602 at protocol 2026-07-28): it is the server's answer to
			// the request, and the status no failure of the session.
			status := resp.Status
			resp.Body = &bodyTap{r: resp.Body, whole: true, wire: rt.wire, answered: func() { rt.clearStatus(status) }}
		}
		return resp, nil
	}
	switch ct {
	case "application/json":
		resp.Body = &bodyTap{r: resp.Body, whole: true, wire: rt.wire}
	case "text/event-stream":
		b := &bodyTap{r: resp.Body, wire: rt.wire}
		b.lines.fn = b.sseLine
		resp.Body = b
	}
	return resp, nil
}

// lastStatus returns the last status outside 2xx, "" if none.
func (rt *roundTripper) lastStatus() string {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.status
}

// clearStatus forgets status, unless another one came since.
func (rt *roundTripper) clearStatus(status string) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.status == status {
		rt.status = ""
	}
}

// bodyTap taps the messages of a response body: the whole body (JSON), or
// the data of each server-sent event.
type bodyTap struct {
	r     io.ReadCloser
	wire  *wire
	whole bool
	// answered, when set, is called once the whole body answered a request
	// a turn records.
	answered func()
	buf      bytes.Buffer // whole: the body so far
	lines    lineTap      // an event stream's lines
	data     bytes.Buffer // the data of the event being read
	event    string       // its type
}

func (b *bodyTap) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	switch {
	case !b.whole:
		b.lines.feed(p[:n])
	case b.buf.Len()+n <= maxLine:
		b.buf.Write(p[:n])
	}
	if err == io.EOF && b.whole && b.buf.Len() > 0 {
		if b.wire.in(b.buf.Bytes()) > 0 && b.answered != nil {
			b.answered()
		}
		b.buf.Reset()
	}
	return n, err
}

func (b *bodyTap) Close() error { return b.r.Close() }

// sseLine reads one line of an event stream
// (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation).
// Only "message" events carry JSON-RPC; the legacy transport's "endpoint"
// event carries a URL.
func (b *bodyTap) sseLine(line []byte) {
	line = bytes.TrimSuffix(line, []byte("\r"))
	if len(line) == 0 {
		if b.data.Len() > 0 && (b.event == "" || b.event == "message") {
			b.wire.in(b.data.Bytes())
		}
		b.data.Reset()
		b.event = ""
		return
	}
	field, value, _ := strings.Cut(string(line), ":")
	value = strings.TrimPrefix(value, " ")
	switch field {
	case "data":
		if b.data.Len() > 0 {
			b.data.WriteByte('\n')
		}
		b.data.WriteString(value)
	case "event":
		b.event = value
	}
}

// httpClient returns a copy of base (nil: the default client) whose
// requests go through rt.
func httpClient(base *http.Client, rt *roundTripper) *http.Client {
	c := &http.Client{}
	if base != nil {
		*c = *base
	}
	rt.base = c.Transport
	if rt.base == nil {
		rt.base = http.DefaultTransport
	}
	c.Transport = rt
	return c
}

// statusHint returns ": HTTP <status>" for an error, or "".
func statusHint(rt *roundTripper) string {
	if s := rt.lastStatus(); s != "" {
		return fmt.Sprintf(" (HTTP %s)", s)
	}
	return ""
}
