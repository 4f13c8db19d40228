package scaffold

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/spec"
)

// load writes files into a temp dir and loads the suite as `ananke
// validate` does; it fails the test on any diagnostic.
func load(t *testing.T, files []File) (string, *spec.Suite) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo", "agents", "shop") // a workflow may go up to repo
	if err := Write(dir, files, false); err != nil {
		t.Fatal(err)
	}
	suite, err := spec.Load(spec.Options{ConfigPath: filepath.Join(dir, ConfigFile)})
	if err != nil {
		t.Fatalf("spec.Load: %v", err)
	}
	return dir, suite
}

func TestProjectFiles(t *testing.T) {
	base := Project{Endpoint: "http://localhost:8000/agent", AgentID: "shop", Message: "Hello"}
	tests := []struct {
		name    string
		project func(p Project) Project
	}{
		{"answered", func(p Project) Project {
			p.Probe = &Observation{Message: "Hello", Reply: "Hi!\nI can look up\tthe weather.", Tools: []string{"get_weather", "true"}}
			return p
		}},
		{"tools-only", func(p Project) Project {
			p.Probe = &Observation{Message: "Hello", Tools: []string{"search"}}
			return p
		}},
		{"probe-failed", func(p Project) Project {
			p.Probe = &Observation{Message: "Hello", Err: errors.New("dial tcp 127.0.0.1:8000: connect: connection refused\nsecond line")}
			return p
		}},
		{"not-probed", func(p Project) Project {
			p.NotProbed, p.Message = "the agent was not probed (--no-probe)", `say "${HI}"`
			return p
		}},
		{"in-repo", func(p Project) Project {
			p.NotProbed, p.InRepo, p.Endpoint = "not probed", "agents/shop", "https://shop.example.com/api/agui"
			return p
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			files, err := tc.project(base).Files()
			if err != nil {
				t.Fatal(err)
			}
			var all strings.Builder
			for _, f := range files {
				all.WriteString("==> " + f.Path + " <==\n")
				all.Write(f.Data)
			}
			golden.Assert(t, filepath.Join("testdata", tc.name+".golden"), all.String())
			_, suite := load(t, files)
			if len(suite.Tests) != 1 || suite.Tests[0].Turns[0].User.Raw != strings.ReplaceAll(tc.project(base).Message, "${", "$${") {
				t.Errorf("loaded %d tests; want the first test with the message", len(suite.Tests))
			}
		})
	}
}

// TestProjectFilesByType: an openai and an http target's config, and
// their first test, from a probe or without one; the files load as
// written.
func TestProjectFilesByType(t *testing.T) {
	answered := &Observation{Message: "Hello", Reply: "Hi! How can I help?"}
	tests := []struct {
		name    string
		project Project
		want    []string // in the config
	}{
		{"openai-answered", Project{Type: TypeOpenAI, Endpoint: "http://localhost:4010/v1", API: "chat", Model: "gpt-4o-mini", Message: "Hello", Probe: answered},
			[]string{"type: openai", `endpoint: "http://localhost:4010/v1"`, "api: chat", `model: "gpt-4o-mini"`}},
		{"openai-responses-not-probed", Project{Type: TypeOpenAI, Endpoint: "https://api.openai.com/v1", API: "responses", Model: "gpt-4.1", Message: "Hello", NotProbed: "not probed (--no-probe)"},
			[]string{"api: responses", `model: "gpt-4.1"`}},
		{"http-answered", Project{Type: TypeHTTP, Endpoint: "http://localhost:8080/api/chat", Message: "Hello", Probe: answered,
			HTTP: HTTPShape{Text: "$.data.reply", ConversationID: "$.session_id"}},
			[]string{"type: http", `message: "${message}"`, `text: "$.data.reply"   # found by init's probe`, `    conversation_id: "$.session_id"   # found by init's probe`}},
		{"http-no-reply", Project{Type: TypeHTTP, Endpoint: "http://localhost:8080/api/chat", Message: "Hello",
			Probe: &Observation{Message: "Hello", Err: errors.New(`no reply found in the answer: {"ok":true}`)}},
			[]string{`text: "$.reply"   # init's probe found no reply: edit`, `    # conversation_id: "$.session_id"` + "\n"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			files, err := tc.project.Files()
			if err != nil {
				t.Fatal(err)
			}
			var all strings.Builder
			for _, f := range files {
				all.WriteString("==> " + f.Path + " <==\n")
				all.Write(f.Data)
			}
			golden.Assert(t, filepath.Join("testdata", tc.name+".golden"), all.String())
			for _, want := range tc.want {
				if !strings.Contains(string(files[0].Data), want) {
					t.Errorf("the config lacks %q", want)
				}
			}
			_, suite := load(t, files)
			if target := suite.Config.Target; target.Type != tc.project.Type || target.Endpoint.Raw != tc.project.Endpoint {
				t.Errorf("loaded target %s at %q; want %s at %q", target.Type, target.Endpoint.Raw, tc.project.Type, tc.project.Endpoint)
			}
		})
	}
}

func TestWriteNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	files := []File{{Path: "a.yaml", Data: []byte("new")}, {Path: "sub/b.yaml", Data: []byte("new")}}
	if err := os.WriteFile(filepath.Join(dir, "a.yaml"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := Existing(dir, files); !slices.Equal(got, []string{filepath.Join(dir, "a.yaml")}) {
		t.Errorf("Existing = %q; want a.yaml", got)
	}
	var exists *ExistsError
	if err := Write(dir, files, false); !errors.As(err, &exists) {
		t.Errorf("Write without overwrite = %v; want an ExistsError", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.yaml")); string(b) != "old" {
		t.Errorf("a.yaml = %q after a refused write; want old", b)
	}
	if err := Write(dir, files, true); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if b, _ := os.ReadFile(filepath.Join(dir, f.Path)); string(b) != "new" {
			t.Errorf("%s = %q after an overwrite; want new", f.Path, b)
		}
	}
}

func TestExample(t *testing.T) {
	files, err := Example("http://127.0.0.1:9100/agent")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
		if strings.HasSuffix(f.Path, "_test.go") || strings.Contains(string(f.Data), "$schema=../") {
			t.Errorf("%s: a test file, or a relative schema modeline", f.Path)
		}
		if strings.HasSuffix(f.Path, ".sh") && f.Mode != 0o755 {
			t.Errorf("%s: mode %v; want executable", f.Path, f.Mode)
		}
	}
	for _, want := range []string{ConfigFile, "agent/go.mod", "agent/main.go", "hooks/city.sh", "weather.ananke.yaml"} {
		if !slices.Contains(paths, want) {
			t.Errorf("Example lacks %s: %q", want, paths)
		}
	}
	dir, suite := load(t, files)
	if len(suite.Tests) != 6 {
		t.Errorf("loaded %d tests; want the quickstart's 6", len(suite.Tests))
	}
	srv := suite.Config.Target.Server
	if srv == nil || suite.Config.Target.Endpoint.Raw != "http://127.0.0.1:9100/agent" {
		t.Fatalf("target: %+v; want the endpoint and a server", suite.Config.Target)
	}
	var argv []string
	for _, a := range srv.Command {
		argv = append(argv, a.Raw)
	}
	if want := []string{"go", "run", ".", "-addr", "127.0.0.1:9100"}; !slices.Equal(argv, want) || srv.Cwd.Raw != "agent" {
		t.Errorf("server command %q in %q; want %q in agent", argv, srv.Cwd.Raw, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "agent", "doc.go")); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"https://127.0.0.1:9100/agent", "http://127.0.0.1/agent", "http://127.0.0.1:9100/other"} {
		if _, err := Example(bad); err == nil {
			t.Errorf("Example(%q) = nil error; want one", bad)
		}
	}
}

func TestExcerptAndPlain(t *testing.T) {
	if got := excerpt("a\n\tb\u2028c\x00d  ", 200); got != "a b cd" {
		t.Errorf("excerpt = %q; want %q", got, "a b cd")
	}
	if got := excerpt(strings.Repeat("é", 250), 200); got != strings.Repeat("é", 200)+"…" {
		t.Errorf("excerpt of 250 runes = %d runes", len([]rune(got)))
	}
	for in, want := range map[string]string{"get_weather": "get_weather", "yes": `"yes"`, "12": `"12"`, "a b": `"a b"`, "ns.tool-1": "ns.tool-1"} {
		if got := plain(in); got != want {
			t.Errorf("plain(%q) = %s; want %s", in, got, want)
		}
	}
}

// TestWorkflowBranch: the workflow runs on pushes to the branch it is
// given, quoted when YAML needs it, and main when none is known.
func TestWorkflowBranch(t *testing.T) {
	for branch, want := range map[string]string{"": "branches: [main]", "master": "branches: [master]", "release/v1": `branches: ["release/v1"]`, "on": `branches: ["on"]`} {
		files, err := Project{Endpoint: "http://localhost:8000/agent", AgentID: "a", Message: "Hello", NotProbed: "x", Branch: branch}.Files()
		if err != nil {
			t.Fatal(err)
		}
		wf := string(files[2].Data)
		if !strings.Contains(wf, want) {
			t.Errorf("branch %q: the workflow lacks %q:\n%s", branch, want, wf)
		}
		if branch != "" && strings.Contains(wf, "main") {
			t.Errorf("branch %q: the workflow still says main:\n%s", branch, wf)
		}
	}
}

func TestIgnore(t *testing.T) {
	const entry = "# Ananke's reports (ananke run)\nananke-report/\n"
	tests := []struct {
		name, old string
		exists    bool
		want      string
		changed   bool
	}{
		{"no file", "", false, entry, true},
		{"empty file", "", true, entry, true},
		{"a file ending in a newline", "node_modules/\n", true, "node_modules/\n" + entry, true},
		{"a file without a final newline", "node_modules/", true, "node_modules/\n" + entry, true},
		{"already ignored", "dist/\nananke-report/\n", true, "dist/\nananke-report/\n", false},
		{"already ignored, anchored", "/ananke-report\n", true, "/ananke-report\n", false},
		{"a longer name is another directory", "ananke-report-old/\n", true, "ananke-report-old/\n" + entry, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, ".gitignore")
			if tc.exists {
				if err := os.WriteFile(path, []byte(tc.old), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			changed, err := Ignore(dir)
			if err != nil || changed != tc.changed {
				t.Fatalf("Ignore = %v, %v; want %v", changed, err, tc.changed)
			}
			if b, _ := os.ReadFile(path); string(b) != tc.want {
				t.Errorf(".gitignore = %q; want %q", b, tc.want)
			}
			if changed, err := Ignore(dir); changed || err != nil {
				t.Errorf("a second Ignore = %v, %v; want no change", changed, err)
			}
		})
	}
}
