package httpapi

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ananke/action/internal/inprocess"

	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// request is what the fake agent received.
type request struct {
	Method, Path, Query, Body string
	Header                    http.Header
}

// fake is an agent behind a JSON API: handle answers each request, and
// every request is kept.
type fake struct {
	srv  *httptest.Server
	mu   sync.Mutex
	reqs []request
}

func newFake(t *testing.T, handle http.HandlerFunc) *fake {
	t.Helper()
	f := &fake{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.reqs = append(f.reqs, request{Method: r.Method, Path: r.URL.EscapedPath(), Query: r.URL.RawQuery, Body: string(b), Header: r.Header.Clone()})
		f.mu.Unlock()
		r.Body = io.NopCloser(strings.NewReader(string(b)))
		handle(w, r)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fake) requests() []request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]request(nil), f.reqs...)
}

// inProcess is an HTTP client that serves every request with the fake's
// handler in the test's own process, streaming each response through a
// pipe: with no network, a test runs in a synctest bubble, where time
// moves only once every goroutine waits, so a timeout ends a turn
// exactly when the agent has said all it will.
func (f *fake) inProcess() *http.Client {
	return inprocess.Client(f.srv.Config.Handler)
}

// stepClock is a clock that moves a millisecond at each reading, from
// t0.
func stepClock() func() time.Time {
	var mu sync.Mutex
	at := time.UnixMilli(1_000_000)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		at = at.Add(time.Millisecond)
		return at
	}
}

// play plays texts as user turns of one session, each a turn of the
// trace; it stops at the first error.
func play(t *testing.T, o Options, texts ...string) (*trace.Trace, error) {
	t.Helper()
	s, err := New(o)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	defer s.Close()
	rec := trace.NewRecorder()
	for i, text := range texts {
		rec.StartTurn(i, target.TurnUser, text, time.UnixMilli(0))
		err := s.Turn(t.Context(), target.Turn{Index: i, Type: target.TurnUser, Text: text}, rec)
		rec.EndTurn(time.UnixMilli(0), nil)
		if err != nil {
			return rec.Trace(), err
		}
	}
	return rec.Trace(), nil
}

// jsonBody is a body template: each value a JSON string holding marks.
func jsonBody(kv ...string) []byte {
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i+1 < len(kv); i += 2 {
		if i > 0 {
			b.WriteString(",")
		}
		// As the file model writes them: the marks, < and & as they are.
		fmt.Fprintf(&b, "%s:%s", jsonText(kv[i]), jsonText(kv[i+1]))
	}
	b.WriteString("}")
	return []byte(b.String())
}

// writeJSON answers a JSON document.
func writeJSON(w http.ResponseWriter, code int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	io.WriteString(w, body)
}

// writeEvents answers a stream of events, each "data: <d>".
func writeEvents(w http.ResponseWriter, data ...string) {
	w.Header().Set("Content-Type", "text/event-stream")
	for _, d := range data {
		fmt.Fprintf(w, "data: %s\n\n", d)
		w.(http.Flusher).Flush()
	}
}
