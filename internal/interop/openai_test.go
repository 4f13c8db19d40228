//go:build unix

package interop

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/interop/peer"
	"github.com/ananke/action/internal/replay"
)

// TestOpenAI runs the openai target against aimock, an OpenAI-compatible
// server Ananke does not own, scripted by aimock-openai.json: the suites
// of openai-chat (Chat Completions) and openai-responses (the Responses
// API), each streamed and not. In each, a two-turn test answers the client
// tool get_weather and passes, with the usage aimock reports in its cost,
// and a test requiring arguments the model does not send fails at that
// entry's line. Each run is recorded, and replayed with aimock stopped to
// the same verdicts.
//
// aimock runs with AIMOCK_STRICT_TURN_INDEX=1, so the follow-up question
// is answered only when the request carries the conversation as its API
// does: whole in Chat Completions (two assistant messages before it), by
// previous_response_id in the Responses API (none). It wants the bearer
// token aimockKey, which no output may show.
func TestOpenAI(t *testing.T) {
	dir := peer.Dir()
	node := peer.Node(t, filepath.Join("@copilotkit", "aimock"))
	bin := buildAnanke(t)
	aimock := peer.MustStart(t, dir, []string{"AIMOCK_STRICT_TURN_INDEX=1", "AIMOCK_API_KEYS=" + aimockKey},
		node, filepath.Join("node_modules", "@copilotkit", "aimock", "dist", "cli.js"), "-f", "aimock-openai.json", "-p", "0")
	env := []string{"AIMOCK_OPENAI_URL=" + aimock.URL, "AIMOCK_KEY=" + aimockKey}
	var runs []targetRun
	for _, api := range []string{"chat", "responses"} {
		for _, config := range []string{"ananke.config.yaml", "nostream.config.yaml"} {
			mode := map[string]string{"ananke.config.yaml": "stream", "nostream.config.yaml": "no stream"}[config]
			runs = append(runs, openaiRun("openai-"+api, config, api+" "+mode))
		}
	}
	recordReplay(t, bin, env, runs, func(t *testing.T) { stopPeer(t, aimock) }, checkOpenAIRecording)
}

// openaiRun is the suite of one API with one of its configs.
func openaiRun(suite, config, name string) targetRun {
	return targetRun{
		name: name, config: filepath.Join(suite, config), paths: []string{suite}, wantExit: 1,
		tests: map[string]want{
			"pass/weather": {status: "pass"},
			"fail/wrong-city": {status: "fail", fails: []failure{
				{"turn[0].tools.require[0]", "args_match.city: \"Paris\" does not match `^London$`"}}},
		},
		at: map[string]yamlAt{"fail/wrong-city": {"turn[0].tools.require[0]", `args_match: { city: "^London$" }`}},
		// The usage aimock-openai.json states: the call and the answer in
		// turn 0, the follow-up in turn 1.
		tokens: map[string][][3]int64{
			"pass/weather":    {{40 + 60, 8 + 9, 48 + 69}, {80, 11, 91}},
			"fail/wrong-city": {{40 + 60, 8 + 9, 48 + 69}},
		},
		costed: true,
		hidden: aimockKey,
	}
}

// checkOpenAIRecording reads the requests a run sent, as recorded, for
// each test: every one names the config's model and offers get_weather as
// a function tool; in Chat Completions each sends the conversation whole
// (its messages grow by what came back) and none has a
// previous_response_id; in the Responses API each after the first carries
// the id of the response before it and only the new input items.
func checkOpenAIRecording(t *testing.T, r targetRun, rec string) {
	t.Helper()
	idx, err := replay.ReadIndex(rec)
	if err != nil {
		t.Fatal(err)
	}
	responses := strings.HasPrefix(r.config, "openai-responses")
	model := map[bool]string{false: "interop-chat", true: "interop-responses"}[responses]
	for _, e := range idx.Tests {
		var tf replay.TestFile
		b, err := os.ReadFile(filepath.Join(rec, e.Recording))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &tf); err != nil {
			t.Fatalf("%s: %v", e.Recording, err)
		}
		want := map[string]int{"pass/weather": 3, "fail/wrong-city": 2}[e.ID]
		if len(tf.Attempts) != 1 || len(tf.Attempts[0].Exchanges) != want {
			t.Errorf("%s: %d attempts, want 1 of %d requests", e.ID, len(tf.Attempts), want)
			continue
		}
		lastID, lastLen := "", 0
		for i, x := range tf.Attempts[0].Exchanges {
			var req struct {
				Model    string            `json:"model"`
				Messages []json.RawMessage `json:"messages"`
				Input    json.RawMessage   `json:"input"`
				Previous string            `json:"previous_response_id"`
				Tools    []struct {
					Type     string `json:"type"`
					Name     string `json:"name"`
					Function struct {
						Name string `json:"name"`
					} `json:"function"`
				} `json:"tools"`
			}
			if err := json.Unmarshal(x.Request, &req); err != nil {
				t.Fatalf("%s: request %d: %v", e.ID, i, err)
			}
			var tools []string
			for _, tool := range req.Tools {
				tools = append(tools, tool.Type+" "+tool.Name+tool.Function.Name)
			}
			if req.Model != model || !slices.Equal(tools, []string{"function get_weather"}) {
				t.Errorf("%s: request %d: model %q, tools %q; want %s and the function get_weather", e.ID, i, req.Model, tools, model)
			}
			switch {
			case !responses && (req.Previous != "" || len(req.Messages) <= lastLen):
				t.Errorf("%s: request %d: %d messages after %d, previous_response_id %q; want the conversation whole", e.ID, i, len(req.Messages), lastLen, req.Previous)
			case responses && (req.Previous != lastID || inputItems(req.Input) != 1):
				t.Errorf("%s: request %d: previous_response_id %q, %d input items; want %q and only the new item", e.ID, i, req.Previous, inputItems(req.Input), lastID)
			}
			lastLen = len(req.Messages)
			if responses {
				lastID = responseID(t, filepath.Join(rec, x.Stream))
			}
		}
	}
}

// inputItems counts the items of a Responses request's input: a string
// is one user message.
func inputItems(input json.RawMessage) int {
	var items []json.RawMessage
	if json.Unmarshal(input, &items) == nil {
		return len(items)
	}
	var text string
	if json.Unmarshal(input, &text) == nil {
		return 1
	}
	return 0
}

// responseID is the id of the response a recorded body holds: the
// object's id, or the streamed response.completed event's.
func responseID(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var resp struct {
		ID       string `json:"id"`
		Response struct {
			ID string `json:"id"`
		} `json:"response"`
		Type string `json:"type"`
	}
	if json.Unmarshal(b, &resp) == nil && resp.ID != "" {
		return resp.ID
	}
	for _, line := range strings.Split(string(b), "\n") {
		data, ok := strings.CutPrefix(line, "data: ")
		if ok && json.Unmarshal([]byte(data), &resp) == nil && resp.Type == "response.completed" {
			return resp.Response.ID
		}
	}
	t.Fatalf("%s holds no response id", path)
	return ""
}
