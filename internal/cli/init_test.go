package cli

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// initFiles are the files `ananke init` writes, relative to its directory.
var initFiles = []string{"ananke.config.yaml", "tests/first.ananke.yaml", ".github/workflows/agent-tests.yml"}

// startExampleAgent runs the example agent's binary on a free port until
// the test ends and returns its endpoint once it accepts connections.
func startExampleAgent(t *testing.T) string {
	t.Helper()
	addr := freePort(t)
	cmd := exec.Command(exampleAgent(t), "-addr", addr, "-delay-ms", "0")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	})
	for deadline := time.Now().Add(time.Minute); ; { // listening takes a busy machine seconds, never a minute
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			return "http://" + addr + "/agent"
		}
		if time.Now().After(deadline) {
			t.Fatalf("the example agent does not listen on %s: %v", addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// runTerminal runs the CLI in dir as run does, with input as stdin and
// stdin a terminal or not.
func runTerminal(t *testing.T, dir, input string, terminal bool, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	a := &app{
		Stdio:   Stdio{In: strings.NewReader(input), Out: &out, Err: &errOut, InIsTerminal: terminal},
		environ: os.Environ(),
		getwd:   func() (string, error) { return filepath.Abs(".") },
		now:     time.Now,
	}
	t.Chdir(dir)
	code := a.main(context.Background(), args)
	return result{code, out.String(), errOut.String()}
}

// newRepo is an empty directory that is the root of its own (pretend) git
// repository, so init writes the workflow in it even when the temp
// directory lies inside another repository.
func newRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// readFiles returns the contents of the files init writes in dir.
func readFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	for _, name := range initFiles {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		got[name] = string(b)
	}
	return got
}

// actionlint checks a workflow with the module's actionlint.
func actionlint(t *testing.T, path string) {
	t.Helper()
	cmd := exec.Command("go", "tool", "actionlint", path)
	cmd.Dir = repoRoot()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("actionlint %s: %v\n%s", path, err, out)
	}
}

// TestInitAgainstTheExampleAgent is init's done-when: against a running
// agent, without a terminal, it writes three files that validate, a
// workflow actionlint accepts, and a first test that passes.
func TestInitAgainstTheExampleAgent(t *testing.T) {
	endpoint := startExampleAgent(t)
	tests := []struct {
		name      string
		args      []string
		wantTest  []string // in tests/first.ananke.yaml
		wantTools bool
	}{
		{"hello", nil, []string{`- user: "Hello"`, `must_match: "\\S"`, "#   called:  no tool"}, false},
		{"tools", []string{"--probe-message", "What's the weather in Paris?"},
			[]string{`- user: "What's the weather in Paris?"`, "- name: get_weather", "#   replied: \"It is sunny", "#   called:  get_weather"}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := newRepo(t)
			r := run(t, dir, nil, append([]string{"init", "--endpoint", endpoint, "--agent-id", "example-shop"}, tc.args...)...)
			if r.code != ExitPass {
				t.Fatalf("init exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.out, r.errOut)
			}
			files := readFiles(t, dir)
			for _, want := range tc.wantTest {
				if !strings.Contains(files["tests/first.ananke.yaml"], want) {
					t.Errorf("tests/first.ananke.yaml lacks %q:\n%s", want, files["tests/first.ananke.yaml"])
				}
			}
			if got := strings.Contains(files["tests/first.ananke.yaml"], "require:"); got != tc.wantTools {
				t.Errorf("tools.require written: %v; want %v", got, tc.wantTools)
			}
			for _, want := range []string{"wrote ananke.config.yaml", "wrote tests/first.ananke.yaml", "wrote .github/workflows/agent-tests.yml", "ananke run "} {
				if !strings.Contains(r.out, want) {
					t.Errorf("stdout lacks %q:\n%s", want, r.out)
				}
			}
			if !strings.Contains(r.errOut, "the agent answered") {
				t.Errorf("stderr does not say what the probe saw:\n%s", r.errOut)
			}
			if r := run(t, dir, nil, "validate"); r.code != ExitPass {
				t.Errorf("validate exit %d\n%s%s", r.code, r.out, r.errOut)
			}
			actionlint(t, filepath.Join(dir, ".github", "workflows", "agent-tests.yml"))
			if r := run(t, dir, nil, "run"); r.code != ExitPass || !strings.Contains(r.out, "✓ the agent answers a first message") {
				t.Errorf("run exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.out, r.errOut)
			}
		})
	}
}

// TestInitAsks answers init's questions on a (fake) terminal: the files
// are those the flags write.
func TestInitAsks(t *testing.T) {
	endpoint := startExampleAgent(t)
	flags := newRepo(t)
	if r := run(t, flags, nil, "init", "--endpoint", endpoint, "--agent-id", "example-shop"); r.code != ExitPass {
		t.Fatalf("init with flags: exit %d\n%s", r.code, r.errOut)
	}
	want := readFiles(t, flags)

	tests := []struct {
		name, input, wantAgentID string
		args                     []string
		wantPrompts              []string
	}{
		{"both", endpoint + "\nexample-shop\n", "example-shop", nil,
			[]string{"The agent's AG-UI endpoint (e.g. http://localhost:8000/agent): ", "Agent id [my-agent]: "}},
		{"bad URL, then the default id", "localhost:8000\n" + endpoint + "\n\n", "my-agent", nil,
			[]string{`"localhost:8000" is not an http:// or https:// URL`, "Agent id [my-agent]: "}},
		{"only what the flags leave out", endpoint + "\n", "example-shop", []string{"--agent-id", "example-shop"},
			[]string{"endpoint"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := newRepo(t)
			r := runTerminal(t, dir, tc.input, true, append([]string{"init"}, tc.args...)...)
			if r.code != ExitPass {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.out, r.errOut)
			}
			for _, p := range tc.wantPrompts {
				if !strings.Contains(r.errOut, p) {
					t.Errorf("stderr lacks %q:\n%s", p, r.errOut)
				}
			}
			if len(tc.args) > 0 && strings.Contains(r.errOut, "Agent id") {
				t.Errorf("asked for the agent id given as a flag:\n%s", r.errOut)
			}
			got := readFiles(t, dir)
			for _, name := range initFiles {
				w := strings.Replace(want[name], `agentId: "example-shop"`, `agentId: "`+tc.wantAgentID+`"`, 1)
				if got[name] != w {
					t.Errorf("%s differs from the one the flags write:\n%s\nwant:\n%s", name, got[name], w)
				}
			}
		})
	}
	if r := runTerminal(t, t.TempDir(), "", true, "init"); r.code != ExitInvalid || !strings.Contains(r.errOut, "no answer") {
		t.Errorf("init with no answer: exit %d %q; want 3 and no answer", r.code, r.errOut)
	}
}

func TestInitNeverOverwrites(t *testing.T) {
	dir := newRepo(t)
	config := filepath.Join(dir, "ananke.config.yaml")
	if err := os.WriteFile(config, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, dir, nil, "init", "--no-probe", "--endpoint", "http://localhost:8000/agent")
	if r.code != ExitInvalid || !strings.Contains(r.errOut, "ananke.config.yaml exists; use --force to overwrite") {
		t.Errorf("init over a config: exit %d %q; want 3 naming the file", r.code, r.errOut)
	}
	if b, _ := os.ReadFile(config); string(b) != "old" {
		t.Errorf("the config was overwritten: %q", b)
	}
	for _, name := range initFiles[1:] {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s was written although init refused", name)
		}
	}
	r = run(t, dir, nil, "init", "--no-probe", "--force", "--endpoint", "http://localhost:8000/agent")
	if r.code != ExitPass {
		t.Fatalf("init --force: exit %d %q", r.code, r.errOut)
	}
	if files := readFiles(t, dir); !strings.Contains(files["ananke.config.yaml"], "http://localhost:8000/agent") ||
		!strings.Contains(files["tests/first.ananke.yaml"], "the agent was not probed (--no-probe); edit this test") {
		t.Errorf("init --force wrote:\n%s\n%s", files["ananke.config.yaml"], files["tests/first.ananke.yaml"])
	}
}

// TestInitProbeFails: an agent that does not answer still gets its files,
// with a generic first test saying why, and a warning.
func TestInitProbeFails(t *testing.T) {
	dir := newRepo(t)
	r := run(t, dir, nil, "init", "--endpoint", "http://"+freePort(t)+"/agent")
	if r.code != ExitPass {
		t.Fatalf("exit %d\nstderr:\n%s", r.code, r.errOut)
	}
	if !strings.Contains(r.errOut, "warning: the agent did not answer the probe:") || !strings.Contains(r.errOut, "refused") {
		t.Errorf("stderr lacks the warning:\n%s", r.errOut)
	}
	test, err := os.ReadFile(filepath.Join(dir, "tests", "first.ananke.yaml"))
	if err != nil || !strings.Contains(string(test), "the agent did not answer the probe: ") || !strings.Contains(string(test), "; edit this test") {
		t.Errorf("the first test does not say why it is generic: %v\n%s", err, test)
	}
	if r := run(t, dir, nil, "validate"); r.code != ExitPass {
		t.Errorf("validate exit %d\n%s%s", r.code, r.out, r.errOut)
	}
}

// TestInitInRepo: in a subdirectory of a git repository the workflow goes
// to the repository's root, where GitHub reads it, and names the config
// from there.
func TestInitInRepo(t *testing.T) {
	root := newRepo(t)
	r := run(t, root, nil, "init", "--no-probe", "--endpoint", "http://localhost:8000/agent", "agents/shop")
	if r.code != ExitPass {
		t.Fatalf("exit %d %q", r.code, r.errOut)
	}
	b, err := os.ReadFile(filepath.Join(root, ".github", "workflows", "agent-tests.yml"))
	if err != nil || !strings.Contains(string(b), "config: agents/shop/ananke.config.yaml") {
		t.Errorf("workflow at the root: %v\n%s", err, b)
	}
	for _, want := range []string{"wrote " + filepath.Join("agents", "shop", "ananke.config.yaml"), "wrote " + filepath.Join(".github", "workflows", "agent-tests.yml"),
		"ananke run --config " + filepath.Join("agents", "shop", "ananke.config.yaml")} {
		if !strings.Contains(r.out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.out)
		}
	}
	actionlint(t, filepath.Join(root, ".github", "workflows", "agent-tests.yml"))
}

func TestInitInvalid(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"no endpoint without a terminal", []string{"init"}, "--endpoint URL is needed when stdin is not a terminal"},
		{"not a URL", []string{"init", "--endpoint", "localhost:8000"}, `"localhost:8000" is not an http:// or https:// URL`},
		{"type", []string{"init", "--type", "a2a", "--endpoint", "http://x/agent"}, "--type a2a: init writes agui, openai and http targets"},
		{"two directories", []string{"init", "a", "b"}, "one directory at most"},
		{"example with an agent id", []string{"init", "--example", "--agent-id", "x"}, "--agent-id does not apply to --example"},
		{"example endpoint", []string{"init", "--example", "--endpoint", "http://127.0.0.1/agent"}, "must be http://HOST:PORT/agent"},
		{"empty message", []string{"init", "--endpoint", "http://x/agent", "--probe-message", " "}, "--probe-message is empty"},
		{"empty agent id", []string{"init", "--endpoint", "http://x/agent", "--agent-id", ""}, "--agent-id is empty"},
		{"unknown flag", []string{"init", "--endpiont", "http://x/agent"}, "did you mean --endpoint?"},
		{"openai without a model", []string{"init", "--type", "openai", "--endpoint", "http://x/v1"}, "--model is needed when stdin is not a terminal"},
		{"openai, an empty model", []string{"init", "--type", "openai", "--endpoint", "http://x/v1", "--model", " "}, "--model is empty"},
		{"http without an endpoint", []string{"init", "--type", "http"}, "--endpoint URL is needed when stdin is not a terminal (the URL of the agent's JSON API, e.g. http://localhost:8080/chat)"},
		{"an agent id for openai", []string{"init", "--type", "openai", "--agent-id", "x", "--endpoint", "http://x/v1"}, "--agent-id applies to --type agui, not openai"},
		{"a model for http", []string{"init", "--type", "http", "--model", "m", "--endpoint", "http://x/chat"}, "--model applies to --type openai, not http"},
		{"an api for agui", []string{"init", "--api", "responses", "--endpoint", "http://x/agent"}, "--api applies to --type openai, not agui"},
		{"an unknown api", []string{"init", "--type", "openai", "--api", "completions", "--endpoint", "http://x/v1", "--model", "m"}, `--api "completions": chat (Chat Completions) or responses`},
		{"example of another type", []string{"init", "--example", "--type", "openai"}, "--type openai does not apply to --example"},
		{"example with a model", []string{"init", "--example", "--model", "m"}, "--model does not apply to --example"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			r := run(t, dir, nil, tc.args...)
			if r.code != ExitInvalid || !strings.Contains(r.errOut, tc.wantErr) {
				t.Errorf("exit %d %q; want 3 and %q", r.code, r.errOut, tc.wantErr)
			}
			if entries, _ := os.ReadDir(dir); len(entries) > 0 {
				t.Errorf("%d entries written", len(entries))
			}
		})
	}
}

// TestInitExample copies the example; its suite validates and, with Go at
// hand, runs (target.server builds the copied agent with go run).
func TestInitExample(t *testing.T) {
	dir := t.TempDir()
	endpoint := "http://" + freePort(t) + "/agent"
	r := run(t, dir, nil, "init", "--example", "--endpoint", endpoint)
	if r.code != ExitPass {
		t.Fatalf("exit %d\nstderr:\n%s", r.code, r.errOut)
	}
	for _, name := range []string{"ananke.config.yaml", "weather.ananke.yaml", "hooks/city.sh", "agent/main.go", "agent/go.mod"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
	if r := run(t, dir, nil, "validate"); r.code != ExitPass || !strings.Contains(r.out, "6 test files are valid") {
		t.Errorf("validate exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	if r := run(t, dir, nil, "init", "--example", "--endpoint", endpoint); r.code != ExitInvalid || !strings.Contains(r.errOut, "exists; use --force") {
		t.Errorf("a second init --example: exit %d %q; want 3", r.code, r.errOut)
	}
	if testing.Short() {
		t.Skip("-short: not building the copied agent")
	}
	r = run(t, dir, nil, "run", "--report-dir", filepath.Join(dir, "out"))
	if r.code != ExitPass || !strings.Contains(r.out, "Tests: 6 total, 6 passed") {
		t.Errorf("run exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.out, r.errOut)
	}
}

// TestInitNoAgentAtPath: a server that answers 404 or 405 at the endpoint
// has no agent there. Without a terminal init writes nothing, exits 3 and
// names the usual paths; on a terminal it asks again; --no-probe sends
// nothing and writes the files.
func TestInitNoAgentAtPath(t *testing.T) {
	endpoint := startExampleAgent(t)
	base := strings.TrimSuffix(endpoint, "/agent")
	for path, status := range map[string]string{"/api/agent": "HTTP 404", "/health": "HTTP 405"} {
		t.Run(path, func(t *testing.T) {
			dir := newRepo(t)
			r := run(t, dir, nil, "init", "--endpoint", base+path)
			if r.code != ExitInvalid {
				t.Fatalf("exit %d; want 3\nstdout:\n%s\nstderr:\n%s", r.code, r.out, r.errOut)
			}
			for _, want := range []string{base + path + ": the agent answered " + status, "no agent is at that path",
				"\n    " + base + "/agent\n", "\n    " + base + "/agui\n", "\n    " + base + "/\n", "nothing was written", "--no-probe"} {
				if !strings.Contains(r.errOut, want) {
					t.Errorf("stderr lacks %q:\n%s", want, r.errOut)
				}
			}
			if strings.Contains(r.errOut, "\n    "+base+path+"\n") {
				t.Errorf("suggests the path that failed:\n%s", r.errOut)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("%d entries in the project; want only .git", len(entries))
			}
		})
	}
	t.Run("terminal", func(t *testing.T) {
		dir := newRepo(t)
		r := runTerminal(t, dir, "\n"+endpoint+"\n", true, "init", "--endpoint", base+"/api/agent")
		if r.code != ExitPass {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.out, r.errOut)
		}
		if n := strings.Count(r.errOut, "Agent id [my-agent]: "); n != 1 {
			t.Errorf("asked for the agent id %d times; want once:\n%s", n, r.errOut)
		}
		if !strings.Contains(r.errOut, "HTTP 404") || !strings.Contains(r.errOut, "The agent's AG-UI endpoint") || !strings.Contains(r.errOut, "the agent answered (") {
			t.Errorf("stderr does not show the 404, the question and the answered probe:\n%s", r.errOut)
		}
		files := readFiles(t, dir)
		if !strings.Contains(files["ananke.config.yaml"], `endpoint: "`+endpoint+`"`) {
			t.Errorf("the config does not have the endpoint answered:\n%s", files["ananke.config.yaml"])
		}
	})
	t.Run("no probe", func(t *testing.T) {
		dir := newRepo(t)
		if r := run(t, dir, nil, "init", "--no-probe", "--endpoint", base+"/api/agent"); r.code != ExitPass {
			t.Errorf("--no-probe: exit %d %q", r.code, r.errOut)
		}
	})
}

// gitEnv keeps the machine's git configuration out of the tests.
var gitEnv = map[string]string{"GIT_CONFIG_GLOBAL": os.DevNull, "GIT_CONFIG_NOSYSTEM": "1"}

// git runs git in dir for a test's set-up.
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
	cmd.Dir = dir
	cmd.Env = os.Environ()
	for k, v := range gitEnv {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// TestInitBranch: the workflow runs on pushes to the repository's default
// branch: the remote's, else main or master where they exist, else the
// current one.
func TestInitBranch(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed (a clone of this repository has it)")
	}
	tests := []struct {
		name  string
		setup [][]string
		want  string
	}{
		{"a fresh repository on master", [][]string{{"init", "-q", "-b", "master"}}, "master"},
		{"a fresh repository on trunk", [][]string{{"init", "-q", "-b", "trunk"}}, "trunk"},
		{"a feature branch beside master", [][]string{{"init", "-q", "-b", "master"}, {"commit", "-q", "--allow-empty", "-m", "x"}, {"checkout", "-q", "-b", "feature"}}, "master"},
		{"a clone: origin's HEAD", [][]string{{"init", "-q", "-b", "main"}, {"commit", "-q", "--allow-empty", "-m", "x"},
			{"update-ref", "refs/remotes/origin/develop", "HEAD"}, {"symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/develop"}}, "develop"},
		{"init.defaultBranch", [][]string{{"init", "-q", "-b", "work"}, {"commit", "-q", "--allow-empty", "-m", "x"},
			{"branch", "stable"}, {"config", "init.defaultBranch", "stable"}}, "stable"},
		{"a name YAML would misread", [][]string{{"init", "-q", "-b", "release/1.0"}}, `"release/1.0"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, args := range tc.setup {
				git(t, dir, args...)
			}
			r := run(t, dir, gitEnv, "init", "--no-probe", "--endpoint", "http://localhost:8000/agent")
			if r.code != ExitPass {
				t.Fatalf("exit %d %q", r.code, r.errOut)
			}
			wf := readFiles(t, dir)[".github/workflows/agent-tests.yml"]
			if !strings.Contains(wf, "branches: ["+tc.want+"]") {
				t.Errorf("the workflow does not run on %s:\n%s", tc.want, wf)
			}
			actionlint(t, filepath.Join(dir, ".github", "workflows", "agent-tests.yml"))
		})
	}
	// Not a repository git reads (an empty .git): main, as before.
	dir := newRepo(t)
	if r := run(t, dir, gitEnv, "init", "--no-probe", "--endpoint", "http://localhost:8000/agent"); r.code != ExitPass {
		t.Fatalf("exit %d %q", r.code, r.errOut)
	}
	if wf := readFiles(t, dir)[".github/workflows/agent-tests.yml"]; !strings.Contains(wf, "branches: [main]") {
		t.Errorf("without a repository git reads, the workflow does not run on main:\n%s", wf)
	}
}

// TestInitGitignore: in a git work tree init makes the repository's root
// .gitignore ignore the report directory, once; elsewhere it writes none.
func TestInitGitignore(t *testing.T) {
	const entry = "# Ananke's reports (ananke run)\nananke-report/\n"
	args := []string{"init", "--no-probe", "--endpoint", "http://localhost:8000/agent"}
	root := newRepo(t)
	if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte("node_modules/"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, root, nil, append(args, "agents/shop")...)
	if r.code != ExitPass || !strings.Contains(r.out, "added ananke-report/ to .gitignore\n") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.out, r.errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(root, ".gitignore")); string(b) != "node_modules/\n"+entry {
		t.Errorf(".gitignore = %q", b)
	}
	if _, err := os.Stat(filepath.Join(root, "agents", "shop", ".gitignore")); err == nil {
		t.Error("a .gitignore in the project directory; want the root's only")
	}
	r = run(t, root, nil, append(args, "--force", "agents/shop")...)
	if r.code != ExitPass || strings.Contains(r.out, "added") {
		t.Errorf("a second init: exit %d\n%s", r.code, r.out)
	}
	if b, _ := os.ReadFile(filepath.Join(root, ".gitignore")); string(b) != "node_modules/\n"+entry {
		t.Errorf(".gitignore after a second init = %q", b)
	}

	dir := t.TempDir()
	if gitRoot(dir) != "" {
		t.Skipf("the temporary directory %s is inside a git work tree", dir)
	}
	if r := run(t, dir, nil, args...); r.code != ExitPass || strings.Contains(r.out, "added") {
		t.Errorf("outside a repository: exit %d\n%s", r.code, r.out)
	}
	if _, err := os.Stat(filepath.Join(dir, ".gitignore")); err == nil {
		t.Error("a .gitignore outside any git work tree")
	}
}
