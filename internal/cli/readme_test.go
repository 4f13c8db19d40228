package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// commandLines are the commands of a sh code block: its lines that are
// neither blank nor comments.
func commandLines(block string) []string {
	var out []string
	for line := range strings.Lines(block) {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}

// section is the README's text from heading to the next heading of its
// level.
func section(readme, heading string) string {
	_, after, ok := strings.Cut(readme, "\n"+heading+"\n")
	if !ok {
		return ""
	}
	if i := strings.Index(after, "\n## "); i >= 0 {
		return after[:i]
	}
	return after
}

var shBlock = regexp.MustCompile("(?s)```sh\n(.*?)```")

// TestReadmeFirstSteps: a newcomer gets from a clone to an ananke command
// — install, init, run — before the contributors' set-up, which keeps
// exactly its two commands; the comparison page it links exists.
func TestReadmeFirstSteps(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	start, setup := strings.Index(readme, "\n## Get started\n"), strings.Index(readme, "\n## Set up")
	if start < 0 || setup < 0 || start > setup {
		t.Fatalf("want a Get started section before Set up (at %d and %d)", start, setup)
	}
	m := shBlock.FindStringSubmatch(section(readme, "## Get started"))
	if m == nil {
		t.Fatal("Get started has no sh block")
	}
	steps := commandLines(m[1])
	want := []string{"go install github.com/ananke/action/cmd/ananke@latest", "ananke init", "ananke run"}
	if !slices.Equal(steps, want) {
		t.Errorf("Get started's commands = %q; want %q", steps, want)
	}
	if !strings.Contains(m[1], "go install ./cmd/ananke") {
		t.Error("Get started does not say how to install from a clone (go install ./cmd/ananke)")
	}
	for _, step := range steps[1:] {
		name := strings.Fields(step)[1]
		if !slices.ContainsFunc(commands, func(c command) bool { return c.name == name }) {
			t.Errorf("Get started runs ananke %s, which is no command", name)
		}
	}

	setUp := readme[setup:]
	setUp = setUp[:strings.Index(setUp[1:], "\n## ")+1]
	m = shBlock.FindStringSubmatch(setUp)
	if m == nil {
		t.Fatal("Set up has no sh block")
	}
	if got, want := commandLines(m[1]), []string{"go run . run --config examples/quickstart/ananke.config.yaml", "bash .ci/run"}; !slices.Equal(got, want) {
		t.Errorf("Set up's commands = %q; want exactly %q", got, want)
	}
	for _, what := range []string{"Chromium", "zsh", "fish", "two Go toolchains"} {
		if !strings.Contains(m[1], what) {
			t.Errorf("Set up does not say that .ci/run installs %s", what)
		}
	}

	if !strings.Contains(readme[:setup], "](docs/comparison.md)") {
		t.Error("the README does not link docs/comparison.md before Set up")
	}
	if _, err := os.Stat(filepath.Join(repoRoot(), "docs", "comparison.md")); err != nil {
		t.Error(err)
	}
}
