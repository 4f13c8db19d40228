package a2a

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/ananke/action/internal/inprocess"

	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// fake is a scripted A2A 1.0 JSON-RPC agent for the tests of our own
// edges: rpc answers each call.
type fake struct {
	srv       *httptest.Server
	streaming bool
	rpc       func(w http.ResponseWriter, r *http.Request, method string, params json.RawMessage, id json.RawMessage)

	mu       sync.Mutex
	requests []*http.Request
	bodies   []string
}

func newFake(t *testing.T, streaming bool, rpc func(w http.ResponseWriter, r *http.Request, method string, params, id json.RawMessage)) *fake {
	t.Helper()
	f := &fake{streaming: streaming, rpc: rpc}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/agent-card.json", func(w http.ResponseWriter, r *http.Request) {
		f.keep(r, "")
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, f.card())
	})
	mux.HandleFunc("POST /rpc", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			ID     json.RawMessage `json:"id"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		f.keep(r, string(req.Params))
		f.rpc(w, r, req.Method, req.Params, req.ID)
	})
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

// inProcess is an HTTP client that serves every request with the fake's
// handler in the test's own process, streaming each response through a
// pipe: with no network, a test can run in a synctest bubble, where time
// moves only once every goroutine waits, so a timeout ends a turn exactly
// when the agent has said all it will.
func (f *fake) inProcess() *http.Client {
	return inprocess.Client(f.srv.Config.Handler)
}

func (f *fake) keep(r *http.Request, body string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, r)
	f.bodies = append(f.bodies, body)
}

func (f *fake) card() string {
	return fmt.Sprintf(`{"name":"fake","description":"","version":"1","capabilities":{"streaming":%t},
		"supportedInterfaces":[{"url":%q,"protocolBinding":"JSONRPC","protocolVersion":"1.0"}],
		"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[]}`, f.streaming, f.srv.URL+"/rpc")
}

// result answers a JSON-RPC call with result.
func result(w http.ResponseWriter, id json.RawMessage, res string) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, id, res)
}

// rpcErr answers a JSON-RPC call with an error.
func rpcErr(w http.ResponseWriter, id json.RawMessage, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%q}}`, id, code, msg)
}

// sse answers a streaming call with events, flushed one by one.
func sse(w http.ResponseWriter, id json.RawMessage, events ...string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	for _, e := range events {
		fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":%s}\n\n", id, e)
		w.(http.Flusher).Flush()
	}
}

const (
	working   = `{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"}}}`
	completed = `{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}}`
	answer    = `{"message":{"messageId":"m1","contextId":"c1","role":"ROLE_AGENT","parts":[{"text":"hi"}]}}`
)

// play dials opts and plays one user turn into a fresh recorder.
func play(t *testing.T, o Options, text string) (*trace.Turn, error) {
	t.Helper()
	s, err := Dial(t.Context(), o)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	defer s.Close()
	rec := trace.NewRecorder()
	rec.StartTurn(0, target.TurnUser, text, time.Now())
	err = s.Turn(t.Context(), target.Turn{Type: target.TurnUser, Text: text}, rec)
	return rec.EndTurn(time.Now(), nil), err
}
