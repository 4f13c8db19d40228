package export_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/ananke/action/internal/otel/export"
	"github.com/ananke/action/internal/report/reporttest"
)

// transport answers in process, so that a synctest bubble's clock moves
// only while the exporter waits.
type transport func(*http.Request) (*http.Response, error)

func (f transport) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func answer(code int, header http.Header) *http.Response {
	if header == nil {
		header = http.Header{}
	}
	return &http.Response{StatusCode: code, Status: http.StatusText(code), Header: header, Body: io.NopCloser(strings.NewReader(""))}
}

func TestSendRetries(t *testing.T) {
	day := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		name    string
		answers []int
		after   string // Retry-After of each refusal
		opts    export.Options
		calls   int
		waited  time.Duration
		ok      bool
	}{
		{name: "503 then 200, backoff", answers: []int{503, 502, 200}, calls: 3, waited: 500*time.Millisecond + time.Second, ok: true},
		{name: "429 with Retry-After seconds", answers: []int{429, 200}, after: "2", calls: 2, waited: 2 * time.Second, ok: true},
		{name: "Retry-After capped", answers: []int{503, 200}, after: "3600", opts: export.Options{MaxBackoff: 3 * time.Second}, calls: 2, waited: 3 * time.Second, ok: true},
		{name: "Retry-After date", answers: []int{504, 200}, after: day.Add(4 * time.Second).Format(http.TimeFormat),
			opts: export.Options{Now: func() time.Time { return day }}, calls: 2, waited: 4 * time.Second, ok: true},
		{name: "bounded", answers: []int{503, 503, 503}, opts: export.Options{Retries: 2}, calls: 3, waited: 1500 * time.Millisecond},
		{name: "never retried", answers: []int{503}, opts: export.Options{Retries: -1}, calls: 1},
		{name: "400 is final", answers: []int{400}, calls: 1},
		{name: "401 is final", answers: []int{401}, calls: 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				calls := 0
				o := c.opts
				o.Endpoint = "http://collector.example:4318/v1/traces"
				o.HTTP = &http.Client{Transport: transport(func(r *http.Request) (*http.Response, error) {
					code := c.answers[min(calls, len(c.answers)-1)]
					calls++
					h := http.Header{}
					if code != 200 && c.after != "" {
						h.Set("Retry-After", c.after)
					}
					return answer(code, h), nil
				})}
				start := time.Now()
				err := export.Send(context.Background(), reporttest.Report(), o)
				if waited := time.Since(start); waited != c.waited {
					t.Errorf("waited %s, want %s", waited, c.waited)
				}
				if calls != c.calls || (err == nil) != c.ok {
					t.Errorf("%d requests, err %v; want %d, ok %v", calls, err, c.calls, c.ok)
				}
			})
		})
	}
}

func TestSendTransportRetried(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		calls := 0
		o := export.Options{Endpoint: "http://collector.example:4318/v1/traces", HTTP: &http.Client{Transport: transport(func(r *http.Request) (*http.Response, error) {
			calls++
			if calls == 1 {
				return nil, errors.New("connection refused")
			}
			return answer(200, nil), nil
		})}}
		if err := export.Send(context.Background(), reporttest.Report(), o); err != nil || calls != 2 {
			t.Fatalf("err %v after %d requests", err, calls)
		}
	})
}

// TestSendTimeout: an endpoint that never answers is given up at the
// timeout exactly, retries and all.
func TestSendTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		calls := 0
		o := export.Options{Endpoint: "http://collector.example:4318/v1/traces", Timeout: 7 * time.Second, HTTP: &http.Client{Transport: transport(func(r *http.Request) (*http.Response, error) {
			calls++
			<-r.Context().Done()
			return nil, r.Context().Err()
		})}}
		start := time.Now()
		err := export.Send(context.Background(), reporttest.Report(), o)
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != 7*time.Second || calls != 1 {
			t.Fatalf("err %v after %s and %d requests; want a deadline at 7s", err, time.Since(start), calls)
		}
		if !strings.Contains(err.Error(), "timeout 7s") {
			t.Errorf("error = %q", err)
		}
	})
}

// TestSendTimeoutWhileWaiting: a Retry-After beyond the timeout ends the
// export at the timeout, not after the wait.
func TestSendTimeoutWhileWaiting(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		o := export.Options{Endpoint: "http://collector.example:4318/v1/traces", Timeout: 2 * time.Second, MaxBackoff: time.Minute,
			HTTP: &http.Client{Transport: transport(func(r *http.Request) (*http.Response, error) {
				return answer(429, http.Header{"Retry-After": []string{"30"}}), nil
			})}}
		start := time.Now()
		err := export.Send(context.Background(), reporttest.Report(), o)
		var ee *export.Error
		if !errors.As(err, &ee) || ee.Status != 429 || time.Since(start) != 2*time.Second {
			t.Fatalf("err %v after %s", err, time.Since(start))
		}
	})
}

// TestSendBatches: a run of more spans than a request may carry is sent
// in several, which together hold every span once, each under its own
// resource and scope.
func TestSendBatches(t *testing.T) {
	r := withSpans(t)
	whole := export.Traces(r, nil)
	var got []ptrace.Traces
	o := export.Options{Endpoint: "http://collector.example:4318/v1/traces", Batch: 7, HTTP: &http.Client{Transport: transport(func(req *http.Request) (*http.Response, error) {
		body, _ := io.ReadAll(req.Body)
		er := ptraceotlp.NewExportRequest()
		if err := er.UnmarshalProto(body); err != nil {
			return nil, err
		}
		got = append(got, er.Traces())
		return answer(200, nil), nil
	})}}
	if err := export.Send(context.Background(), r, o); err != nil {
		t.Fatal(err)
	}
	want := (whole.SpanCount() + 6) / 7
	if len(got) != want {
		t.Fatalf("%d requests for %d spans, want %d", len(got), whole.SpanCount(), want)
	}
	all := map[string]span{}
	for i, td := range got {
		if n := td.SpanCount(); n > 7 || (i < len(got)-1 && n != 7) {
			t.Errorf("request %d holds %d spans", i, n)
		}
		for id, s := range collect(td) {
			if _, dup := all[id]; dup {
				t.Errorf("span %s sent twice", id)
			}
			all[id] = s
		}
	}
	for id, s := range collect(whole) {
		o, ok := all[id]
		if !ok || o.Name() != s.Name() || o.service != s.service || o.ParentSpanID() != s.ParentSpanID() {
			t.Errorf("span %s %q (%s) not sent as built", id, s.Name(), s.service)
		}
	}
}
