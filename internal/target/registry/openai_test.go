package registry_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ananke/action/internal/attack/plant"
	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/replay"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/target/registry"
)

// weatherAgent is an agent behind Chat Completions, streamed or not:
// asked about the weather in a city, it calls the client tool
// get_weather with it, then says what the tool answered; any other
// message it repeats. Every answer reports its usage.
func weatherAgent(t *testing.T, asked *atomic.Int32) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		var req struct {
			Stream   bool `json:"stream"`
			Messages []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
		}
		if b, _ := io.ReadAll(r.Body); json.Unmarshal(b, &req) != nil || r.URL.Path != "/v1/chat/completions" {
			t.Errorf("a request to %s: %s", r.URL.Path, b)
		}
		last := req.Messages[len(req.Messages)-1]
		message := fmt.Sprintf(`{"role":"assistant","content":%q}`, "You said: "+last.Content)
		switch {
		case last.Role == "tool":
			message = fmt.Sprintf(`{"role":"assistant","content":%q}`, "The forecast: "+last.Content)
		case strings.HasPrefix(last.Content, "weather in "):
			args, _ := json.Marshal(map[string]string{"city": strings.TrimPrefix(last.Content, "weather in ")})
			message = fmt.Sprintf(`{"role":"assistant","content":null,"tool_calls":[{"id":"call_%d","type":"function","function":{"name":"get_weather","arguments":%q}}]}`, len(req.Messages), args)
		}
		usage := `{"prompt_tokens":100,"completion_tokens":20,"total_tokens":120}`
		if !req.Stream {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"id":"c","object":"chat.completion","model":"gpt-4o-mini","choices":[{"index":0,"message":%s,"finish_reason":"stop"}],"usage":%s}`, message, usage)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: {\"object\":\"chat.completion.chunk\",\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":%s}]}\n\n", message)
		fmt.Fprintf(w, "data: {\"object\":\"chat.completion.chunk\",\"model\":\"gpt-4o-mini\",\"choices\":[],\"usage\":%s}\n\ndata: [DONE]\n\n", usage)
	})
}

// weatherTests are a test that passes and one whose assertion fails, at
// its line.
var weatherTests = map[string]string{
	"pass.ananke.yaml": `version: "1.2"
name: weather
tools:
  - name: get_weather
    parameters: {type: object, properties: {city: {type: string}}}
    results:
      - {args_match: {city: "^Paris$"}, result: {sky: clear}}
turns:
  - user: weather in Paris
    assert:
      text: {must_match: "clear"}
      tools: {require: [{name: get_weather, args_match: {city: "^Paris$"}}]}
  - user: thanks
    assert: {text: {must_match: "You said: thanks"}}
`,
	"fail.ananke.yaml": `version: "1.2"
name: wrong city
tools:
  - {name: get_weather, result: {sky: rain}}
turns:
  - user: weather in Rome
    assert:
      tools: {require: [{name: get_weather, args_match: {city: "^Paris$"}}]}
`,
}

// TestOpenAITarget: a suite against an agent behind Chat Completions,
// streamed and not, runs through the engine as written — the test that
// should pass passes, with its usage in its cost; the other fails at its
// assertion's line — and, recorded, replays to the same verdicts with
// the agent stopped.
func TestOpenAITarget(t *testing.T) {
	for _, stream := range []bool{true, false} {
		t.Run(fmt.Sprintf("stream %v", stream), func(t *testing.T) {
			var asked atomic.Int32
			srv := httptest.NewServer(weatherAgent(t, &asked))
			defer srv.Close()
			s := openaiSuite(t, srv.URL+"/v1", stream)
			verdicts := func(out *engine.Outcome) string {
				var v []string
				for _, r := range out.Tests {
					v = append(v, r.Test.Name.Value+": "+string(r.Status))
				}
				return strings.Join(v, ", ")
			}
			live := engine.Run(context.Background(), engine.Options{Protocols: registry.Lookup, Suite: s})
			if got, want := verdicts(live), "wrong city: fail, weather: pass"; got != want {
				t.Fatalf("verdicts %q, want %q", got, want)
			}
			fail, pass := live.Tests[0], live.Tests[1]
			var failed []string
			for _, r := range fail.Attempts[0].Results {
				if r.Status == status.Fail {
					failed = append(failed, fmt.Sprintf("%s at line %d", r.Kind, r.Source.Line))
				}
			}
			if got := strings.Join(failed, ", "); got != "tools.require at line 8" {
				t.Errorf("the failing test failed %q; want tools.require at line 8 (its require)", got)
			}
			tr := pass.Attempts[0].Trace
			var spent []*cost.Spend
			for _, turn := range tr.Turns {
				spent = append(spent, turn.Usage)
			}
			if in, _ := cost.Sum(spent...).Tokens().Get(cost.Input); in != 300 || tr.Source == nil || tr.Source.Adapter != "openai" {
				t.Errorf("the passing test: %d input tokens (want 300: three requests), source %+v", in, tr.Source)
			}

			dir := t.TempDir()
			rec, err := replay.NewRecorder(filepath.Join(dir, "rec"), time.Now)
			if err != nil {
				t.Fatal(err)
			}
			if out := engine.Run(context.Background(), engine.Options{Protocols: registry.Lookup, Suite: s, Tape: rec}); verdicts(out) != verdicts(live) {
				t.Fatalf("recording: %q", verdicts(out))
			}
			if err := rec.Write(s, replay.Meta{Version: "test"}, func(s string) string { return s }); err != nil {
				t.Fatal(err)
			}
			srv.Close()
			before := asked.Load()
			p, err := replay.Open(filepath.Join(dir, "rec"), time.Now)
			if err != nil {
				t.Fatal(err)
			}
			replayed := engine.Run(context.Background(), engine.Options{Protocols: registry.Lookup, Suite: s, Tape: p})
			if got := verdicts(replayed); got != verdicts(live) || asked.Load() != before {
				t.Errorf("replayed: %q (the agent asked %d more times); want %q", got, asked.Load()-before, verdicts(live))
			}
			if src := replayed.Tests[1].Attempts[0].Trace.Source; src == nil || src.Adapter != "openai" || src.Mode != "replay" {
				t.Errorf("replayed source %+v", src)
			}
		})
	}
}

// openaiSuite is weatherTests against an openai target at endpoint.
func openaiSuite(t *testing.T, endpoint string, stream bool) *spec.Suite {
	t.Helper()
	config := fmt.Sprintf("version: \"1.2\"\ntarget:\n  type: openai\n  endpoint: %q\n  model: gpt-4o-mini\n  stream: %v\n  auth: {scheme: bearer, token: sk-test}\n", endpoint, stream)
	files := map[string]string{"ananke.config.yaml": config}
	for k, v := range weatherTests {
		files[k] = v
	}
	return loadSuite(t, files)
}

// TestPlantInOpenAI: an attack run's payload reaches an agent behind an
// OpenAI-compatible API in the client tool's answer its plant names, as
// it reaches an AG-UI agent (TestPlantInAGUI); the other answers stay as
// they were.
func TestPlantInOpenAI(t *testing.T) {
	p := "\n\n" + payload
	base := map[string]string{
		"lookup":    `{"order":"A-1","body":"a longer text"}`,
		"confirm":   "yes",
		"read_file": "line one\n",
		"get_json":  `{"n":1,"items":[{"d":"short"},{"d":"the longest one"}]}`,
		"count":     "42",
	}
	for _, tc := range []struct {
		name    string
		plant   *plant.Plant
		planted string
	}{
		{"no attack", nil, ""},
		{"a result object", &plant.Plant{Channel: plant.ToolResult, Site: "lookup"}, `{"order":"A-1","body":"a longer text` + jsonText(p) + `"}`},
		{"the results entry that answers", &plant.Plant{Channel: plant.ToolResult, Site: "confirm"}, "yes" + p},
		{"a number, as text", &plant.Plant{Channel: plant.ToolResult, Site: "count"}, "42" + p},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var last []byte // the last request's body
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				last, _ = io.ReadAll(r.Body)
				var req struct {
					Messages []struct{ Role string } `json:"messages"`
					Tools    []struct {
						Function struct{ Name string } `json:"function"`
					} `json:"tools"`
				}
				_ = json.Unmarshal(last, &req)
				w.Header().Set("Content-Type", "application/json")
				if req.Messages[len(req.Messages)-1].Role == "tool" {
					io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`)
					return
				}
				var calls []string
				for _, tl := range req.Tools {
					args := `{}`
					if tl.Function.Name == "confirm" {
						args = `{"amount":42}`
					}
					calls = append(calls, fmt.Sprintf(`{"id":"c-%s","type":"function","function":{"name":%q,"arguments":%q}}`, tl.Function.Name, tl.Function.Name, args))
				}
				fmt.Fprintf(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[%s]},"finish_reason":"tool_calls"}]}`, strings.Join(calls, ","))
			}))
			defer srv.Close()
			s := aguiSuite(t, srv.URL)
			s.Config.Target = openaiTarget(t, srv.URL+"/v1")
			if tc.plant != nil {
				tc.plant.Payload = payload
				s.Tests[0].Attack = tc.plant
			}
			out := engine.Run(context.Background(), engine.Options{Protocols: registry.Lookup, Suite: s})
			if r := out.Tests[0]; r.Status != status.Pass {
				t.Fatalf("%s %s", r.Status, r.Reason)
			}
			want := maps.Clone(base)
			if tc.plant != nil {
				want[tc.plant.Site] = tc.planted
			}
			var req struct {
				Messages []struct {
					Role, Content string
					ToolCallID    string `json:"tool_call_id"`
				} `json:"messages"`
			}
			if err := json.Unmarshal(last, &req); err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, m := range req.Messages {
				if m.Role == "tool" {
					got[strings.TrimPrefix(m.ToolCallID, "c-")] = m.Content
				}
			}
			for k, w := range want {
				if !same(got[k], w) {
					t.Errorf("%s: the agent read %q, want %q", k, got[k], w)
				}
			}
			if len(got) != len(want) {
				t.Errorf("the agent read %q", got)
			}
		})
	}
}

// openaiTarget is an openai target at endpoint, read as a config writes
// it.
func openaiTarget(t *testing.T, endpoint string) spec.Target {
	t.Helper()
	return loadSuite(t, map[string]string{
		"ananke.config.yaml": fmt.Sprintf("version: \"1.2\"\ntarget: {type: openai, endpoint: %q, model: m, stream: false}\n", endpoint),
		"t.ananke.yaml":      "version: \"1.0\"\nname: t\nturns: [{user: hi}]\n",
	}).Config.Target
}
