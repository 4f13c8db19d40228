//go:build unix

package a2a

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// ids returns the contextId and taskId fields the raw events of a turn
// carry (the values, deduplicated, in order).
func ids(t *testing.T, turn *trace.Turn) (contexts, tasks []string) {
	t.Helper()
	for _, e := range turn.Events {
		var env struct {
			Data struct {
				ContextID string `json:"contextId"`
				TaskID    string `json:"taskId"`
				ID        string `json:"id"`
			} `json:"data"`
		}
		if err := json.Unmarshal(e.Raw, &env); err != nil {
			t.Fatal(err)
		}
		task := env.Data.TaskID
		if e.Type == "a2a:task" {
			task = env.Data.ID
		}
		if c := env.Data.ContextID; c != "" && !slices.Contains(contexts, c) {
			contexts = append(contexts, c)
		}
		if task != "" && !slices.Contains(tasks, task) {
			tasks = append(tasks, task)
		}
	}
	return contexts, tasks
}

func types(turn *trace.Turn) []string {
	var out []string
	for _, e := range turn.Events {
		out = append(out, e.Type)
	}
	return out
}

func TestAgent(t *testing.T) {
	ag := startAgent(t)
	for _, p := range []struct{ path, version string }{{"/v1", "1.0"}, {"/v03", "0.3"}} {
		card := Options{CardURL: ag.url + p.path}
		t.Run(p.version+"/message", func(t *testing.T) {
			tr, src, errs := conversation(t, card, "hello")
			if errs[0] != nil {
				t.Fatal(errs[0])
			}
			turn := &tr.Turns[0]
			if got := turn.Text(); got != "Hello! How can I help?" {
				t.Errorf("text %q", got)
			}
			if got := types(turn); !slices.Equal(got, []string{"a2a:message"}) {
				t.Errorf("events %v", got)
			}
			want := trace.Source{Adapter: "a2a", Version: p.version, Mode: "live", AgentID: "ananke-scripted-agent",
				Capabilities: []string{capability.StreamingTiming, capability.LiveRun}}
			if src.Adapter != want.Adapter || src.Version != want.Version || src.Mode != want.Mode || src.AgentID != want.AgentID ||
				!slices.Equal(src.Capabilities, want.Capabilities) || src.SessionID == "" {
				t.Errorf("source %+v; want %+v with a session id", src, want)
			}
			var req struct {
				Message struct {
					Role  string `json:"role"`
					Parts []struct {
						Text string `json:"text"`
					} `json:"parts"`
				} `json:"message"`
			}
			if err := json.Unmarshal(turn.Runs[0].Request, &req); err != nil || req.Message.Role != "ROLE_USER" ||
				len(req.Message.Parts) != 1 || req.Message.Parts[0].Text != "hello" {
				t.Errorf("request %s (%v)", turn.Runs[0].Request, err)
			}
		})
		t.Run(p.version+"/weather", func(t *testing.T) {
			tr, src, errs := conversation(t, card, "weather in Paris")
			if errs[0] != nil {
				t.Fatal(errs[0])
			}
			turn := &tr.Turns[0]
			checkWeather(t, turn, true)
			// The agent did show a call, but tool assertions hang on what
			// the target declares (tool_trace), never on what a run saw.
			if slices.Contains(src.Capabilities, capability.ToolTrace) {
				t.Errorf("capabilities %v; want no tool trace without Options.ToolTrace", src.Capabilities)
			}
			if src.TaskID == "" {
				t.Error("no task id in the source")
			}
		})
		t.Run(p.version+"/booking", func(t *testing.T) {
			tr, _, errs := conversation(t, card, "book a table", "4")
			for i, err := range errs {
				if err != nil {
					t.Fatalf("turn %d: %v", i, err)
				}
			}
			if got := tr.Turns[0].Text(); got != "For how many people?" {
				t.Errorf("turn 0 text %q", got)
			}
			if got := tr.Turns[1].Text(); got != "Booked a table for 4." {
				t.Errorf("turn 1 text %q", got)
			}
			c0, t0 := ids(t, &tr.Turns[0])
			c1, t1 := ids(t, &tr.Turns[1])
			if len(c0) != 1 || !slices.Equal(c0, c1) || len(t0) != 1 || !slices.Equal(t0, t1) {
				t.Errorf("contexts %v then %v, tasks %v then %v; want one context and one task", c0, c1, t0, t1)
			}
			var sent struct {
				Message struct {
					ContextID string `json:"contextId"`
					TaskID    string `json:"taskId"`
				} `json:"message"`
			}
			if err := json.Unmarshal(tr.Turns[1].Runs[0].Request, &sent); err != nil || sent.Message.TaskID != t0[0] || sent.Message.ContextID != c0[0] {
				t.Errorf("turn 1 sent %s; want task %v in context %v", tr.Turns[1].Runs[0].Request, t0, c0)
			}
		})
		t.Run(p.version+"/order", func(t *testing.T) {
			tr, _, errs := conversation(t, card, "order 42")
			if errs[0] != nil {
				t.Fatal(errs[0])
			}
			turn := &tr.Turns[0]
			const want = "Looking up order 42…\n```json\n{\"orderId\":\"42\",\"status\":\"shipped\",\"total\":99.5}\n```\nitem,price\nbook,99.50\n"
			if got := turn.Text(); got != want {
				t.Errorf("text %q; want %q", got, want)
			}
			files := []trace.Attachment{{Name: "invoice-42.csv", MIME: "text/csv", Bytes: 22},
				{Name: "receipt-42.pdf", MIME: "application/pdf", URI: "https://files.example.com/receipts/42.pdf"}}
			if !slices.Equal(turn.AgentFiles, files) {
				t.Errorf("agent files %+v; want %+v", turn.AgentFiles, files)
			}
		})
		t.Run(p.version+"/context carried", func(t *testing.T) {
			tr, _, errs := conversation(t, card, "weather in Paris", "hello")
			if errors.Join(errs...) != nil {
				t.Fatal(errs)
			}
			c0, t0 := ids(t, &tr.Turns[0])
			c1, _ := ids(t, &tr.Turns[1])
			if !slices.Equal(c0, c1) {
				t.Errorf("contexts %v then %v; want the same", c0, c1)
			}
			var sent struct {
				Message struct {
					TaskID string `json:"taskId"`
				} `json:"message"`
			}
			json.Unmarshal(tr.Turns[1].Runs[0].Request, &sent)
			if sent.Message.TaskID != "" {
				t.Errorf("turn 1 continued task %q (turn 0's %v was completed)", sent.Message.TaskID, t0)
			}
		})
		t.Run(p.version+"/failed", func(t *testing.T) {
			tr, _, errs := conversation(t, card, "fail", "reject")
			for i, err := range errs {
				if err != nil {
					t.Fatalf("turn %d: %v", i, err)
				}
			}
			for i, want := range []trace.RunError{{Message: "The kitchen is on fire.", Code: "failed"}, {Message: "I only talk about food.", Code: "rejected"}} {
				got := tr.Turns[i].RunErrors
				if len(got) != 1 || got[0].Message != want.Message || got[0].Code != want.Code || got[0].Seq == 0 {
					t.Errorf("turn %d run errors %+v; want %+v", i, got, want)
				}
			}
		})
		t.Run(p.version+"/bad stream", func(t *testing.T) {
			_, _, errs := conversation(t, card, "bad")
			const want = "the stream ended without a final task state (no events): the agent answered the streaming request with JSON-RPC error -32603: scripted failure"
			if errs[0] == nil || errs[0].Error() != want {
				t.Errorf("error %v; want %q", errs[0], want)
			}
		})
		t.Run(p.version+"/hang", func(t *testing.T) {
			// The 500 ms expire once the agent's "Thinking…" is recorded
			// (the clock's fourth reading: the turn's start, the run's,
			// the task, its status), not when a busy machine's clock
			// says so: it may not have read the status by then.
			o := card
			o.Timeout = 500 * time.Millisecond
			expire := make(chan time.Time)
			var mu sync.Mutex
			var waits []time.Duration
			o.after = func(d time.Duration) <-chan time.Time {
				mu.Lock()
				defer mu.Unlock()
				waits = append(waits, d)
				return expire
			}
			clock, readings := stepClock(clockStep), 0
			o.Now = func() time.Time {
				if readings++; readings == 4 {
					close(expire)
				}
				return clock()
			}
			tr, _, errs := conversation(t, o, "hang")
			const want = "no final state after 500ms (last state: working)"
			if errs[0] == nil || errs[0].Error() != want {
				t.Errorf("error %v; want %q", errs[0], want)
			}
			if got := tr.Turns[0].Text(); got != "Thinking…" {
				t.Errorf("text %q; want what came before the timeout", got)
			}
			mu.Lock()
			defer mu.Unlock()
			if !slices.Equal(waits, []time.Duration{o.Timeout, o.Timeout}) {
				t.Errorf("waited %v; want the timeout for discovery, then for the turn", waits)
			}
		})
	}
	t.Run("send and poll", func(t *testing.T) {
		nonBlocking := false
		tr, src, errs := conversation(t, Options{CardURL: ag.url + "/nostream", Blocking: &nonBlocking}, "weather in Paris")
		if errs[0] != nil {
			t.Fatal(errs[0])
		}
		turn := &tr.Turns[0]
		checkWeather(t, turn, false)
		if n := len(turn.Events); n < 2 {
			t.Errorf("%d events; want the answer and at least one poll", n)
		}
		if slices.Contains(src.Capabilities, capability.StreamingTiming) {
			t.Errorf("capabilities %v: no streaming timing when polling", src.Capabilities)
		}
	})
	t.Run("send blocking", func(t *testing.T) {
		tr, _, errs := conversation(t, Options{CardURL: ag.url + "/nostream"}, "weather in Paris", "hello")
		if errors.Join(errs...) != nil {
			t.Fatal(errs)
		}
		checkWeather(t, &tr.Turns[0], false)
		if got := types(&tr.Turns[0]); !slices.Equal(got, []string{"a2a:task"}) {
			t.Errorf("events %v; want the finished task alone", got)
		}
	})
	t.Run("inline card, endpoint", func(t *testing.T) {
		resp, err := http.Get(ag.url + "/v1/.well-known/agent-card.json")
		if err != nil {
			t.Fatal(err)
		}
		card, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		// The card names a host that does not answer; the endpoint fixes it.
		card = bytes.ReplaceAll(card, []byte(ag.url), []byte("http://127.0.0.1:9"))
		tr, _, errs := conversation(t, Options{Card: card, Endpoint: ag.url + "/v1/rpc"}, "hello")
		if errs[0] != nil || tr.Turns[0].Text() != "Hello! How can I help?" {
			t.Errorf("error %v, text %q", errs[0], tr.Turns[0].Text())
		}
	})
	t.Run("0.3-shaped card", func(t *testing.T) {
		// Asked without A2A-Version, a server that also speaks 0.3 answers
		// its card in 0.3's shape (url, preferredTransport).
		resp, err := http.Get(ag.url + "/v03/.well-known/agent-card.json")
		if err != nil {
			t.Fatal(err)
		}
		card, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !bytes.Contains(card, []byte(`"preferredTransport"`)) {
			t.Fatalf("card %s is not 0.3's", card)
		}
		tr, src, errs := conversation(t, Options{Card: card}, "weather in Paris")
		if errs[0] != nil {
			t.Fatal(errs[0])
		}
		checkWeather(t, &tr.Turns[0], true)
		if src.Version != "0.3" {
			t.Errorf("version %q", src.Version)
		}
	})
	t.Run("wrong card URL", func(t *testing.T) {
		_, err := Dial(t.Context(), Options{CardURL: ag.url + "/nope"})
		want := fmt.Sprintf("agent card not found at %s/nope/.well-known/agent-card.json (HTTP 404 Not Found)", ag.url)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v; want %q", err, want)
		}
	})
}

// checkWeather checks the weather task's trace: its text, the get_weather
// call with its arguments and result, and (streamed) the timing.
func checkWeather(t *testing.T, turn *trace.Turn, streamed bool) {
	t.Helper()
	if got := turn.Text(); got != "Checking the weather…\nIt is 21°C and sunny in Paris" {
		t.Errorf("text %q", got)
	}
	if len(turn.ToolCalls) != 1 {
		t.Fatalf("calls %+v; want get_weather", turn.ToolCalls)
	}
	c := turn.ToolCalls[0]
	if c.ID != "call-weather-1" || c.Name != "get_weather" || c.Args != `{"city":"Paris"}` || !c.ArgsJSON ||
		c.Result == nil || c.Result.Content != `{"temp_c":21}` || !c.Result.JSON {
		t.Errorf("call %+v (result %+v)", c, c.Result)
	}
	if !streamed {
		return
	}
	if got := types(turn); !slices.Equal(got, []string{"a2a:task", "a2a:status-update", "a2a:status-update",
		"a2a:status-update", "a2a:artifact-update", "a2a:status-update"}) {
		t.Errorf("events %v", got)
	}
	// Each event is stamped as it is read, with the clock's next reading
	// (conversation's clock moves clockStep at each): the result the
	// event after the call, the first text the event after the task.
	step := clockStep.Milliseconds()
	if c.StartSeq == 0 || c.ResultSeq != c.StartSeq+1 || c.TimestampMs-c.StartedMs != step {
		t.Errorf("call seqs %d→%d, %d→%d ms; want the result the next event, %d ms later", c.StartSeq, c.ResultSeq, c.StartedMs, c.TimestampMs, step)
	}
	if turn.FirstTextMs == 0 || turn.FirstTextMs != turn.Runs[0].FirstEventMs+step {
		t.Errorf("first text at %d, first event at %d; want the text the event after the task, %d ms later", turn.FirstTextMs, turn.Runs[0].FirstEventMs, step)
	}
}

// TestAgentKilled kills the agent in the middle of a stream, over A2A 1.0
// and 0.3.
func TestAgentKilled(t *testing.T) {
	for _, path := range []string{"/v1", "/v03"} {
		t.Run(path, func(t *testing.T) {
			ag := startAgent(t)
			opened := make(chan struct{})
			hc := &http.Client{Transport: &onFirstByte{base: http.DefaultTransport, fn: func() { close(opened) }}}
			// A minute: only a hang meets it; the kill ends the turn.
			s, err := Dial(t.Context(), Options{CardURL: ag.url + path, HTTP: hc, Timeout: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			go func() {
				<-opened
				syscall.Kill(-ag.cmd.Process.Pid, syscall.SIGKILL)
			}()
			rec := trace.NewRecorder()
			rec.StartTurn(0, target.TurnUser, "hang", time.Now())
			err = s.Turn(t.Context(), target.Turn{Type: target.TurnUser, Text: "hang"}, rec)
			rec.EndTurn(time.Now(), nil)
			const want = "the stream broke (last state: working): SSE stream error: "
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Fatalf("error %v; want %q…", err, want)
			}
		})
	}
}

// onFirstByte calls fn once, when the body of a streamed response starts
// arriving.
type onFirstByte struct {
	base http.RoundTripper
	fn   func()
	once sync.Once
}

func (o *onFirstByte) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := o.base.RoundTrip(r)
	if err == nil && strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		resp.Body = &firstByte{ReadCloser: resp.Body, o: o}
	}
	return resp, err
}

type firstByte struct {
	io.ReadCloser
	o *onFirstByte
}

func (b *firstByte) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.o.once.Do(b.o.fn)
	}
	return n, err
}

// TestAgentAuth runs against an agent that wants a key in a header.
func TestAgentAuth(t *testing.T) {
	const key = "k-0123456789"
	ag := startAgent(t, "A2A_REQUIRED_KEY="+key)
	_, err := Dial(t.Context(), Options{CardURL: ag.url + "/v1"})
	if want := "agent card " + ag.url + "/v1/.well-known/agent-card.json: HTTP 401 Unauthorized"; err == nil || err.Error() != want {
		t.Errorf("error %v; want %q", err, want)
	}
	o := Options{CardURL: ag.url + "/v1", Auth: &Auth{Scheme: SchemeAPIKey, Name: "X-Required-Key", In: "header", Value: key}}
	tr, _, errs := conversation(t, o, "hello")
	if errs[0] != nil || tr.Turns[0].Text() != "Hello! How can I help?" {
		t.Errorf("error %v, text %q", errs[0], tr.Turns[0].Text())
	}
	o.Auth.Value = "wrong-" + key
	s, err := Dial(t.Context(), Options{Card: mustCard(t, ag.url+"/v1", key), Auth: o.Auth})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rec := trace.NewRecorder()
	rec.StartTurn(0, target.TurnUser, "hello", time.Now())
	err = s.Turn(t.Context(), target.Turn{Type: target.TurnUser, Text: "hello"}, rec)
	if err == nil || err.Error() != "the agent answered HTTP 401 Unauthorized" {
		t.Errorf("error %v; want HTTP 401", err)
	}
}

func mustCard(t *testing.T, base, key string) json.RawMessage {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+"/.well-known/agent-card.json", nil)
	req.Header.Set("X-Required-Key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("card: %v %s", err, resp.Status)
	}
	return b
}

// TestAgentOAuth2 runs against the agent behind OAuth2 (/oauth): its card
// names the token endpoint, which gives the right client a token the
// agent then knows it by; a wrong secret is refused, and the error says
// so without the secret.
func TestAgentOAuth2(t *testing.T) {
	const secret = "interop-secret-42"
	ag := startAgent(t, "A2A_OAUTH_SECRET="+secret)
	auth := &Auth{Scheme: SchemeOAuth2, ClientID: "ananke-interop", ClientSecret: secret}
	_, _, errs := conversation(t, Options{CardURL: ag.url + "/v1"}, "who am i")
	if errs[0] != nil {
		t.Fatal(errs[0])
	}
	tr, _, errs := conversation(t, Options{CardURL: ag.url + "/oauth", Auth: auth}, "who am i", "hello")
	if errors.Join(errs...) != nil {
		t.Fatal(errs)
	}
	if got := tr.Turns[0].Text(); !strings.HasPrefix(got, "You are ananke-interop (token interop-token-") {
		t.Errorf("text %q; want the agent to know the client by its token", got)
	}
	_, _, errs = conversation(t, Options{CardURL: ag.url + "/oauth", Auth: &Auth{Scheme: SchemeOAuth2, ClientID: "ananke-interop", ClientSecret: "wrong-" + secret}}, "hello")
	want := "oauth2 token from " + ag.url + "/oauth/token: the token endpoint answered HTTP 401 Unauthorized: invalid_client (unknown client or wrong secret)"
	if errs[0] == nil || errs[0].Error() != want {
		t.Errorf("error %v; want %q", errs[0], want)
	}
	// Without auth, the agent refuses.
	_, _, errs = conversation(t, Options{CardURL: ag.url + "/oauth"}, "hello")
	if errs[0] == nil || errs[0].Error() != "the agent answered HTTP 401 Unauthorized" {
		t.Errorf("error %v; want HTTP 401", errs[0])
	}
}
