package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/github/artifact/artifacttest"
	"github.com/ananke/action/internal/github/githubtest"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ananke/action/internal/normalized/normalizedtest"
)

// exported is what the import tests read of a normalized trace.
type exported struct {
	FinalOutput string `json:"final_output"`
	Events      []struct {
		Type string
		Data struct {
			Text     string
			TraceSeq int64  `json:"trace_seq"`
			Origin   string `json:"origin"`
		}
	}
}

func exportOne(t *testing.T, dir, report, id string) exported {
	t.Helper()
	r := run(t, dir, nil, "trace", "export", "--test", id, report)
	var out exported
	if err := json.Unmarshal([]byte(r.out), &out); err != nil || r.code != ExitPass {
		t.Fatalf("trace export %s: exit %d, %v\n%s", id, r.code, err, r.errOut)
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(r.out))
	if err != nil {
		t.Fatal(err)
	}
	if err := normalizedtest.Schema(t).Validate(v); err != nil {
		t.Errorf("%s: the export does not match the schema: %v", id, err)
	}
	return out
}

// TestExportImported runs a Claude Code session and a NanoClaw recording as
// tests and exports their traces: the final output is the assistant's
// recorded text (in the event and the field), and each user message names
// the transcript line it was read from.
func TestExportImported(t *testing.T) {
	dir := t.TempDir()
	session := filepath.Join(repoRoot(), "internal", "source", "claude", "testdata", "session.jsonl")
	news := filepath.Join(repoRoot(), "examples", "nanoclaw", "recordings", "current-news", "pass")
	os.WriteFile(filepath.Join(dir, "ananke.config.yaml"), []byte("version: \"1.0\"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "claude.ananke.yaml"), []byte(`version: "1.0"
name: a claude session
source: { format: claude-transcript, path: "`+filepath.ToSlash(session)+`" }
assert:
  text: { must_match: "linter" }
`), 0o644)
	os.WriteFile(filepath.Join(dir, "news.ananke.yaml"), []byte(`version: "1.0"
name: a nanoclaw run
source: { format: nanoclaw, path: "`+filepath.ToSlash(news)+`", group: family }
assert:
  text: { must_match: "AI news" }
`), 0o644)
	report := filepath.Join(dir, "out")
	if r := run(t, dir, nil, "run", "--report-dir", report); r.code != ExitPass {
		t.Fatalf("run: exit %d\n%s\n%s", r.code, r.out, r.errOut)
	}
	for _, c := range []struct {
		id, final, user string
		userSeq         int64
		userOrigin      string
	}{
		{"claude", "The linter reports no issues.", "Fix the failing test in parser_test.go", 2, "session.jsonl:2"},
		{"news", "Today's AI news (Thu, Apr 9):", "@Andy what's the latest AI news today?", 0, "-workspace-group/"},
	} {
		tr := exportOne(t, dir, report, c.id)
		if !strings.HasPrefix(tr.FinalOutput, c.final) {
			t.Errorf("%s: final_output %q, want %q…", c.id, tr.FinalOutput, c.final)
		}
		last := tr.Events[len(tr.Events)-1]
		if last.Type != "final_output" || last.Data.Text != tr.FinalOutput {
			t.Errorf("%s: last event %+v, want final_output with the final output", c.id, last)
		}
		first := tr.Events[0]
		if first.Type != "message_received" || !strings.Contains(first.Data.Text, c.user) || first.Data.TraceSeq == 0 ||
			(c.userSeq != 0 && first.Data.TraceSeq != c.userSeq) || !strings.Contains(first.Data.Origin, c.userOrigin) {
			t.Errorf("%s: first event %+v, want the user's message with its trace_seq and origin", c.id, first)
		}
	}
}

// TestAssertionIDs runs the action over a Claude Code session whose
// assertions: items have ids: each id is its assertion's id in summary.json,
// the console, JUnit and the check run's annotations.
func TestAssertionIDs(t *testing.T) {
	dir := t.TempDir()
	session := filepath.Join(repoRoot(), "internal", "source", "claude", "testdata", "session.jsonl")
	os.WriteFile(filepath.Join(dir, "ananke.config.yaml"), []byte("version: \"1.0\"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "session.ananke.yaml"), []byte(`version: "1.0"
name: the parser session
source: { format: claude-transcript, path: "`+filepath.ToSlash(session)+`" }
assertions:
  - { id: read-once, type: retry_policy_respected, tool: Read, max_attempts: 1 }
  - { id: never-bash, type: must_not_call_tool, tool: Bash }
  - { id: read-the-test, type: must_call_tool, tool: Read, args_match: { file_path: "_test\\.go$" } }
`), 0o644)
	gh, art := githubtest.New(t), artifacttest.New(t)
	env, _, _ := actionEnv(t, dir, "pull_request", prEvent, gh, art)
	r := run(t, dir, env, "action")
	if r.code != ExitFail {
		t.Fatalf("exit %d; want 1\n%s%s", r.code, r.out, r.errOut)
	}
	sum := readSummary(t, filepath.Join(dir, "ananke-report"))
	tc := findTest(t, sum, "session")
	for id, status := range map[string]string{"test.read-once": "pass", "test.never-bash": "fail", "test.read-the-test": "pass"} {
		if a := findAssertion(t, tc, id); a.Status != status {
			t.Errorf("%s: %s %q, want %s", id, a.Status, a.Message, status)
		}
	}
	if plain := regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(r.out, ""); !strings.Contains(plain, "assertion: test.never-bash") {
		t.Errorf("the console does not name test.never-bash:\n%s", r.out)
	}
	junit, _ := os.ReadFile(filepath.Join(dir, "ananke-report", "junit.xml"))
	if !strings.Contains(string(junit), "assertion: test.never-bash") {
		t.Errorf("junit.xml does not name test.never-bash:\n%s", junit)
	}
	runs := gh.CheckRuns()
	var titles []string
	for _, a := range runs[0].Annotations {
		titles = append(titles, a.Title)
	}
	if !slices.Contains(titles, "the parser session: test.never-bash") {
		t.Errorf("annotation titles %q; want the assertion's id", titles)
	}
}

// suiteOf writes a config and test files into a new directory.
func suiteOf(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	if _, ok := files["ananke.config.yaml"]; !ok {
		files["ananke.config.yaml"] = "version: \"1.0\"\n"
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// summaryCalls reads the tool calls of each test's turns in summary.json.
func summaryCalls(t *testing.T, report string) map[string][]map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(report, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Tests []struct {
			ID    string
			Turns []struct {
				ToolCalls []map[string]any `json:"tool_calls"`
			}
		}
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	out := map[string][]map[string]any{}
	for _, tc := range s.Tests {
		for _, turn := range tc.Turns {
			out[tc.ID] = append(out[tc.ID], turn.ToolCalls...)
		}
	}
	return out
}

// TestToolCallErrors: a tool call whose result was an error (a Claude
// tool_result with is_error) says so in summary.json.
func TestToolCallErrors(t *testing.T) {
	session := filepath.Join(repoRoot(), "internal", "source", "claude", "testdata", "session.jsonl")
	dir := suiteOf(t, map[string]string{"session.ananke.yaml": `version: "1.0"
name: the parser session
source: { format: claude-transcript, path: "` + filepath.ToSlash(session) + `" }
assert:
  tools: { forbid: [Bash] }
`})
	report := filepath.Join(dir, "out")
	if r := run(t, dir, nil, "run", "--report-dir", report); r.code != ExitFail {
		t.Fatalf("run: exit %d\n%s\n%s", r.code, r.out, r.errOut)
	}
	var flagged []string
	for _, c := range summaryCalls(t, report)["session"] {
		if c["is_error"] != nil {
			flagged = append(flagged, fmt.Sprintf("%s %s %v", c["name"], c["id"], c["is_error"]))
		}
	}
	if want := []string{"Bash toolu_01Kq8mTzP4vRn2WcYx6bLfJd true"}; !slices.Equal(flagged, want) {
		t.Errorf("calls with is_error %q; want the failed Bash call alone", flagged)
	}
}

// TestClaudeProject runs a Claude Code project folder as people have one
// (~/.claude/projects/<cwd>/): a test per session, ids suffixed by the
// session; the subagent's calls are the session's, named by their agent;
// a line cut short is a warning at its place, or an error under strict.
func TestClaudeProject(t *testing.T) {
	const (
		a = "0b7e6c1a-5d2f-4c8e-9a31-7f4e2b9d6c05"
		b = "5f2d9e44-8b1c-4a7d-b3e6-2c9f0a8e1d37"
	)
	home := filepath.Join(repoRoot(), "internal", "source", "claude", "testdata", "projects")
	dir := suiteOf(t, map[string]string{
		"shop.ananke.yaml": `version: "1.0"
name: shop sessions
source: { format: claude-transcript, path: ~/-home-dev-shop }
assertions:
  - { id: explored, type: must_call_tool, tool: Grep }
`,
		"strict.ananke.yaml": `version: "1.0"
name: the newest, strictly
source: { format: claude-transcript, path: "${ENV.HOME}/-home-dev-shop", select: newest, strict: true }
assert:
  text: { must_match: "discount" }
`,
		"subagent.ananke.yaml": `version: "1.0"
name: the explorer alone
source: { format: claude-transcript, path: "~/-home-dev-shop/` + a + `/subagents/agent-a7c21f9.jsonl" }
assert:
  text: { must_match: "applyDiscount" }
`})
	report := filepath.Join(dir, "out")
	r := run(t, dir, map[string]string{"HOME": home}, "run", "-v", "--report-dir", report)
	if r.code != ExitFail || !strings.Contains(r.out, "Tests: 4 total, 2 passed, 1 failed, 1 errored") {
		t.Fatalf("run: exit %d\n%s\n%s", r.code, r.out, r.errOut)
	}
	for _, want := range []string{
		"shop sessions (" + a + ")",
		"warning: turn[0]: ~/-home-dev-shop/" + b + ".jsonl:4: not a JSON object: unexpected end of JSON input; the line is left out [source]",
		"source: ${ENV.HOME}/-home-dev-shop/" + b + ".jsonl:4: not a JSON object: unexpected end of JSON input",
		"warning: turn[0]: ~/-home-dev-shop/" + a + "/subagents/agent-a7c21f9.jsonl is the transcript of subagent a7c21f9 (Explore: Find the checkout discount) of session " + a,
	} {
		if !strings.Contains(r.out, want) {
			t.Errorf("the console lacks %q:\n%s", want, r.out)
		}
	}
	b2, _ := os.ReadFile(filepath.Join(report, "summary.json"))
	var sum struct {
		Tests []struct {
			ID, Name, Status string
			Turns            []struct{ User string }
			Warnings         []struct{ Rule, Message string }
		}
	}
	if err := json.Unmarshal(b2, &sum); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, tc := range sum.Tests {
		got[tc.ID] = fmt.Sprintf("%s %d turns %d warnings", tc.Status, len(tc.Turns), len(tc.Warnings))
	}
	want := map[string]string{
		"shop/" + a: "pass 3 turns 0 warnings", // /model, its output and the task notification are no turns
		"shop/" + b: "fail 1 turns 1 warnings", // no subagent, no Grep; the cut line is a warning
		"strict":    "error 0 turns 0 warnings",
		"subagent":  "pass 1 turns 1 warnings",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tests %v\nwant  %v", got, want)
	}
	var calls []string
	for _, c := range summaryCalls(t, report)["shop/"+a] {
		s := c["name"].(string)
		if ag, ok := c["agent"].(string); ok {
			s += " by " + ag
		}
		if c["is_error"] == true {
			s += " (error)"
		}
		calls = append(calls, s)
	}
	if w := []string{"Task", "Grep by a7c21f9", "Read by a7c21f9 (error)", "Read", "Edit", "Bash"}; !slices.Equal(calls, w) {
		t.Errorf("calls of session A %q\nwant %q", calls, w)
	}
}

// TestValidateSessions: validate counts a folder source's sessions as the
// tests they are, not as files.
func TestValidateSessions(t *testing.T) {
	home := filepath.Join(repoRoot(), "internal", "source", "claude", "testdata", "projects")
	dir := suiteOf(t, map[string]string{"shop.ananke.yaml": "version: \"1.0\"\nname: shop\nsource: { format: claude-transcript, path: ~/-home-dev-shop }\nassert: { text: { must_match: x } }\n"})
	r := run(t, dir, map[string]string{"HOME": home}, "validate")
	if r.code != ExitPass || !strings.HasSuffix(r.out, "and 1 test file (2 tests) are valid\n") {
		t.Errorf("exit %d\n%s%s", r.code, r.out, r.errOut)
	}
}
