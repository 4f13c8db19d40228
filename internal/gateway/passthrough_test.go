package gateway

import (
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/trace"
)

func tokens(set map[cost.Field]int64) cost.Tokens {
	var t cost.Tokens
	for f, n := range set {
		t.Set(f, n)
	}
	return t
}

// TestPassthrough: the request goes to the upstream as sent, with the
// configured key instead of the agent's; the answer comes back as sent;
// the model call says what happened, its usage among it.
func TestPassthrough(t *testing.T) {
	for _, tc := range []struct {
		name, req string
		answer    http.HandlerFunc
		body      string // the agent gets this body, or these events
		events    []string
		want      trace.ModelCall
	}{
		{name: "tool call", req: askStock, answer: jsonAnswer(200, toolAnswer), body: toolAnswer,
			want: trace.ModelCall{Model: "gpt-4o-mini", ResponseModel: "gpt-4o-mini-2024-07-18", Messages: 2, Tools: []string{"check_stock", "reserve"},
				Usage:  &cost.Usage{Model: "gpt-4o-mini-2024-07-18", Tokens: tokens(map[cost.Field]int64{cost.Input: 50, cost.Output: 10, cost.Total: 60, cost.CachedInput: 20})},
				Status: 200, Mode: "passthrough", FinishReason: "tool_calls", ToolCalls: []string{"check_stock"}, StartedMs: 1_000_010, EndedMs: 1_000_020}},
		{name: "stream", req: askStream, answer: streamAnswer(streamChunks...), events: append(append([]string{}, streamChunks...), "[DONE]"),
			want: trace.ModelCall{Model: "gpt-4o-mini", ResponseModel: "gpt-4o-mini-2024-07-18", Stream: true, Messages: 1,
				Usage:  &cost.Usage{Model: "gpt-4o-mini-2024-07-18", Tokens: tokens(map[cost.Field]int64{cost.Input: 12, cost.Output: 5, cost.Total: 17, cost.Reasoning: 0})},
				Status: 200, Mode: "passthrough", FinishReason: "stop", StartedMs: 1_000_010, EndedMs: 1_000_020}},
		{name: "upstream error", req: askStock, answer: jsonAnswer(429, `{"error":{"message":"Rate limit reached","type":"requests"}}`, "Retry-After", "7"),
			body: `{"error":{"message":"Rate limit reached","type":"requests"}}`,
			want: trace.ModelCall{Model: "gpt-4o-mini", Messages: 2, Tools: []string{"check_stock", "reserve"}, Status: 429, Mode: "passthrough",
				Note: "the upstream answered HTTP 429 Too Many Requests: Rate limit reached", StartedMs: 1_000_010, EndedMs: 1_000_020}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			up := newUpstream(t, tc.answer)
			r := newRig(t, Options{Mode: Passthrough, Upstream: up.URL + "/v1/", APIKey: testKey})
			status, h, body := r.post(t, tc.req)
			if status != tc.want.Status {
				t.Errorf("status %d, want %d", status, tc.want.Status)
			}
			if tc.events != nil {
				if got := dataOf(body); !reflect.DeepEqual(got, tc.events) {
					t.Errorf("events %q, want %q", got, tc.events)
				}
				if ct := h.Get("Content-Type"); ct != "text/event-stream" {
					t.Errorf("Content-Type %q", ct)
				}
			} else if body != tc.body {
				t.Errorf("body %s, want %s", body, tc.body)
			}
			if tc.want.Status == 429 && h.Get("Retry-After") != "7" {
				t.Errorf("Retry-After %q, want the upstream's 7", h.Get("Retry-After"))
			}
			got := up.seen()
			if len(got) != 1 || got[0] != (seen{"POST", "/v1/chat/completions", "Bearer " + testKey, tc.req}) {
				t.Errorf("the upstream got %+v", got)
			}
			mcs := r.calls()
			if len(mcs) != 1 {
				t.Fatalf("%d model calls, want 1", len(mcs))
			}
			if !reflect.DeepEqual(mcs[0], tc.want) {
				a, _ := json.Marshal(mcs[0])
				b, _ := json.Marshal(tc.want)
				t.Errorf("model call\n%s\nwant\n%s", a, b)
			}
			if r.g.Save() != nil {
				t.Error("passthrough saves nothing, and fails at nothing")
			}
		})
	}
}

// TestAgentKeyForwarded: without api_key, the agent's own Authorization
// goes to the upstream.
func TestAgentKeyForwarded(t *testing.T) {
	up := newUpstream(t, jsonAnswer(200, toolAnswer))
	r := newRig(t, Options{Mode: Passthrough, Upstream: up.URL})
	r.post(t, askStock)
	if got := up.seen(); len(got) != 1 || got[0].auth != "Bearer agent-own-key" {
		t.Errorf("the upstream got %+v", got)
	}
}

// TestStreamFlushed: each chunk reaches the agent as it comes: the
// upstream sends its second chunk only once the agent has the first.
func TestStreamFlushed(t *testing.T) {
	first := make(chan struct{})
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: "+streamChunks[0]+"\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-first:
		case <-time.After(time.Minute):
			t.Error("the agent never got the first chunk before the stream ended")
		}
		io.WriteString(w, sseBody(streamChunks[1:]...))
	})
	r := newRig(t, Options{Mode: Passthrough, Upstream: up.URL})
	resp, err := http.Post(r.srv.URL+"/chat/completions", "application/json", strings.NewReader(askStream))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	buf := make([]byte, 4096)
	var got strings.Builder
	for !strings.Contains(got.String(), "\n\n") {
		n, err := resp.Body.Read(buf)
		got.Write(buf[:n])
		if err != nil {
			t.Fatalf("read: %v after %q", err, got.String())
		}
	}
	if want := "data: " + streamChunks[0] + "\n\n"; got.String() != want {
		t.Errorf("first event %q, want %q", got.String(), want)
	}
	close(first)
	rest, _ := io.ReadAll(resp.Body)
	if n := len(dataOf(string(rest))); n != len(streamChunks) {
		t.Errorf("%d more events, want %d", n, len(streamChunks))
	}
}

// TestUpstreamUnreachable: an upstream that does not answer is a 502
// naming what happened, without the key.
func TestUpstreamUnreachable(t *testing.T) {
	up := newUpstream(t, jsonAnswer(200, "{}"))
	url := up.URL
	up.Close()
	r := newRig(t, Options{Mode: Record, Upstream: "http://user:" + testKey + "@" + strings.TrimPrefix(url, "http://") + "/v1", APIKey: testKey, Dir: t.TempDir()})
	status, _, body := r.post(t, askStock)
	mc := r.calls()[0]
	if status != http.StatusBadGateway || mc.Status != http.StatusBadGateway {
		t.Errorf("status %d (model call %d), want 502", status, mc.Status)
	}
	want := "the upstream did not answer: Post http://user:***@" + strings.TrimPrefix(url, "http://") + "/v1/chat/completions: dial tcp"
	if !strings.HasPrefix(mc.Error, want) {
		t.Errorf("error %q, want it to start with %q", mc.Error, want)
	}
	if strings.Contains(body+mc.Error, testKey) {
		t.Errorf("the key shows: %s / %s", body, mc.Error)
	}
}

// TestOrphans: a request no attempt is bound to is forwarded but kept
// nowhere in passthrough and record, and refused in replay; the board
// lists it either way.
func TestOrphans(t *testing.T) {
	up := newUpstream(t, jsonAnswer(200, toolAnswer))
	dir := t.TempDir()
	r := newRig(t, Options{Mode: Record, Upstream: up.URL, Dir: dir})
	r.bd.Release()
	if status, _, _ := r.post(t, askStock); status != 200 {
		t.Errorf("record: an orphan got %d, want the upstream's 200", status)
	}
	if err := r.g.Save(); err != nil {
		t.Fatal(err)
	}
	if entries, _ := filepath.Glob(filepath.Join(dir, "*")); len(entries) != 0 {
		t.Errorf("an orphan was recorded: %v", entries)
	}
	want := "chat completions gpt-4o-mini: no test that uses the backend was running; forwarded to the upstream, not recorded"
	if o := r.board.Orphans(); len(o) != 1 || o[0].What+": "+o[0].Why != want {
		t.Errorf("orphans %+v, want %q", o, want)
	}

	rp := newRig(t, Options{Mode: Replay, Dir: dir})
	rp.bd.Release()
	status, _, body := rp.post(t, askStock)
	if status != http.StatusBadRequest || !strings.Contains(body, "replay: this request belongs to no running test") {
		t.Errorf("replay: an orphan got %d %s", status, body)
	}
	want = "chat completions gpt-4o-mini: no test that uses the backend was running; answered with an error"
	if o := rp.board.Orphans(); len(o) != 1 || o[0].What+": "+o[0].Why != want {
		t.Errorf("orphans %+v, want %q", o, want)
	}
}

// TestNotServed: what the gateway does not serve says what it serves.
func TestNotServed(t *testing.T) {
	r := newRig(t, Options{Mode: Replay, Dir: t.TempDir()})
	for _, tc := range []struct {
		method, path string
		status       int
		msg          string
	}{
		{"POST", "/v1/embeddings", 404, "ananke gateway: the gateway serves POST …/chat/completions and GET …/models, not POST /v1/embeddings"},
		{"GET", "/v1/chat/completions", 405, "ananke gateway: chat completions take POST, not GET"},
		{"POST", "/v1/models", 405, "ananke gateway: the model list takes GET, not POST"},
	} {
		req, _ := http.NewRequest(tc.method, r.srv.URL+tc.path, strings.NewReader("{}"))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e struct{ Error struct{ Message string } }
		json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != tc.status || e.Error.Message != tc.msg {
			t.Errorf("%s %s: %d %q, want %d %q", tc.method, tc.path, resp.StatusCode, e.Error.Message, tc.status, tc.msg)
		}
	}
	if len(r.calls()) != 0 {
		t.Error("what is not a chat completion made a model call")
	}
}

// TestBadRequest: a body that is not a JSON object is refused, and the
// model call says why.
func TestBadRequest(t *testing.T) {
	up := newUpstream(t, jsonAnswer(200, toolAnswer))
	r := newRig(t, Options{Mode: Passthrough, Upstream: up.URL})
	status, _, _ := r.post(t, `[1]`)
	mc := r.calls()
	if status != 400 || len(mc) != 1 || mc[0].Error != "the request body is not a JSON object" || len(up.seen()) != 0 {
		t.Errorf("status %d, calls %+v, upstream %d requests", status, mc, len(up.seen()))
	}
}

// TestEndpoint: the upstream's paths go under its base URL, which keeps
// its query.
func TestEndpoint(t *testing.T) {
	for base, want := range map[string]string{
		"https://api.openai.com/v1":  "https://api.openai.com/v1/chat/completions",
		"https://api.openai.com/v1/": "https://api.openai.com/v1/chat/completions",
		"http://127.0.0.1:4010":      "http://127.0.0.1:4010/chat/completions",
		"https://x.openai.azure.com/openai/deployments/d?api-version=2024-10-21": "https://x.openai.azure.com/openai/deployments/d/chat/completions?api-version=2024-10-21",
	} {
		r := newRig(t, Options{Mode: Passthrough, Upstream: base})
		if got := r.g.endpoint("chat/completions"); got != want {
			t.Errorf("%s: %s, want %s", base, got, want)
		}
	}
	for _, bad := range []string{"", "ftp://x", "api.openai.com/v1"} {
		if _, err := New(Options{Mode: Record, Upstream: bad, Board: newRig(t, Options{Mode: Replay, Dir: t.TempDir()}).board}); err == nil {
			t.Errorf("upstream %q: no error", bad)
		}
	}
	if srv := newRig(t, Options{Mode: Replay, Dir: t.TempDir(), Timeout: time.Minute}).g.Server(":0"); srv.ReadTimeout != time.Minute || srv.ReadHeaderTimeout == 0 || srv.WriteTimeout != 0 {
		t.Errorf("server bounds: read %v, header %v, write %v", srv.ReadTimeout, srv.ReadHeaderTimeout, srv.WriteTimeout)
	}
}

// TestCallKeepsItsTurn: a model call is in the turn that was playing
// when its request arrived, though the next turn plays by the time the
// upstream answers.
func TestCallKeepsItsTurn(t *testing.T) {
	arrived, release := make(chan struct{}), make(chan struct{})
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		close(arrived)
		<-release
		jsonAnswer(200, toolAnswer)(w, r)
	})
	r := newRig(t, Options{Mode: Passthrough, Upstream: up.URL})
	done := make(chan error)
	go func() {
		resp, err := http.Post(r.srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(askStock))
		if err == nil {
			_, err = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		done <- err
	}()
	<-arrived
	r.bd.SetTurn(1)
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	_, late := r.bd.Take(1)
	_, mcs := r.bd.Take(0)
	if len(late) != 0 || len(mcs) != 1 || mcs[0].Turn != 0 || mcs[0].Status != 200 {
		t.Errorf("turn 0 has %+v, turn 1 %+v; want the call in turn 0, where it arrived", mcs, late)
	}
}
