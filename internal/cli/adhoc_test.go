package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/agui/aguitest"
)

// TestAdHoc: ananke run -i sends one message and prints the conversation
// in full; without a config, --endpoint is the target.
func TestAdHoc(t *testing.T) {
	agent := aguitest.New(t, func(r *aguitest.Request) aguitest.Response {
		return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Seq(
			aguitest.Call("c1", "get_weather", `{"city":"Paris"}`, `{"temp_c":21}`),
			aguitest.Text("a1", "It is 21°C in Paris.\nAnything else?"))...)}
	})
	empty := t.TempDir()
	tests := []struct {
		name     string
		args     []string
		code     int
		out, err string
	}{
		{"a message to --endpoint, no config", []string{"run", "-i", "weather in Paris?", "--endpoint", agent.Endpoint()}, ExitPass,
			"  user: weather in Paris?\n    tool get_weather {\"city\":\"Paris\"} → {\"temp_c\":21}", ""},
		{"the whole reply, every line", []string{"run", "-i", "hi", "--endpoint", agent.Endpoint()}, ExitPass,
			"  agent: It is 21°C in Paris.\n         Anything else?\n  ✓ -i:1:1: the agent sent no RUN_ERROR", ""},
		{"no config, no endpoint", []string{"run", "-i", "hi"}, ExitInvalid, "", "no ananke.config.yaml found"},
		{"not a URL", []string{"run", "-i", "hi", "--endpoint", "localhost:8000"}, ExitInvalid, "", `--endpoint "localhost:8000" is not an http:// or https:// URL`},
		{"an empty message", []string{"run", "-i", " "}, ExitInvalid, "", "-i needs a message or a dataset file"},
		{"a missing dataset", []string{"run", "-i", "cases.jsonl"}, ExitInvalid, "", "-i cases.jsonl: no such file"},
		{"a message with paths", []string{"run", "-i", "hi", "tests/"}, ExitInvalid, "", "-i with a message runs that message alone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, empty, nil, append(tt.args, "--report-dir", filepath.Join(t.TempDir(), "r"))...)
			if r.code != tt.code || !strings.Contains(r.out, tt.out) || !strings.Contains(r.errOut, tt.err) {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, tt.code, r.out, r.errOut)
			}
		})
	}
}

// TestAdHocDataset: -i with a dataset runs it like a path, against
// --endpoint when there is no config.
func TestAdHocDataset(t *testing.T) {
	agent := aguitest.New(t, textAgentCLI)
	dir := t.TempDir()
	data := `{"id": "a", "input": "hello", "assertions": [{"type": "equals", "value": "you said: hello"}]}
{"id": "b", "input": "bye", "assertions": [{"type": "contains", "value": "hello"}]}
`
	if err := os.WriteFile(filepath.Join(dir, "cases.ananke.jsonl"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, dir, nil, "run", "-i", "cases.ananke.jsonl", "--endpoint", agent.Endpoint(), "--report-dir", filepath.Join(t.TempDir(), "r"))
	if r.code != ExitFail || !strings.Contains(r.out, "Tests: 2 total, 1 passed, 1 failed") || !strings.Contains(r.out, "cases.ananke.jsonl:2:74") {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.out, r.errOut)
	}
}

func textAgentCLI(r *aguitest.Request) aguitest.Response {
	last := ""
	for _, m := range r.Input.Messages {
		if m.Role == "user" {
			last, _ = m.TextContent()
		}
	}
	return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Text("m-"+r.Input.RunID, "you said: ", last)...)}
}
