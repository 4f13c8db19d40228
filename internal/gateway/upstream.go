package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/ananke/action/internal/secret"
	"github.com/ananke/action/internal/sse"
)

// Bounds of what the upstream sends.
const (
	maxResponseBytes = 64 << 20
	maxEventBytes    = 16 << 20
)

// endpoint is the upstream's URL of a path under its base URL, which
// keeps its query (an api-version).
func (g *Gateway) endpoint(path string) string {
	u := *g.upstream
	u.Path = strings.TrimSuffix(u.Path, "/") + "/" + path
	u.RawPath = ""
	return u.String()
}

// authorize sets the upstream request's Authorization: the configured
// key, else the agent's own.
func (g *Gateway) authorize(out, in *http.Request) {
	if g.o.APIKey != "" {
		out.Header.Set("Authorization", "Bearer "+g.o.APIKey)
	} else if a := in.Header.Get("Authorization"); a != "" {
		out.Header.Set("Authorization", a)
	}
	out.Header.Set("User-Agent", "ananke-gateway")
}

// forward sends the request to the upstream and relays its answer,
// keeping the exchange in Record.
func (c *call) forward() {
	g := c.g
	ctx, cancel := context.WithTimeout(c.r.Context(), g.o.Timeout)
	defer cancel()
	out, err := http.NewRequestWithContext(ctx, http.MethodPost, g.endpoint("chat/completions"), bytes.NewReader(c.upstreamBody()))
	if err != nil {
		c.fail(http.StatusBadGateway, "upstream_error", "the upstream request could not be made: "+err.Error())
		return
	}
	out.Header.Set("Content-Type", "application/json")
	if a := c.r.Header.Get("Accept"); a != "" {
		out.Header.Set("Accept", a)
	}
	// The agent's trace context goes on, so the model's spans (a
	// provider's, a proxy's) nest under the agent's call
	// (docs/opentelemetry.md#trace-context).
	for _, k := range []string{"traceparent", "tracestate"} {
		if v := c.r.Header.Get(k); v != "" {
			out.Header.Set(k, v)
		}
	}
	g.authorize(out, c.r)
	resp, err := g.client.Do(out)
	if err != nil {
		c.upstreamFailed(ctx, err, "did not answer")
		return
	}
	defer resp.Body.Close()
	if isEventStream(resp.Header) {
		c.relayStream(ctx, resp)
	} else {
		c.relayBody(ctx, resp)
	}
}

// upstreamBody is the body forwarded upstream: the agent's, unless it
// asks for a stream without saying whether the stream should end with
// the usage (stream_options.include_usage). Then, unless
// Options.LeaveStreamOptions, it is the agent's request with
// stream_options.include_usage set to true — the OpenAI API's way to
// have a stream report its usage, in one more chunk before [DONE] whose
// choices are empty — so that the call's usage is known. Only the
// upstream sees the change: the fingerprint and the recording are of
// the agent's request.
func (c *call) upstreamBody() []byte {
	if c.g.o.LeaveStreamOptions || !c.mc.Stream {
		return c.body
	}
	opts, ok := c.req["stream_options"].(map[string]any)
	switch {
	case ok:
		if _, set := opts["include_usage"]; set {
			return c.body
		}
	case c.req["stream_options"] != nil:
		return c.body // not an object: the upstream says what is wrong
	}
	req := clone(c.req).(map[string]any)
	opts, _ = req["stream_options"].(map[string]any)
	if opts == nil {
		opts = map[string]any{}
		req["stream_options"] = opts
	}
	opts["include_usage"] = true
	return canonical(req)
}

// isEventStream reports whether an answer is an event stream.
func isEventStream(h http.Header) bool {
	mt, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
	return mt == "text/event-stream"
}

// upstreamFailed answers the agent when the upstream failed before the
// answer started: 504 when it took longer than the timeout, 502
// otherwise; nothing when the agent gave up first.
func (c *call) upstreamFailed(ctx context.Context, err error, what string) {
	switch {
	case c.r.Context().Err() != nil:
		c.mc.Note = "the agent closed the request before the upstream answered"
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		c.fail(http.StatusGatewayTimeout, "upstream_timeout", fmt.Sprintf("the upstream %s within %s (gateway.timeout_ms)", what, c.g.o.Timeout))
	default:
		c.fail(http.StatusBadGateway, "upstream_error", fmt.Sprintf("the upstream %s: %s", what, describeErr(err)))
	}
}

// describeErr says what a client error was, naming the URL without its
// credentials.
func describeErr(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Op + " " + secret.URL(ue.URL) + ": " + ue.Err.Error()
	}
	return err.Error()
}

// relayBody relays an answer that is not a stream.
func (c *call) relayBody(ctx context.Context, resp *http.Response) {
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	if err != nil {
		c.upstreamFailed(ctx, err, "broke off its answer")
		return
	}
	if len(body) > maxResponseBytes {
		c.fail(http.StatusBadGateway, "upstream_error", "the upstream's answer is over 64 MiB")
		return
	}
	h := c.w.Header()
	h.Set("Content-Type", resp.Header.Get("Content-Type"))
	retry := resp.Header.Get("Retry-After")
	if retry != "" {
		h.Set("Retry-After", retry)
	}
	c.w.WriteHeader(resp.StatusCode)
	_, _ = c.w.Write(body)
	c.answered(resp.StatusCode, [][]byte{body}, true)
	c.record(Exchange{Status: resp.StatusCode, RetryAfter: retry, Body: keep(c.g.maskBytes(body))})
}

// relayStream relays an event stream chunk by chunk; a stream that
// breaks is cut on the agent's side too.
func (c *call) relayStream(ctx context.Context, resp *http.Response) {
	startStream(c.w, resp.StatusCode)
	r := sse.NewReader(resp.Body, maxEventBytes)
	defer r.Release()
	var chunks [][]byte
	sawDone := false
	for {
		data, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			c.mc.Status = resp.StatusCode
			c.answered(resp.StatusCode, chunks, false)
			if c.r.Context().Err() != nil {
				c.mc.Note = fmt.Sprintf("the agent closed the stream after %d chunks", len(chunks))
				return
			}
			c.mc.Error = fmt.Sprintf("the upstream's stream broke after %d chunks: %s", len(chunks), streamErr(ctx, err, c.g.o.Timeout))
			c.abort = true
			return
		}
		switch {
		case len(data) == 0:
			continue // an event without data (an event name, an id)
		case string(data) == done:
			sawDone = true
		default:
			chunks = append(chunks, bytes.Clone(data))
		}
		if err := writeEvent(c.w, data); err != nil {
			c.answered(resp.StatusCode, chunks, false)
			c.mc.Note = fmt.Sprintf("the agent closed the stream after %d chunks", len(chunks))
			return
		}
	}
	c.answered(resp.StatusCode, chunks, true)
	kept := make([]json.RawMessage, len(chunks))
	for i, ch := range chunks {
		kept[i] = keep(c.g.maskBytes(ch))
	}
	c.record(Exchange{Status: resp.StatusCode, Stream: true, Chunks: kept, Done: sawDone})
}

// streamErr says why a stream broke.
func streamErr(ctx context.Context, err error, timeout time.Duration) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Sprintf("it did not end within %s (gateway.timeout_ms)", timeout)
	}
	return describeErr(err)
}

// answered notes on the model call what the answer said: its status,
// model, usage, finish and tool calls; an error answer's message.
func (c *call) answered(status int, parts [][]byte, whole bool) {
	var a answer
	for _, p := range parts {
		a.read(p)
	}
	c.mc.Status = status
	c.mc.ResponseModel = a.model
	model := a.model
	if model == "" {
		model = c.mc.Model
	}
	c.mc.Usage = a.usage.Usage(model)
	c.mc.FinishReason = a.finishReason
	c.mc.ToolCalls = a.toolCalls
	if status >= 400 && whole && len(parts) == 1 {
		c.mc.Note = "the upstream answered " + errorOf(status, parts[0])
	}
}

// record keeps the exchange, in Record, when the call belongs to an
// attempt.
func (c *call) record(e Exchange) {
	if c.g.o.Mode != Record || c.bd == nil {
		return
	}
	e.Attempt = c.g.attemptOf(c.bd).n
	e.Turn = c.turn
	e.Request = canonical(normalize(c.req, c.g.o.Ignore))
	c.g.keep(c.bd.TestID, e)
}
