package artifact

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Retry policy of actions/toolkit's artifact client
// (packages/artifact/src/internal/shared/artifact-twirp-client.ts): five
// attempts, the first wait 3 s, each next one 1.5 times longer. The
// toolkit adds jitter; one uploader per job has no herd to spread, and
// fixed waits keep tests exact. A Retry-After header wins, capped so a
// confused server cannot stall the job for long.
const (
	maxAttempts   = 5
	firstDelay    = 3 * time.Second
	delayFactor   = 1.5
	maxRetryAfter = 2 * time.Minute
	maxBodyBytes  = 1 << 20 // responses are small JSON or XML documents
)

// response is one HTTP answer with its body read.
type response struct {
	status int
	header http.Header
	body   []byte
}

// judge says whether another attempt may succeed after the non-2xx
// response r, and turns r into an error.
type judge func(r response) (retry bool, err error)

// retryableStatus reports the statuses the toolkit retries.
func retryableStatus(status int) bool {
	switch status {
	case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// send makes the request build returns until it gets a 2xx answer, a
// failure judge says not to retry, or maxAttempts are used. Network errors
// are retried too; the request is rebuilt each time so its body is fresh.
func (c *client) send(ctx context.Context, build func(context.Context) (*http.Request, error), j judge) (response, error) {
	for attempt := 1; ; attempt++ {
		req, err := build(ctx)
		if err != nil {
			return response{}, err
		}
		r, err := c.do(req)
		retry, wait := true, time.Duration(-1)
		switch {
		case err != nil && ctx.Err() != nil:
			return response{}, err
		case err != nil:
		case r.status/100 == 2:
			return r, nil
		default:
			retry, err = j(r)
			wait = retryAfter(r.header, c.now())
		}
		if !retry {
			return response{}, err
		}
		if attempt == maxAttempts {
			return response{}, fmt.Errorf("giving up after %d attempts: %w", attempt, err)
		}
		if wait < 0 {
			wait = backoff(attempt)
		}
		if serr := c.sleep(ctx, wait); serr != nil {
			return response{}, fmt.Errorf("wait to retry: %w (last error: %v)", serr, err)
		}
	}
}

// do sends req and reads the answer. Transport errors have the query
// string cut from their URL: for blob requests it holds the SAS signature.
func (c *client) do(req *http.Request) (response, error) {
	resp, err := c.http.Do(req)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			return response{}, &url.Error{Op: uerr.Op, URL: stripQuery(uerr.URL), Err: uerr.Err}
		}
		return response{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBodyBytes))
	if err != nil {
		return response{}, fmt.Errorf("read response: %w", err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: body}, nil
}

// backoff is the wait after the given failed attempt: 3 s, 4.5 s, 6.75 s, …
func backoff(attempt int) time.Duration {
	return time.Duration(float64(firstDelay) * math.Pow(delayFactor, float64(attempt-1)))
}

// retryAfter reads a Retry-After header (seconds or an HTTP date), or
// returns -1 when there is none worth honouring.
func retryAfter(h http.Header, now time.Time) time.Duration {
	v := h.Get("Retry-After")
	if v == "" {
		return -1
	}
	var d time.Duration
	if n, err := strconv.Atoi(v); err == nil {
		d = time.Duration(n) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = t.Sub(now)
	} else {
		return -1
	}
	return min(max(d, 0), maxRetryAfter)
}

// stripQuery cuts the query string (and fragment) from a URL in text form.
func stripQuery(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '?' || s[i] == '#' {
			return s[:i]
		}
	}
	return s
}
