package decl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/doubles/decl/decltest"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/golden"
)

// TestRead reads each case of testdata/read — config.yaml's doubles:
// and, when there, test.yaml's doubles: and its turns' doubles: — checks
// the test's plan against the config as the suite's loader does, and
// compares every problem reported with the case's golden file.
func TestRead(t *testing.T) {
	dirs, err := filepath.Glob("testdata/read/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			_, _, diags := loadCase(t, dir)
			var b strings.Builder
			for _, d := range diags.Sorted() {
				b.WriteString(filepath.ToSlash(strings.TrimPrefix(d.String(), dir+string(filepath.Separator))) + "\n")
			}
			if b.Len() == 0 {
				b.WriteString("(valid)\n")
			}
			golden.Assert(t, filepath.Join("testdata", "golden", filepath.Base(dir)+".golden"), b.String())
		})
	}
}

// loadCase reads a case directory.
func loadCase(t *testing.T, dir string) (*Config, *Plan, diag.Diagnostics) {
	t.Helper()
	var diags diag.Diagnostics
	var c *Config
	d, root := decltest.ParseFile(t, filepath.Join(dir, "config.yaml"), &diags)
	if n := decltest.Member(root, "doubles"); n != nil {
		c = ReadConfig(d, n)
	}
	test := filepath.Join(dir, "test.yaml")
	if _, err := os.Stat(test); err != nil {
		return c, nil, diags
	}
	d, root = decltest.ParseFile(t, test, &diags)
	var own Answers
	if n := decltest.Member(root, "doubles"); n != nil {
		own = ReadAnswers(d, n, "doubles")
	}
	turns := map[int]Answers{}
	if n := decltest.Member(root, "turns"); n != nil {
		for i, turn := range n.Content {
			if m := decltest.Member(turn, "doubles"); m != nil {
				turns[i] = ReadAnswers(d, m, decode.Index("turns", i)+".doubles")
			}
		}
	}
	p := NewPlan(own, turns)
	Check(c, p, &diags)
	return c, p, diags
}
