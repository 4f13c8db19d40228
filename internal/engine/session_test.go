package engine_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
)

// mcpSuite is a suite of one two-turn test against an MCP server started
// by command (the real adapter; the interop tests cover servers that
// answer, these the ones that do not).
func mcpSuite(t *testing.T, command string) *spec.Suite {
	t.Helper()
	return writeSuite(t, map[string]string{
		"ananke.config.yaml": "version: \"1.2\"\ntarget:\n  type: mcp\n  transport: stdio\n  command: " + command + "\n  timeout_ms: " + strconv.Itoa(answerTimeoutMs) + "\n",
		"calls.ananke.yaml": "version: \"1.2\"\nname: calls\nturns:\n" +
			"  - type: mcp:call\n    tool: echo\n    arguments: { message: hi }\n    assert: { result: { match: hi } }\n" +
			"  - type: mcp:list_tools\n    assert: { tools_list: { include: [echo] } }\n",
	})
}

// writeSuite writes files (ananke.config.yaml among them) into a fresh
// directory and loads the suite.
func writeSuite(t *testing.T, files map[string]string) *spec.Suite {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := spec.Load(spec.Options{ConfigPath: filepath.Join(dir, "ananke.config.yaml")})
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return s
}

// TestSessionFailures: a session that cannot be opened errors the test at
// its first turn, with the turn's position and the adapter's words, and
// the checks after it are reported as not evaluated: never a pass.
func TestSessionFailures(t *testing.T) {
	for _, tc := range []struct {
		name, command, want string
	}{
		{"no such server", `["/nonexistent/mcp-server"]`, "/nonexistent/mcp-server"},
		{"server exits", `["sh", "-c", "echo boom >&2; exit 3"]`, "exit status 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := one(t, run(t, mcpSuite(t, tc.command)))
			if r.Status != status.Error || !strings.HasPrefix(r.Reason, "turn[0]: ") || !strings.Contains(r.Reason, tc.want) {
				t.Fatalf("status %v, reason %q; want an error at turn[0] naming %q", r.Status, r.Reason, tc.want)
			}
			if r.ReasonPos.Line != 4 {
				t.Errorf("reason at %v; want the first turn (line 4)", r.ReasonPos)
			}
			a := r.Attempts[0]
			skipped := 0
			for _, res := range a.Results {
				if res.Status == status.Pass {
					t.Errorf("%s passed without a session", res.ID)
				}
				if res.Status == status.Skip && strings.Contains(res.Message, "the test errored in turn[0]") {
					skipped++
				}
			}
			if skipped == 0 {
				t.Errorf("the later turn's checks are not reported as not evaluated: %+v", a.Results)
			}
			if src := a.Trace.Source; src != nil {
				t.Errorf("a session never opened gave a source %+v", src)
			}
		})
	}
}
