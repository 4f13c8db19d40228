package model

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"syscall"
	"time"
)

// initialBackoff is the first wait before a retry when the server gives no
// Retry-After; each further wait doubles, up to Config.MaxRetryWait.
const initialBackoff = 500 * time.Millisecond

// failure is what went wrong in one attempt, before it becomes an *Error.
type failure struct {
	kind          Kind
	status        int
	detail        string
	err           error
	retryAfter    time.Duration
	hasRetryAfter bool
}

// retryable reports whether another attempt may succeed: rate limits,
// server errors and network errors pass. A timed-out attempt is not retried:
// a server that gave no answer within Config.Timeout rarely answers the next
// time, and retrying would multiply the wait.
func (f *failure) retryable() bool {
	return f.kind == KindRateLimited || f.kind == KindServer || f.kind == KindUnreachable
}

// send makes up to 1+maxRetries attempts and turns the completion into a
// Reply.
func (c *Client) send(ctx context.Context, params chatRequest, structured bool) (Reply, error) {
	body, err := json.Marshal(params)
	if err != nil {
		return Reply{}, fmt.Errorf("encode the model request: %w", err)
	}
	var usage Usage
	for retry := 0; ; retry++ {
		if err := ctx.Err(); err != nil {
			return Reply{Usage: usage}, c.newError(canceled(ctx), usage.Requests)
		}
		usage.Requests++
		comp, f := c.attempt(ctx, body)
		if f == nil {
			return c.reply(comp, structured, usage)
		}
		if !f.retryable() || retry >= c.maxRetries {
			return Reply{Usage: usage}, c.newError(f, usage.Requests)
		}
		if err := c.sleep(ctx, c.wait(f, retry)); err != nil {
			if ctx.Err() == nil { // a fake Sleep's own error
				return Reply{Usage: usage}, c.newError(&failure{kind: KindCanceled, detail: err.Error(), err: err}, usage.Requests)
			}
			return Reply{Usage: usage}, c.newError(canceled(ctx), usage.Requests)
		}
	}
}

// wait is how long to sleep before retry number retry+1: what the server
// asked for, else exponential backoff; capped either way.
func (c *Client) wait(f *failure, retry int) time.Duration {
	if f.hasRetryAfter {
		return min(f.retryAfter, c.maxWait)
	}
	d := initialBackoff
	for range retry {
		if d >= c.maxWait {
			break
		}
		d *= 2
	}
	return min(d, c.maxWait)
}

// attempt sends one request, bounded by Config.Timeout.
func (c *Client) attempt(ctx context.Context, body []byte) (*chatCompletion, *failure) {
	actx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	comp, res, errBody, err := c.post(actx, body)
	switch {
	case err == nil && res != nil && (res.StatusCode < 200 || res.StatusCode > 299):
		return nil, httpFailure(res, errBody, c.now())
	case err == nil:
		return comp, nil
	case ctx.Err() != nil:
		return nil, canceled(ctx)
	case errors.Is(actx.Err(), context.DeadlineExceeded):
		return nil, &failure{kind: KindTimeout, err: context.DeadlineExceeded}
	case isNetwork(err):
		return nil, &failure{kind: KindUnreachable, detail: networkReason(err), err: err}
	default:
		return nil, &failure{kind: KindMalformed, detail: "the reply is not a chat completion: " + err.Error(), err: err}
	}
}

// reply checks the completion is what was asked for.
func (c *Client) reply(comp *chatCompletion, structured bool, usage Usage) (Reply, error) {
	if comp.Usage != nil {
		usage.PromptTokens = comp.Usage.PromptTokens
		usage.CompletionTokens = comp.Usage.CompletionTokens
	} else {
		usage.Unreported++
	}
	r := Reply{Usage: usage}
	if len(comp.Choices) == 0 {
		return r, c.newError(&failure{kind: KindMalformed, detail: "the reply has no choices"}, usage.Requests)
	}
	msg := comp.Choices[0].Message
	if msg.Content == "" && msg.Refusal != "" {
		return r, c.newError(&failure{kind: KindMalformed, detail: "the model refused: " + truncate(msg.Refusal)}, usage.Requests)
	}
	if err := checkContent(msg.Content, structured); err != nil {
		if errors.Is(err, ErrNotJSON) {
			// Returned with the error, so that CompleteJSON can show the
			// model its answer and ask once more.
			r.Content = msg.Content
		}
		return r, c.newError(&failure{kind: KindMalformed, detail: err.Error(), err: err}, usage.Requests)
	}
	r.Content = msg.Content
	return r, nil
}

// ErrNotJSON is the cause of a KindMalformed error for a reply to a request
// with a schema whose content is not JSON (or is empty): an answer that
// does not fit, which CompleteJSON asks for once more. The Reply returned
// with it carries the content.
var ErrNotJSON = errors.New("the reply is not JSON")

// checkContent applies what the caller relies on: some content, and JSON
// when a schema was sent. Cached entries go through it too.
func checkContent(content string, structured bool) error {
	switch {
	case content == "" && structured:
		return fmt.Errorf("%w: it is empty", ErrNotJSON)
	case content == "":
		return errors.New("the reply is empty")
	case structured:
		var v any
		if err := json.Unmarshal([]byte(content), &v); err != nil {
			return fmt.Errorf("%w: %w", ErrNotJSON, err)
		}
	}
	return nil
}

func canceled(ctx context.Context) *failure {
	err := context.Cause(ctx)
	return &failure{kind: KindCanceled, detail: err.Error(), err: err}
}

// isNetwork reports whether err happened below HTTP: http.Client returns
// transport errors as *url.Error, and body reads fail with net errors.
func isNetwork(err error) bool {
	var uerr *url.Error
	var nerr net.Error
	return errors.As(err, &uerr) || errors.As(err, &nerr)
}

// networkReason is the short cause of a network error, e.g. "connection
// refused", rather than the whole "Post \"…\": dial tcp …: connect: …" chain.
func networkReason(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return fmt.Sprintf("lookup %s: %s", dns.Name, dns.Err)
	}
	var uerr *url.Error
	if errors.As(err, &uerr) {
		return uerr.Err.Error()
	}
	return err.Error()
}
