package cli

import (
	"strings"
	"testing"
)

// TestInitAPITargets runs init --type openai and --type http against the
// example agent's OpenAI-compatible API and JSON API, without a terminal:
// the probe answers, the config has the type's target, and the first test
// validates and passes.
func TestInitAPITargets(t *testing.T) {
	base := strings.TrimSuffix(startExampleAgent(t), "/agent")
	tests := []struct {
		name       string
		args       []string
		wantErr    []string // on stderr
		wantConfig []string
	}{
		{"openai chat", []string{"--type", "openai", "--endpoint", base + "/v1", "--model", "example-agent-1"},
			[]string{"probing " + base + "/v1 (chat, model example-agent-1) with \"Hello\" …", "the agent answered (71 characters of text) and called no tool"},
			[]string{"type: openai", `endpoint: "` + base + `/v1"`, "api: chat", `model: "example-agent-1"`}},
		{"openai responses, a model the API does not list", []string{"--type", "openai", "--endpoint", base + "/v1/", "--model", "gpt-4o-mini", "--api", "responses"},
			[]string{`warning: the API lists no model "gpt-4o-mini"; it lists: example-agent-1`, "the agent answered (71 characters of text)"},
			[]string{"api: responses", `model: "gpt-4o-mini"`}},
		{"http", []string{"--type", "http", "--endpoint", base + "/api/chat"},
			[]string{`probing ` + base + `/api/chat: POST {"message": "Hello"} …`,
				"the agent answered (71 characters of text at $.reply; a conversation id at $.session_id) and called no tool"},
			[]string{"type: http", `message: "${message}"`, `text: "$.reply"   # found by init's probe`, `    conversation_id: "$.session_id"   # found by init's probe`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := newRepo(t)
			r := run(t, dir, nil, append([]string{"init"}, tc.args...)...)
			if r.code != ExitPass {
				t.Fatalf("init exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.out, r.errOut)
			}
			for _, want := range tc.wantErr {
				if !strings.Contains(r.errOut, want) {
					t.Errorf("stderr lacks %q:\n%s", want, r.errOut)
				}
			}
			if !strings.Contains(tc.name, "does not list") && strings.Contains(r.errOut, "warning") {
				t.Errorf("a warning:\n%s", r.errOut)
			}
			files := readFiles(t, dir)
			for _, want := range tc.wantConfig {
				if !strings.Contains(files["ananke.config.yaml"], want) {
					t.Errorf("the config lacks %q:\n%s", want, files["ananke.config.yaml"])
				}
			}
			if test := files["tests/first.ananke.yaml"]; !strings.Contains(test, `#   replied: "I can look up the weather, take an order`) || !strings.Contains(test, `must_match: "\\S"`) {
				t.Errorf("the first test is not built from the answer:\n%s", test)
			}
			actionlint(t, dir+"/.github/workflows/agent-tests.yml")
			if r := run(t, dir, nil, "validate"); r.code != ExitPass {
				t.Errorf("validate exit %d\n%s%s", r.code, r.out, r.errOut)
			}
			if r := run(t, dir, nil, "run"); r.code != ExitPass || !strings.Contains(r.out, "✓ the agent answers a first message") {
				t.Errorf("run exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.out, r.errOut)
			}
		})
	}
}

// TestInitAPINoAgentAtPath: a server that answers 404 at the base URL's
// chat completions, or at a JSON API's URL, serves no agent there: init
// writes nothing, and for an OpenAI-compatible API names the usual base
// URLs.
func TestInitAPINoAgentAtPath(t *testing.T) {
	base := strings.TrimSuffix(startExampleAgent(t), "/agent")
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"openai", []string{"--type", "openai", "--endpoint", base + "/api/v2", "--model", "m"},
			[]string{base + "/api/v2: POST " + base + "/api/v2/chat/completions answered HTTP 404: 404 page not found",
				"no OpenAI-compatible API is at that base URL", "\n    " + base + "/v1\n", "\n    " + base + "/api/v1\n", "\n    " + base + "/openai/v1\n"}},
		{"http", []string{"--type", "http", "--endpoint", base + "/health"},
			[]string{base + "/health: POST " + base + "/health answered HTTP 405", "a server answered, but takes no POST at that path\n"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := newRepo(t)
			r := run(t, dir, nil, append([]string{"init"}, tc.args...)...)
			if r.code != ExitInvalid || !strings.Contains(r.errOut, "nothing was written") {
				t.Fatalf("exit %d; want 3 and nothing written\nstderr:\n%s", r.code, r.errOut)
			}
			for _, want := range tc.want {
				if !strings.Contains(r.errOut, want) {
					t.Errorf("stderr lacks %q:\n%s", want, r.errOut)
				}
			}
		})
	}
}

// TestInitAPIAsks answers init --type openai's questions on a (fake)
// terminal: the base URL, then the model.
func TestInitAPIAsks(t *testing.T) {
	base := strings.TrimSuffix(startExampleAgent(t), "/agent")
	dir := newRepo(t)
	r := runTerminal(t, dir, "localhost\n"+base+"/v1\n\nexample-agent-1\n", true, "init", "--type", "openai")
	if r.code != ExitPass {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.out, r.errOut)
	}
	for _, want := range []string{"The API's base URL (e.g. http://localhost:4010/v1): ", `"localhost" is not an http:// or https:// URL`, "The model (e.g. gpt-4o-mini): The model"} {
		if !strings.Contains(r.errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.errOut)
		}
	}
	if strings.Contains(r.errOut, "Agent id") {
		t.Errorf("asked for an agent id:\n%s", r.errOut)
	}
	if cfg := readFiles(t, dir)["ananke.config.yaml"]; !strings.Contains(cfg, `model: "example-agent-1"`) {
		t.Errorf("the config lacks the model answered:\n%s", cfg)
	}
}
