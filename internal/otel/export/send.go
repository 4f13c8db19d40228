package export

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/secret"
)

// Defaults of Options.
const (
	DefaultTimeout    = 10 * time.Second
	DefaultRetries    = 3
	DefaultMaxBackoff = 5 * time.Second
	firstBackoff      = 500 * time.Millisecond
)

// Options say where and how a run is sent.
type Options struct {
	// Endpoint is the URL the traces are POSTed to, …/v1/traces
	// (Endpoint below resolves it from the config and the environment).
	Endpoint string
	// Headers are sent with each request (authorization, …).
	Headers map[string]string
	// HTTP sends the requests (nil: a client of its own).
	HTTP *http.Client
	// Timeout bounds each request, its retries included (0:
	// DefaultTimeout).
	Timeout time.Duration
	// Batch is how many spans a request carries at most (0:
	// DefaultBatch); a larger run is sent in several.
	Batch int
	// Retries is how often a request answered 429, 502, 503 or 504, or
	// that failed in transport, is sent again (0: DefaultRetries; -1:
	// never); MaxBackoff caps the wait before each, a Retry-After header's
	// too (0: DefaultMaxBackoff).
	Retries    int
	MaxBackoff time.Duration
	// Redactor masks every exported string once more (nil: the report's
	// secret values; the CLI passes report.ConfigRedactor to add the
	// config's redact patterns).
	Redactor *report.Redactor
	// Now reads the clock for a Retry-After date (nil: time.Now).
	Now func() time.Time
	// UserAgent is sent as User-Agent ("" : ananke).
	UserAgent string
}

// Error is an export the endpoint refused or never answered.
type Error struct {
	// Endpoint is the URL with its secrets masked.
	Endpoint string
	// Status is the last HTTP status (0: no answer); Attempts how many
	// requests were sent.
	Status   int
	Attempts int
	Err      error
}

func (e *Error) Error() string {
	tries := ""
	if e.Attempts > 1 {
		tries = fmt.Sprintf(" (%d attempts)", e.Attempts)
	}
	return fmt.Sprintf("export to %s%s: %v", e.Endpoint, tries, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Send exports the run r as OTLP protobuf to o.Endpoint, in requests of
// at most o.Batch spans; it stops at the first that fails.
func Send(ctx context.Context, r *report.Report, o Options) error {
	if o.Batch <= 0 {
		o.Batch = DefaultBatch
	}
	for _, td := range batches(Traces(r, o.Redactor), o.Batch) {
		// An ExportTraceServiceRequest is a TracesData on the wire (both
		// are `repeated ResourceSpans resource_spans = 1`): ptrace's
		// marshaler writes it without linking ptraceotlp's gRPC service.
		body, err := (&ptrace.ProtoMarshaler{}).MarshalTraces(td)
		if err != nil {
			return fmt.Errorf("export: encode: %w", err)
		}
		if err := post(ctx, body, o); err != nil {
			return err
		}
	}
	return nil
}

// post sends body, retrying what may pass later.
func post(ctx context.Context, body []byte, o Options) error {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	switch {
	case o.Retries == 0:
		o.Retries = DefaultRetries
	case o.Retries < 0:
		o.Retries = 0
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = DefaultMaxBackoff
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	client := o.HTTP
	if client == nil {
		client = &http.Client{}
	}
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	fail := &Error{Endpoint: secret.URL(o.Endpoint)}
	backoff := firstBackoff
	for {
		fail.Attempts++
		code, wait, err := once(ctx, client, body, o)
		if err == nil {
			return nil
		}
		fail.Status, fail.Err = code, err
		if ctx.Err() != nil {
			fail.Err = fmt.Errorf("%w (timeout %s)", err, o.Timeout)
			return fail
		}
		if !retryable(code) || fail.Attempts > o.Retries {
			return fail
		}
		if wait <= 0 {
			wait = backoff
			backoff *= 2
		}
		wait = min(wait, o.MaxBackoff)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			fail.Err = fmt.Errorf("%w; gave up waiting to retry (timeout %s)", err, o.Timeout)
			return fail
		case <-t.C:
		}
	}
}

// retryable: what OTLP/HTTP says to retry (429, 502, 503, 504), and a
// request that got no answer (code 0).
func retryable(code int) bool {
	switch code {
	case 0, http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// once sends one request: its status, the wait a Retry-After header
// asks for, and an error unless the endpoint took every span.
func once(ctx context.Context, client *http.Client, body []byte, o Options) (int, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.Endpoint, bytes.NewReader(body))
	if err != nil {
		return -1, 0, fmt.Errorf("bad endpoint: %w", errors.Unwrap(err))
	}
	for k, v := range o.Headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	ua := o.UserAgent
	if ua == "" {
		ua = "ananke"
	}
	req.Header.Set("User-Agent", ua)
	resp, err := client.Do(req)
	if err != nil {
		var ue interface{ Unwrap() error }
		if errors.As(err, &ue) {
			err = ue.Unwrap() // the URL is said once, masked
		}
		return 0, 0, err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 != 2 {
		return resp.StatusCode, retryAfter(resp.Header.Get("Retry-After"), o.Now), fmt.Errorf("%s%s", resp.Status, said(data))
	}
	// A 2xx may still reject spans (partial success).
	if resp.Header.Get("Content-Type") == "application/x-protobuf" {
		if rejected, msg := partialSuccess(data); rejected > 0 {
			return resp.StatusCode, 0, fmt.Errorf("%d spans rejected: %s", rejected, msg)
		}
	}
	return resp.StatusCode, 0, nil
}

// said is a refusal's body, short, for the error.
func said(data []byte) string {
	s := string(bytes.TrimSpace(data))
	if s == "" || !isText(s) {
		return ""
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return ": " + s
}

func isText(s string) bool {
	for _, r := range s {
		if r < ' ' && r != '\n' && r != '\t' && r != '\r' {
			return false
		}
	}
	return true
}

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func retryAfter(h string, now func() time.Time) time.Duration {
	if h == "" {
		return 0
	}
	if n, err := strconv.Atoi(h); err == nil && n >= 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(h); err == nil {
		return t.Sub(now())
	}
	return 0
}
