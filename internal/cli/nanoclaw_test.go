package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestNanoClawExamples runs the NanoClaw example suite over its recordings,
// and a test over a NanoClaw 2 recording: the six tests pass with no
// agent, a capability-gated assertion is skipped with its reason, and each
// broken recording fails on the check that catches it, with evidence at
// the transcript's lines.
func TestNanoClawExamples(t *testing.T) {
	dir := filepath.Join(repoRoot(), "examples", "nanoclaw")
	out := t.TempDir()
	r := run(t, dir, nil, "run", "--report-dir", filepath.Join(out, "pass"))
	if r.code != ExitPass || !strings.Contains(r.out, "Tests: 6 total, 6 passed") {
		t.Fatalf("passing recordings: exit %d\n%s\n%s", r.code, r.out, r.errOut)
	}
	sum := readSummary(t, filepath.Join(out, "pass"))
	for _, tc := range sum.Tests {
		layout := "1"
		if strings.HasPrefix(tc.ID, "nanoclaw.v2.") {
			layout = "2"
		}
		if tc.Source.Adapter != "nanoclaw" || tc.Source.Version != layout || tc.Source.Mode != "import" || !slices.Contains(tc.Source.Capabilities, "supports_memory_events") {
			t.Errorf("%s: source = %+v, want nanoclaw %s", tc.ID, tc.Source, layout)
		}
	}
	news := findTest(t, sum, "nanoclaw.tools.current-news.web-sourced")
	gated := findAssertion(t, news, "test.timing.max_duration_ms")
	if gated.Status != "skip" || gated.Message != "skipped: needs supports_streaming_timing, which the nanoclaw trace does not provide" {
		t.Errorf("timing check = %s %q; want skipped with its reason", gated.Status, gated.Message)
	}

	// The normalized export keeps the adapter, its capabilities and the
	// scheduler context.
	r = run(t, dir, nil, "trace", "export", "--test", "nanoclaw.scheduler.daily-digest.single-outbound", filepath.Join(out, "pass"))
	var nt struct {
		Adapter      struct{ Name, Mode string }
		Capabilities map[string]bool
		Scenario     struct {
			GroupID string `json:"group_id"`
			TaskID  string `json:"task_id"`
			Trigger string
		}
	}
	if err := json.Unmarshal([]byte(r.out), &nt); err != nil || r.code != ExitPass {
		t.Fatalf("trace export: exit %d, %v\n%s", r.code, err, r.errOut)
	}
	if nt.Adapter.Name != "nanoclaw" || nt.Adapter.Mode != "import" || !nt.Capabilities["supports_scheduler_context"] || nt.Capabilities["supports_streaming_timing"] ||
		nt.Scenario.GroupID != "family" || nt.Scenario.TaskID != "task-daily-digest" || nt.Scenario.Trigger != "scheduler" {
		t.Errorf("exported trace = %+v", nt)
	}

	broken, _ := filepath.Glob(filepath.Join(dir, "*", "broken.ananke.yaml"))
	args := append([]string{"run", "--report-dir", filepath.Join(out, "fail")}, broken...)
	r = run(t, dir, nil, args...)
	if r.code != ExitFail || !strings.Contains(r.out, "Tests: 6 total, 0 passed, 6 failed") {
		t.Fatalf("broken recordings: exit %d\n%s\n%s", r.code, r.out, r.errOut)
	}
	sum = readSummary(t, filepath.Join(out, "fail"))
	want := map[string][]string{ // the assertions each regression fails, by the ids the test gave them
		"nanoclaw.tools.current-news.web-sourced.broken":             {"test.searched-the-web", "test.grounded"},
		"nanoclaw.memory.same-group-recall.brief-bullets.broken":     {"test.recalls-family-memory.text.must_match[0]", "test.brief-bullets"},
		"nanoclaw.memory.isolation.no-cross-group-leak.broken":       {"test.no-family-memory.memory.forbid[0]", "test.no-family-memory.text.omits[1]"},
		"nanoclaw.scheduler.daily-digest.single-outbound.broken":     {"test.one-message"},
		"nanoclaw.scheduler.digest-timeout.graceful-recovery.broken": {"test.bounded-retries", "test.owns-up", "test.run-completed", "test.one-message"},
		"nanoclaw.v2.scheduler.pill-reminder.single-outbound.broken": {"test.one-message"},
	}
	for id, ids := range want {
		tc := findTest(t, sum, id)
		for _, aid := range ids {
			if a := findAssertion(t, tc, aid); a.Status != "fail" {
				t.Errorf("%s %s: %s %q; want fail", id, aid, a.Status, a.Message)
			}
		}
	}
	// The cross-group read is shown at the transcript lines that made it.
	leak := findAssertion(t, findTest(t, sum, "nanoclaw.memory.isolation.no-cross-group-leak.broken"), "test.no-family-memory.memory.forbid[0]")
	if len(leak.Origins) == 0 || !strings.Contains(leak.Origins[0], "recordings/memory-cross-group/fail/data/sessions/main/.claude/projects/-workspace-group/") {
		t.Errorf("memory.forbid origins = %v; want the transcript lines", leak.Origins)
	}
	for _, o := range leak.Origins {
		if i := strings.LastIndexByte(o, ':'); i < 0 || !strings.HasSuffix(o[:i], ".jsonl") {
			t.Errorf("origin %q is not file.jsonl:LINE", o)
		}
	}
	if !strings.Contains(r.out, "events:") || !strings.Contains(r.out, "forbidden: read groups/family/CLAUDE.md") {
		t.Errorf("console lacks the evidence lines:\n%s", r.out)
	}
}

// TestMissingCapabilityError: under on_missing_capability: error, a check
// the trace cannot answer errors the test instead of being skipped.
func TestMissingCapabilityError(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(repoRoot(), "examples", "nanoclaw", "recordings", "current-news", "pass")
	os.WriteFile(filepath.Join(dir, "ananke.config.yaml"), []byte("version: \"1.0\"\non_missing_capability: error\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "t.ananke.yaml"), []byte(`version: "1.0"
name: strict
source: { format: nanoclaw, path: "`+filepath.ToSlash(rec)+`", group: family }
assert:
  timing: { max_duration_ms: 60000 }
`), 0o644)
	r := run(t, dir, nil, "run", "--report-dir", filepath.Join(dir, "out"))
	if r.code != ExitError || !strings.Contains(r.out, "needs supports_streaming_timing, which the nanoclaw trace does not provide (on_missing_capability: error)") {
		t.Fatalf("exit %d, want %d\n%s\n%s", r.code, ExitError, r.out, r.errOut)
	}
}

type summaryTest struct {
	ID     string `json:"id"`
	Source struct {
		Adapter      string   `json:"adapter"`
		Version      string   `json:"version"`
		Mode         string   `json:"mode"`
		Capabilities []string `json:"capabilities"`
	} `json:"source"`
	Assertions []summaryAssertion `json:"assertions"`
}

type summaryAssertion struct {
	ID      string   `json:"id"`
	Status  string   `json:"status"`
	Message string   `json:"message"`
	Origins []string `json:"origins"`
}

func readSummary(t *testing.T, dir string) (s struct{ Tests []summaryTest }) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func findTest(t *testing.T, s struct{ Tests []summaryTest }, id string) summaryTest {
	t.Helper()
	for _, tc := range s.Tests {
		if tc.ID == id {
			return tc
		}
	}
	t.Fatalf("no test %s", id)
	return summaryTest{}
}

func findAssertion(t *testing.T, tc summaryTest, id string) summaryAssertion {
	t.Helper()
	for _, a := range tc.Assertions {
		if a.ID == id {
			return a
		}
	}
	t.Fatalf("%s: no assertion %s", tc.ID, id)
	return summaryAssertion{}
}
