package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// setConfig rewrites lines of a copied suite's config: each old line,
// which must be there, becomes its new one.
func setConfig(t *testing.T, dir string, oldNew ...string) {
	t.Helper()
	path := filepath.Join(dir, "ananke.config.yaml")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for i := 0; i < len(oldNew); i += 2 {
		if !strings.Contains(s, oldNew[i]) {
			t.Fatalf("the config has no line %q", oldNew[i])
		}
		s = strings.Replace(s, oldNew[i], oldNew[i+1], 1)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRunOpenAI runs examples/openai against the example agent's
// OpenAI-compatible API in each of its modes — Chat Completions and the
// Responses API, streamed and whole: the passing tests pass (a client tool
// answered from the test, a conversation across four turns, a refusal),
// with their usage priced; the failing one fails at its YAML line.
func TestRunOpenAI(t *testing.T) {
	for _, mode := range []struct {
		name   string
		config []string
	}{
		{"chat, streamed", nil},
		{"chat, whole", []string{"stream: true", "stream: false"}},
		{"responses, streamed", []string{"api: chat", "api: responses"}},
		{"responses, whole", []string{"api: chat", "api: responses", "stream: true", "stream: false"}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			dir := copySuite(t, "openai")
			setConfig(t, dir, mode.config...)
			r := run(t, dir, nil, "run", "--report-dir", filepath.Join(dir, "out"), "pass")
			if r.code != ExitPass {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.out, r.errOut)
			}
			for _, want := range []string{"✓ weather in Paris through the client tool get_weather", "✓ the conversation goes on across turns, a tool call among them",
				"✓ a refusal is the turn's text", "Tests: 3 total, 3 passed, 0 failed, 0 errored, 0 skipped (pass rate 100.0%)"} {
				if !strings.Contains(r.out, want) {
					t.Errorf("stdout lacks %q:\n%s", want, r.out)
				}
			}
			if line := lineWith(r.out, "✓ weather in Paris"); !strings.Contains(line, " tokens · $0.0000") {
				t.Errorf("the weather test's line shows no usage and cost: %q", line)
			}
		})
	}
	dir := copySuite(t, "openai")
	r := run(t, dir, nil, "run", "--report-dir", filepath.Join(dir, "out"), "fail")
	if r.code != ExitFail {
		t.Fatalf("exit %d; want 1\nstdout:\n%s\nstderr:\n%s", r.code, r.out, r.errOut)
	}
	for _, want := range []string{
		"wrong-city.ananke.yaml:16:13: expected `get_weather` with args_match.city `^Paris$` at least 1 time, saw 0;",
		`failed args_match.city: "London" does not match ` + "`^Paris$`",
		"Tests: 1 total, 0 passed, 1 failed, 0 errored, 0 skipped (pass rate 0.0%)",
	} {
		if !strings.Contains(r.out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.out)
		}
	}
}

// TestRunHTTP runs examples/http against the example agent's JSON API:
// the session id a response returns is sent with the next turn (the
// agent remembers the name two turns later), the tool calls are read from
// the response, with their results; the failing test fails at its YAML
// line.
func TestRunHTTP(t *testing.T) {
	dir := copySuite(t, "http")
	r := run(t, dir, nil, "run", "--report-dir", filepath.Join(dir, "out"), "pass")
	if r.code != ExitPass {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.out, r.errOut)
	}
	for _, want := range []string{"✓ the session goes on across three turns, a tool call among them", "✓ two cities, two calls read from the response",
		"Tests: 2 total, 2 passed, 0 failed, 0 errored, 0 skipped (pass rate 100.0%)"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.out)
		}
	}
	if line := lineWith(r.out, "✓ two cities"); !strings.Contains(line, " tokens · ") {
		t.Errorf("the weather test's line shows no usage: %q", line)
	}
	r = run(t, dir, nil, "run", "--report-dir", filepath.Join(dir, "out-fail"), "fail")
	if r.code != ExitFail {
		t.Fatalf("exit %d; want 1\nstdout:\n%s\nstderr:\n%s", r.code, r.out, r.errOut)
	}
	for _, want := range []string{
		"wrong-city.ananke.yaml:11:13: expected `get_weather` with args_match.city `^Paris$` at least 1 time, saw 0;",
		`failed args_match.city: "London" does not match ` + "`^Paris$`",
		"Tests: 1 total, 0 passed, 1 failed, 0 errored, 0 skipped (pass rate 0.0%)",
	} {
		if !strings.Contains(r.out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.out)
		}
	}
}

// lineWith is the first line of s that contains sub, or "".
func lineWith(s, sub string) string {
	for line := range strings.Lines(s) {
		if strings.Contains(line, sub) {
			return strings.TrimSuffix(line, "\n")
		}
	}
	return ""
}
