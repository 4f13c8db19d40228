package doubles

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ananke/action/internal/doubles/decl/decltest"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ananke/action/internal/backend"
	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/doubles/decl"
)

// serverFixture reads testdata/server: the config's doubles and the plans
// of tests "a" and "b".
func serverFixture(t testing.TB) (*decl.Config, map[string]*decl.Plan) {
	t.Helper()
	var diags diag.Diagnostics
	d, root := decltest.ParseFile(t, "testdata/server/config.yaml", &diags)
	c := decl.ReadConfig(d, decltest.Member(root, "doubles"))
	plans := map[string]*decl.Plan{}
	for _, id := range []string{"a", "b"} {
		d, root := decltest.ParseFile(t, filepath.Join("testdata/server", id+".yaml"), &diags)
		turns := map[int]decl.Answers{}
		if n := decltest.Member(root, "turns"); n != nil {
			for i, turn := range n.Content {
				if m := decltest.Member(turn, "doubles"); m != nil {
					turns[i] = decl.ReadAnswers(d, m, decode.Index("turns", i)+".doubles")
				}
			}
		}
		plans[id] = decl.NewPlan(decl.ReadAnswers(d, decltest.Member(root, "doubles"), "doubles"), turns)
		decl.Check(c, plans[id], &diags)
	}
	if len(diags) > 0 {
		t.Fatalf("fixture: %v", diags)
	}
	return c, plans
}

// stepClock is a clock that moves a millisecond at each reading, from a
// fixed time.
type stepClock struct {
	mu sync.Mutex
	t  time.Time
}

func newStepClock() *stepClock { return &stepClock{t: time.UnixMilli(1_000_000)} }

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Millisecond)
	return c.t
}

// headerTransport sends the backend header with a token on every request.
type headerTransport struct {
	token string
	next  http.RoundTripper
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if h.token == "" {
		return h.next.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	r.Header.Set(backend.Header, h.token)
	return h.next.RoundTrip(r)
}

// connect is an MCP client session with the doubles at url, sending
// token in the backend header ("" for none), over rt (the network when
// nil).
func connect(t testing.TB, url, token string, rt http.RoundTripper) *sdk.ClientSession {
	t.Helper()
	if rt == nil {
		rt = http.DefaultTransport
	}
	c := sdk.NewClient(&sdk.Implementation{Name: "agent", Version: "1"}, nil)
	tr := &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: headerTransport{token, rt}}, MaxRetries: -1, DisableStandaloneSSE: true}
	cs, err := c.Connect(t.Context(), tr, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	return cs
}

// inProcess serves requests with h in the test's own process, through a
// pipe: with no network, a test runs in a synctest bubble, where time
// moves only once every goroutine waits. A handler that aborts
// (http.ErrAbortHandler) closes the "connection": the response ends
// early, or never starts.
type inProcess struct{ h http.Handler }

func (t inProcess) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	pr, pw := io.Pipe()
	w := &pipeResponse{header: http.Header{}, body: pw, started: make(chan struct{}), aborted: make(chan struct{})}
	served := make(chan struct{})
	go func() {
		defer close(served)
		defer func() {
			if p := recover(); p != nil {
				if p != http.ErrAbortHandler {
					panic(p)
				}
				close(w.aborted)
				pw.CloseWithError(io.ErrUnexpectedEOF)
				return
			}
			w.WriteHeader(http.StatusOK)
			pw.Close()
		}()
		t.h.ServeHTTP(w, r)
	}()
	go func() {
		select {
		case <-r.Context().Done():
			pr.CloseWithError(r.Context().Err())
		case <-served:
		}
	}()
	select {
	case <-w.started:
		return &http.Response{StatusCode: w.code, Status: fmt.Sprintf("%d %s", w.code, http.StatusText(w.code)),
			Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: w.sent, Body: pr, ContentLength: -1, Request: r}, nil
	case <-w.aborted:
		return nil, errors.New("connection closed by the server")
	case <-r.Context().Done():
		return nil, context.Cause(r.Context())
	}
}

// pipeResponse is a response written into a pipe.
type pipeResponse struct {
	header  http.Header
	body    *io.PipeWriter
	code    int
	sent    http.Header
	started chan struct{}
	aborted chan struct{}
}

func (w *pipeResponse) Header() http.Header { return w.header }

func (w *pipeResponse) WriteHeader(code int) {
	if w.sent == nil {
		w.code, w.sent = code, w.header.Clone()
		close(w.started)
	}
}

func (w *pipeResponse) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(b)
}

func (w *pipeResponse) Flush() { w.WriteHeader(http.StatusOK) }
