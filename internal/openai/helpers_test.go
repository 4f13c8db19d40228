package openai

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// request is one request the fake API received.
type request struct {
	Path   string
	Header http.Header
	Body   map[string]any
}

// fake is an OpenAI-compatible API in the test: answer writes the answer
// to the n-th request (from 0).
type fake struct {
	mu     sync.Mutex
	reqs   []request
	answer func(w http.ResponseWriter, r request, n int)
	srv    *httptest.Server
}

func newFake(t *testing.T, answer func(w http.ResponseWriter, r request, n int)) *fake {
	t.Helper()
	f := &fake{answer: answer}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, hr *http.Request) {
		raw, _ := io.ReadAll(hr.Body)
		r := request{Path: hr.URL.Path, Header: hr.Header.Clone()}
		if err := json.Unmarshal(raw, &r.Body); err != nil {
			t.Errorf("the request's body is not a JSON object: %v: %s", err, raw)
		}
		f.mu.Lock()
		n := len(f.reqs)
		f.reqs = append(f.reqs, r)
		f.mu.Unlock()
		f.answer(w, r, n)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fake) requests() []request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]request(nil), f.reqs...)
}

// endpoint is the fake's base URL, as a config names it.
func (f *fake) endpoint() string { return f.srv.URL + "/v1" }

// events writes a stream: each event's data, as given.
func events(w http.ResponseWriter, data ...string) {
	w.Header().Set("Content-Type", "text/event-stream")
	for _, d := range data {
		_, _ = io.WriteString(w, "data: "+d+"\n\n")
	}
}

// body writes a JSON answer.
func body(w http.ResponseWriter, status int, js string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, js)
}

// steps is a clock that moves a millisecond at each reading.
func steps() func() time.Time {
	t := time.UnixMilli(1_000_000)
	var mu sync.Mutex
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(time.Millisecond)
		return t
	}
}

// options are a session's options against endpoint, with a tool that
// answers from the test: get_weather, its result for any arguments.
func options(endpoint, api string, stream bool) Options {
	return Options{
		Endpoint: endpoint, API: api, Model: "gpt-test", Stream: stream,
		Header:       http.Header{"Authorization": {"Bearer sk-test"}},
		Tools:        []Tool{{Name: "get_weather", Description: "The weather in a city.", Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)}},
		Answers:      map[string]func(string) (string, bool){"get_weather": func(string) (string, bool) { return `{"sky":"clear"}`, true }},
		MaxFollowups: 8, Timeout: time.Minute, Now: steps(),
	}
}

// played is what playing turns recorded.
type played struct {
	tr  *trace.Trace
	out []target.Outcome
	err error
}

// turn is the n-th turn's trace.
func (p played) turn(n int) *trace.Turn { return &p.tr.Turns[n] }

// play plays a user turn per text, stopping at the first error.
func play(t *testing.T, s *Session, texts ...string) played {
	t.Helper()
	return playIn(context.Background(), t, s, texts...)
}

// playIn plays the turns in ctx.
func playIn(ctx context.Context, t *testing.T, s *Session, texts ...string) played {
	t.Helper()
	rec := trace.NewRecorder()
	var p played
	for i, text := range texts {
		rec.StartTurn(i, target.TurnUser, text, s.o.Now())
		out, err := s.Turn(ctx, target.Turn{Index: i, Type: target.TurnUser, Text: text}, rec)
		rec.EndTurn(s.o.Now(), s.State())
		p.out = append(p.out, out)
		if err != nil {
			p.err = err
			break
		}
	}
	p.tr = rec.Trace()
	return p
}

// eventTypes are the types of a turn's events.
func eventTypes(tt *trace.Turn) string {
	var out []string
	tt.EachEvent(func(_ int64, typ string) { out = append(out, typ) })
	return strings.Join(out, " ")
}

// agentSays is what the test's agent answers to the last message, content
// (a tool's result when toolResult): given the result, the weather, as
// text; asked about the weather, a call of get_weather, its arguments;
// otherwise the user's message repeated, as text.
func agentSays(content string, toolResult bool) (text, call string) {
	switch {
	case toolResult:
		return "It is clear in Paris.", ""
	case strings.Contains(content, "weather"):
		return "", `{"city":"Paris"}`
	default:
		return "You said: " + content, ""
	}
}

// jsonOf is v as compact JSON.
func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
