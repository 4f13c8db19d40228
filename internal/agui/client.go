package agui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"
)

// DefaultMaxEventSize bounds one SSE event. A common default (64 KiB) is too
// small for real tool results; the official client tolerates 10 MB.
const DefaultMaxEventSize = 32 << 20

// bodyExcerpt bounds how much of an error response is kept.
const bodyExcerpt = 2048

// Client posts runs to one AG-UI endpoint.
type Client struct {
	Endpoint string
	// Header is sent with every request (e.g. Authorization).
	Header http.Header
	// HTTP is the client used; nil means http.DefaultClient. Runs are
	// bounded by their context, not by HTTP.Timeout.
	HTTP *http.Client
	// MaxEventSize bounds one SSE event; 0 means DefaultMaxEventSize.
	MaxEventSize int
	// Strict turns every Must warning into an error.
	Strict bool
	// Now reads the clock for receive times; nil means time.Now.
	Now func() time.Time
}

// TransportError is a failure to exchange the run with the agent at all:
// the agent's behaviour could not be judged.
type TransportError struct {
	Op     string // "request", "status", "content-type", "read", "event-size", "timeout", "cancelled"
	Status int
	Body   string // excerpt of an error response
	Err    error
}

func (e *TransportError) Error() string {
	switch e.Op {
	case "status":
		return fmt.Sprintf("the agent answered HTTP %d%s", e.Status, bodySuffix(e.Body))
	case "content-type":
		return fmt.Sprintf("the agent answered with %v, not an event stream%s", e.Err, bodySuffix(e.Body))
	case "timeout":
		return fmt.Sprintf("the run timed out: %v", e.Err)
	case "cancelled":
		return "the run was cancelled"
	case "event-size":
		return e.Err.Error()
	case "read":
		return fmt.Sprintf("reading the event stream: %v", e.Err)
	}
	return e.Err.Error()
}

func (e *TransportError) Unwrap() error { return e.Err }

func bodySuffix(body string) string {
	if body = strings.TrimSpace(body); body == "" {
		return " with an empty body"
	}
	return ": " + body
}

// post sends the request and checks the response's status and type.
func (c *Client) post(ctx context.Context, in *RunAgentInput) (*http.Response, []byte, error) {
	body, err := json.Marshal(in)
	if err != nil {
		return nil, nil, fmt.Errorf("encode run input: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, body, &TransportError{Op: "request", Err: err}
	}
	for k, vs := range c.Header {
		req.Header[k] = vs
	}
	req.Header.Set("Content-Type", "application/json")
	// Never */*: a producer may then answer protobuf (agui-protocol.md §3).
	req.Header.Set("Accept", "text/event-stream")
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, body, ctxErr(ctx, &TransportError{Op: "request", Err: unwrapURL(err)})
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer resp.Body.Close()
		return nil, body, ctxErr(ctx, &TransportError{Op: "status", Status: resp.StatusCode, Body: readExcerpt(resp.Body)})
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if mt != "text/event-stream" {
		defer resp.Body.Close()
		got := "no Content-Type"
		if ct := resp.Header.Get("Content-Type"); ct != "" {
			got = "Content-Type " + ct
		}
		return nil, body, &TransportError{Op: "content-type", Status: resp.StatusCode, Body: readExcerpt(resp.Body), Err: errors.New(got)}
	}
	return resp, body, nil
}

func readExcerpt(r io.Reader) string {
	b, _ := io.ReadAll(io.LimitReader(r, bodyExcerpt))
	return strings.ToValidUTF8(string(b), "�")
}

// unwrapURL drops net/http's `Post "url": ` prefix when the cause is
// clearer alone (the caller names the endpoint).
func unwrapURL(err error) error {
	var ue interface{ Unwrap() error }
	if errors.As(err, &ue) {
		if inner := ue.Unwrap(); inner != nil {
			return inner
		}
	}
	return err
}

// ctxErr turns an error caused by the run's context into a timeout or a
// cancellation.
func ctxErr(ctx context.Context, err error) error {
	switch {
	case ctx.Err() == nil:
		return err
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(context.Cause(ctx), context.DeadlineExceeded):
		return &TransportError{Op: "timeout", Err: context.Cause(ctx)}
	default:
		return &TransportError{Op: "cancelled", Err: context.Cause(ctx)}
	}
}
