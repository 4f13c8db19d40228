package registry_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/httpapi"
	"github.com/ananke/action/internal/replay"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/target/registry"
)

// jsonAPI is an agent behind a JSON API of its own: it keeps each
// conversation by the id its first answer gives, learns the user's name,
// looks orders up with a tool it reports, and reports its usage.
type jsonAPI struct {
	mu    sync.Mutex
	names map[string]string // conversation id → the user's name
	asked int
}

func (a *jsonAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Message string
		History []struct{ Role, Content string }
	}
	if json.NewDecoder(r.Body).Decode(&in) != nil || r.Header.Get("Authorization") != "Bearer tok-123" {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked++
	id := strings.TrimPrefix(r.URL.Path, "/chat/")
	if id == "" {
		id = fmt.Sprintf("c-%d", len(a.names)+1)
		a.names[id] = ""
	}
	out := map[string]any{"session_id": id, "usage": map[string]int{"in": 10 * len(in.History), "out": 5}}
	switch {
	case strings.HasPrefix(in.Message, "I'm "):
		a.names[id] = strings.TrimPrefix(in.Message, "I'm ")
		out["reply"] = "Nice to meet you, " + a.names[id] + "."
	case strings.Contains(in.Message, "order"):
		order := in.Message[strings.Index(in.Message, "order ")+6:]
		out["reply"] = "Order " + order + " has shipped."
		out["tool_calls"] = []map[string]any{{"name": "lookup_order", "args": map[string]string{"order": order}, "output": "shipped"}}
	case strings.Contains(in.Message, "name"):
		out["reply"] = "You are " + a.names[id] + "." // known only by the carried id
	default:
		out["error"] = "I did not understand"
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}

const httpSuiteConfig = `version: "1.2"
target:
  type: http
  endpoint: "%s/chat/${conversation_id}"
  auth: {scheme: bearer, token: "${ENV.API_TOKEN}"}
  body:
    message: "${message}"
    history: "${messages}"
  response:
    text: $.reply
    conversation_id: $.session_id
    error: $.error
    tool_calls: {path: "$.tool_calls[*]", name: $.name, arguments: $.args, result: $.output}
    input_tokens: $.usage.in
    output_tokens: /usage/out
`

const threeTurns = `version: "1.2"
name: three turns
turns:
  - user: "I'm Ada"
    assert: {text: {contains: Ada}}
  - user: "where is order A-1"
    assert:
      text: {contains: shipped}
      tools: {require: [{name: lookup_order, args_match: {order: "^A-1$"}, result_match: shipped}]}
  - user: "what is my name?"
    assert: {text: {contains: "You are Ada"}}
`

const wrongArgument = `version: "1.2"
name: wrong argument
turns:
  - user: "where is order A-1"
    assert:
      tools:
        require:
          - {name: lookup_order, args_match: {order: "^B-2$"}}
`

// TestHTTPSuite: a suite of an http target run by the engine: three turns
// pass, the conversation id carried from the first answer (the third
// reply needs it) and the conversation in ${messages}; the tool call read
// from the response fails the test whose arguments it does not match,
// at that test's line; the agent's error fails run_error; the usage
// reported is the test's.
func TestHTTPSuite(t *testing.T) {
	api := &jsonAPI{names: map[string]string{}}
	srv := httptest.NewServer(api)
	defer srv.Close()
	s := httpSuite(t, srv.URL, map[string]string{
		"three.ananke.yaml":   threeTurns,
		"wrong.ananke.yaml":   wrongArgument,
		"unknown.ananke.yaml": "version: \"1.2\"\nname: not understood\nturns: [{user: hello}]\n",
	})
	out := engine.Run(context.Background(), engine.Options{Protocols: registry.Lookup, Suite: s, LookupEnv: env})
	results := map[string]*engine.TestResult{}
	for _, r := range out.Tests {
		results[r.Test.Name.Value] = r
	}
	three := results["three turns"]
	if three.Status != status.Pass {
		t.Fatalf("three turns: %s %s %+v", three.Status, three.Reason, failed(three))
	}
	a := three.Attempts[0]
	tr := a.Trace
	if len(tr.Turns) != 3 || tr.Turns[2].Text() != "You are Ada." || tr.Source == nil || tr.Source.Adapter != "http" || tr.Source.SessionID != "c-1" {
		t.Errorf("trace: %d turns, last %q, source %+v", len(tr.Turns), tr.Turns[len(tr.Turns)-1].Text(), tr.Source)
	}
	// The third request held the conversation so far: the 4 messages
	// before it, and its own.
	if in, _ := tr.Turns[2].Usage.Tokens().Get(cost.Input); in != 50 {
		t.Errorf("turn 3 input tokens %d; want 50 (10 for each of the 5 messages)", in)
	}
	if !tr.UsageReported() {
		t.Error("the test reported no usage")
	}
	if !slices.Contains(a.Secrets, "tok-123") {
		t.Errorf("secrets %q; want the bearer token among them", a.Secrets)
	}

	wrong := results["wrong argument"]
	f := failed(wrong)
	if wrong.Status != status.Fail || len(f) != 1 || f[0].Kind != assertion.KindRequire || f[0].Source.Line != 8 ||
		!strings.HasSuffix(f[0].Source.File, "wrong.ananke.yaml") {
		t.Errorf("wrong argument: %s, failed %+v; want the require entry at line 8 failing", wrong.Status, f)
	}
	unknown := results["not understood"]
	if f := failed(unknown); unknown.Status != status.Fail || len(f) != 1 || !strings.Contains(f[0].Message, "I did not understand") {
		t.Errorf("not understood: %s, failed %+v; want run_error failing with the agent's error", unknown.Status, f)
	}
}

// TestHTTPRecordReplay: an http target's exchanges are recorded and
// replayed with the agent stopped, the verdicts and texts the same.
func TestHTTPRecordReplay(t *testing.T) {
	api := &jsonAPI{names: map[string]string{}}
	srv := httptest.NewServer(api)
	s := httpSuite(t, srv.URL, map[string]string{"three.ananke.yaml": threeTurns, "wrong.ananke.yaml": wrongArgument})
	dir := filepath.Join(t.TempDir(), "rec")
	rec, err := replay.NewRecorder(dir, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	live := engine.Run(context.Background(), engine.Options{Protocols: registry.Lookup, Suite: s, LookupEnv: env, Tape: rec})
	if err := rec.Write(s, replay.Meta{Version: "test"}, func(s string) string { return s }); err != nil {
		t.Fatal(err)
	}
	srv.Close()
	asked := api.asked
	p, err := replay.Open(dir, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	again := engine.Run(context.Background(), engine.Options{Protocols: registry.Lookup, Suite: s, LookupEnv: env, Tape: p})
	if api.asked != asked {
		t.Errorf("the agent was asked %d more times while replaying", api.asked-asked)
	}
	for i := range live.Tests {
		l, r := live.Tests[i], again.Tests[i]
		if l.Status != r.Status || r.Attempts[0].Trace.Source.Mode != "replay" {
			t.Errorf("%s: live %s, replayed %s (%s)", l.Test.Name.Value, l.Status, r.Status, r.Reason)
			continue
		}
		for j, turn := range l.Attempts[0].Trace.Turns {
			if got := r.Attempts[0].Trace.Turns[j].Text(); got != turn.Text() {
				t.Errorf("%s turn %d: replayed %q, live %q", l.Test.Name.Value, j, got, turn.Text())
			}
		}
	}
	if live.Tests[0].Status != status.Pass || live.Tests[1].Status != status.Fail {
		t.Errorf("live verdicts %s, %s; want pass, fail", live.Tests[0].Status, live.Tests[1].Status)
	}
}

// TestHTTPVarsAgree: the per-turn variables the file model knows are
// those the session sets.
func TestHTTPVarsAgree(t *testing.T) {
	if !slices.Equal(spec.HTTPTurnVars, httpapi.Vars) {
		t.Errorf("the file model knows %q; the session sets %q", spec.HTTPTurnVars, httpapi.Vars)
	}
}

func env(k string) (string, bool) {
	if k == "API_TOKEN" {
		return "tok-123", true
	}
	return "", false
}

// failed are the failing results of a test's first attempt.
func failed(r *engine.TestResult) []assertion.Result {
	var out []assertion.Result
	if len(r.Attempts) == 0 {
		return nil
	}
	for _, res := range r.Attempts[0].Results {
		if res.Status == status.Fail {
			out = append(out, res)
		}
	}
	return out
}

// httpSuite loads the http suite against the API at base, with tests.
func httpSuite(t *testing.T, base string, tests map[string]string) *spec.Suite {
	t.Helper()
	files := map[string]string{"ananke.config.yaml": fmt.Sprintf(httpSuiteConfig, base)}
	for name, body := range tests {
		files[name] = body
	}
	return loadSuite(t, files)
}
