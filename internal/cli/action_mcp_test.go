package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/github/artifact/artifacttest"
	"github.com/ananke/action/internal/github/githubtest"
)

// TestActionMCP runs the action on a pull request against the reference
// MCP server (stdio, from testdata/interop's pinned install): a failing
// assertion of an mcp:call turn is annotated on its YAML line, and the
// comment, the job summary, JUnit and the artifact come out as for an
// AG-UI agent.
func TestActionMCP(t *testing.T) {
	interop := filepath.Join(repoRoot(), "testdata", "interop")
	if _, err := os.Stat(filepath.Join(interop, "node_modules", "@modelcontextprotocol", "server-everything")); err != nil {
		t.Fatalf("the MCP server is not installed (%v): run `npm ci` in testdata/interop (bash .ci/run does)", err)
	}
	dir := t.TempDir()
	for name, body := range map[string]string{
		"ananke.config.yaml": "version: \"1.2\"\ntarget:\n  type: mcp\n  transport: stdio\n" +
			"  command: [node, node_modules/@modelcontextprotocol/server-everything/dist/index.js, stdio]\n" +
			"  cwd: " + interop + "\n  timeout_ms: 120000\n", // only a hung server meets it
		"sum.ananke.yaml": "version: \"1.2\"\nname: get-sum is expected to answer 6\nturns:\n" +
			"  - type: mcp:call\n    tool: get-sum\n    arguments: { a: 2, b: 3 }\n    assert:\n" +
			"      result:\n        match: \"is 6\"\n",
		"echo.ananke.yaml": "version: \"1.2\"\nname: echo\nturns:\n" +
			"  - type: mcp:call\n    tool: echo\n    arguments: { message: hi }\n    assert:\n      result: { match: \"Echo: hi\" }\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gh, art := githubtest.New(t), artifacttest.New(t)
	env, _, summary := actionEnv(t, dir, "pull_request", prEvent, gh, art)
	r := run(t, dir, env, "action")
	if r.code != ExitFail {
		t.Fatalf("exit %d; want 1\n%s%s", r.code, r.out, r.errOut)
	}
	runs := gh.CheckRuns()
	if len(runs) != 1 || runs[0].Conclusion != "failure" || !strings.Contains(runs[0].Summary, "1 failed of 2 tests") {
		t.Fatalf("check runs %+v", runs)
	}
	var where []string
	for _, a := range runs[0].Annotations {
		where = append(where, a.Path+":"+itoa(a.StartLine))
	}
	if !slices.Contains(where, "sum.ananke.yaml:9") {
		t.Errorf("annotations at %q; want sum.ananke.yaml:9 (the result's match)", where)
	}
	comments := gh.Comments(5)
	if len(comments) != 1 || !strings.Contains(comments[0].Body, "get-sum is expected to answer 6") || !strings.Contains(comments[0].Body, "The sum of 2 and 3 is 5.") {
		t.Errorf("the comment lacks the failure and its evidence:\n%+v", comments)
	}
	if md, _ := os.ReadFile(summary); !strings.Contains(string(md), "1 failed of 2 tests") {
		t.Errorf("job summary:\n%s", md)
	}
	junit, err := os.ReadFile(filepath.Join(dir, "ananke-report", "junit.xml"))
	if err != nil || !strings.Contains(string(junit), `<failure`) || !strings.Contains(string(junit), "turn[0].result.match") {
		t.Errorf("junit.xml (%v):\n%s", err, junit)
	}
	if arts := art.Artifacts(); len(arts) != 1 {
		t.Errorf("%d artifacts; want the report", len(arts))
	}
}
