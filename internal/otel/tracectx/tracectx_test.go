package tracectx

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"

	"github.com/ananke/action/internal/trace"
)

// counter is an id source: bytes 1, 2, 3, … (mod 256), so ids are known.
type counter struct{ n byte }

func (c *counter) Read(p []byte) (int, error) {
	for i := range p {
		c.n++
		p[i] = c.n
	}
	return len(p), nil
}

// stepClock reads 1 ms later at each reading, from a fixed time.
func stepClock() func() time.Time {
	var mu sync.Mutex
	t := time.Unix(1_700_000_000, 0)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(time.Millisecond)
		return t
	}
}

// agent answers every request with its traceparent and tracestate.
type agent struct{ seen []http.Header }

func (a *agent) RoundTrip(req *http.Request) (*http.Response, error) {
	a.seen = append(a.seen, req.Header.Clone())
	return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader("ok")), Request: req}, nil
}

func TestTraceContext(t *testing.T) {
	tc, err := New(Options{Rand: &counter{}, State: "ananke=t1,other=x", Now: stepClock()})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tc.TraceID(), "0102030405060708090a0b0c0d0e0f10"; got != want {
		t.Errorf("trace id %s, want %s", got, want)
	}
	if got, want := tc.SpanID(), "1112131415161718"; got != want {
		t.Errorf("root span %s, want %s", got, want)
	}
	ag := &agent{}
	c := tc.Client(&http.Client{Transport: ag})
	get := func() {
		t.Helper()
		resp, err := c.Get("http://agent.invalid/")
		if err != nil {
			t.Fatal(err)
		}
		io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	get() // before the first turn: under the root span, in no turn
	turn, err := tc.StartTurn(0)
	if err != nil {
		t.Fatal(err)
	}
	if turn != "2122232425262728" {
		t.Errorf("turn span %s", turn)
	}
	get()
	get()
	reqs := tc.EndTurn(0)
	get() // after the turn: in no turn
	wantParents := []string{
		"00-0102030405060708090a0b0c0d0e0f10-191a1b1c1d1e1f20-01",
		"00-0102030405060708090a0b0c0d0e0f10-292a2b2c2d2e2f30-01",
		"00-0102030405060708090a0b0c0d0e0f10-3132333435363738-01",
		"00-0102030405060708090a0b0c0d0e0f10-393a3b3c3d3e3f40-01",
	}
	for i, h := range ag.seen {
		if got := h.Get("traceparent"); got != wantParents[i] {
			t.Errorf("request %d: traceparent %q, want %q", i, got, wantParents[i])
		}
		if got := h.Get("tracestate"); got != "ananke=t1,other=x" {
			t.Errorf("request %d: tracestate %q", i, got)
		}
	}
	// Each request reads the clock as it is sent and as its body ends.
	start := time.Unix(1_700_000_000, 0).UnixNano()
	ms := int64(time.Millisecond)
	want := []trace.RequestSpan{
		{SpanID: "292a2b2c2d2e2f30", StartNs: start + 3*ms, EndNs: start + 4*ms},
		{SpanID: "3132333435363738", StartNs: start + 5*ms, EndNs: start + 6*ms},
	}
	if !slices.Equal(reqs, want) {
		t.Errorf("turn requests %+v, want %+v", reqs, want)
	}
	if got := tc.EndTurn(0); len(got) != 0 {
		t.Errorf("turn requests taken twice: %+v", got)
	}
}

// TestStamp: a transport beneath stamps the request's times, which win
// over the attempt's clock; a request still open when its turn ends ends
// then.
func TestStamp(t *testing.T) {
	tc, err := New(Options{Rand: &counter{}, Now: stepClock()})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Unix(1_800_000_000, 0)
	stamping := roundTripper(func(req *http.Request) (*http.Response, error) {
		if req.Header.Get("tracestate") != "" {
			t.Errorf("tracestate %q without one configured", req.Header.Get("tracestate"))
		}
		Stamp(req.Context(), at, at.Add(9*time.Millisecond))
		return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader("ok"))}, nil
	})
	open := roundTripper(func(req *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Body: io.NopCloser(iotest.HalfReader(strings.NewReader("stream")))}, nil
	})
	tc.StartTurn(3)
	resp, err := tc.Transport(stamping).RoundTrip(newRequest(t))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if _, err := tc.Transport(open).RoundTrip(newRequest(t)); err != nil {
		t.Fatal(err)
	}
	got := tc.EndTurn(3)
	start := time.Unix(1_700_000_000, 0).UnixNano()
	want := []trace.RequestSpan{
		{SpanID: "2122232425262728", StartNs: at.UnixNano(), EndNs: at.Add(9 * time.Millisecond).UnixNano()},
		{SpanID: "292a2b2c2d2e2f30", StartNs: start + 2e6, EndNs: start + 3e6},
	}
	if !slices.Equal(got, want) {
		t.Errorf("requests %+v, want %+v", got, want)
	}
	Stamp(context.Background(), at, at) // no request: nothing happens
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

func newRequest(t *testing.T) *http.Request {
	t.Helper()
	req, err := http.NewRequest("POST", "http://agent.invalid/", bytes.NewReader([]byte("{}")))
	if err != nil {
		t.Fatal(err)
	}
	return req
}

func TestNewErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    Options
		want string
	}{
		{"bad tracestate", Options{State: "no equals sign"}, `tracestate "no equals sign"`},
		{"zeros", Options{Rand: bytes.NewReader(make([]byte, 1024))}, "only zeros"},
		{"short source", Options{Rand: bytes.NewReader([]byte{1, 2})}, "make a trace id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	if err := ParseState("a=1,b=2"); err != nil {
		t.Errorf("valid tracestate: %v", err)
	}
	if err := ParseState("=="); err == nil {
		t.Error("invalid tracestate accepted")
	}
}

// TestRandom: the default source gives valid, distinct ids.
func TestRandom(t *testing.T) {
	a, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := New(Options{})
	if len(a.TraceID()) != 32 || len(a.SpanID()) != 16 || a.TraceID() == b.TraceID() {
		t.Errorf("ids %s/%s and %s", a.TraceID(), a.SpanID(), b.TraceID())
	}
}
