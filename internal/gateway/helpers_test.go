package gateway

import (
	"bufio"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ananke/action/internal/backend"
	"github.com/ananke/action/internal/trace"
)

const (
	testKey  = "sk-test-0123456789"
	testID   = "shop/stock"
	askStock = `{"model":"gpt-4o-mini","messages":[{"role":"system","content":"Today is 2026-11-27T10:00:00Z."},{"role":"user","content":"How many A-1 are in stock?"}],` +
		`"tools":[{"type":"function","function":{"name":"check_stock","parameters":{"type":"object"}}},{"type":"function","function":{"name":"reserve","parameters":{"type":"object"}}}]}`
	askStream  = `{"model":"gpt-4o-mini","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"How many A-1 are in stock?"}]}`
	toolAnswer = `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"message":{"role":"assistant","content":null,` +
		`"tool_calls":[{"id":"call_abc","type":"function","function":{"name":"check_stock","arguments":"{\"sku\":\"A-1\"}"}}]},"finish_reason":"tool_calls"}],` +
		`"usage":{"prompt_tokens":50,"completion_tokens":10,"total_tokens":60,"prompt_tokens_details":{"cached_tokens":20}}}`
)

// streamChunks are a streamed answer's data payloads, usage last.
var streamChunks = []string{
	`{"id":"c","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"delta":{"role":"assistant","content":"In "},"finish_reason":null}]}`,
	`{"id":"c","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"delta":{"content":"stock: 4"},"finish_reason":null}]}`,
	`{"id":"c","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
	`{"id":"c","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini-2024-07-18","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":5,"total_tokens":17,"completion_tokens_details":{"reasoning_tokens":0}}}`,
}

// sseBody is an event stream of payloads, ended by [DONE].
func sseBody(payloads ...string) string {
	var b strings.Builder
	for _, p := range payloads {
		b.WriteString("data: " + p + "\n\n")
	}
	return b.String() + "data: [DONE]\n\n"
}

// stepClock moves 10ms at each reading.
type stepClock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *stepClock { return &stepClock{t: time.UnixMilli(1_000_000)} }

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(10 * time.Millisecond)
	return c.t
}

// seen is a request the fake upstream got.
type seen struct {
	method, path, auth, body string
}

// fakeUpstream is an OpenAI-compatible model, answering each request in
// turn with the next of its answers (the last one again past the end).
type fakeUpstream struct {
	*httptest.Server
	mu       sync.Mutex
	requests []seen
	answers  []http.HandlerFunc
}

func newUpstream(t *testing.T, answers ...http.HandlerFunc) *fakeUpstream {
	t.Helper()
	u := &fakeUpstream{answers: answers}
	u.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		u.mu.Lock()
		u.requests = append(u.requests, seen{r.Method, r.URL.Path, r.Header.Get("Authorization"), string(body)})
		a := u.answers[min(len(u.requests), len(u.answers))-1]
		u.mu.Unlock()
		a(w, r)
	}))
	t.Cleanup(u.Close)
	return u
}

func (u *fakeUpstream) seen() []seen {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]seen(nil), u.requests...)
}

// jsonAnswer answers with a status and a JSON body.
func jsonAnswer(status int, body string, header ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// streamAnswer answers with an event stream.
func streamAnswer(payloads ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, sseBody(payloads...))
	}
}

// rig is a gateway served over HTTP, with a board and one bound
// attempt.
type rig struct {
	g     *Gateway
	srv   *httptest.Server
	board *backend.Board
	bd    *backend.Binding
}

func newRig(t testing.TB, o Options) *rig {
	t.Helper()
	if o.Board == nil {
		o.Board = backend.NewBoard(false, func(string) bool { return true })
	}
	if o.Now == nil {
		o.Now = newClock().Now
	}
	g, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{g: g, board: o.Board, bd: o.Board.Bind(testID)}
	r.srv = httptest.NewServer(g.Handler())
	t.Cleanup(r.srv.Close)
	return r
}

// post sends a chat completion request as the agent does, with its own
// key; it returns the status, the header and the body.
func (r *rig) post(t *testing.T, body string) (int, http.Header, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, r.srv.URL+"/v1/chat/completions", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer agent-own-key")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// calls takes the model calls of turn 0.
func (r *rig) calls() []trace.ModelCall {
	_, mcs := r.bd.Take(0)
	return mcs
}

// dataOf returns the data payloads of an event stream.
func dataOf(stream string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(stream))
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			out = append(out, d)
		}
	}
	return out
}
