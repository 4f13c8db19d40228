//go:build unix

package interop

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// invalidEdit: an edit of the LangGraph agent's charge with arguments
// outside the schema the test states (the one the interrupt's
// responseSchema is) is a load error at the argument's line: `ananke
// validate` says so, and nothing runs.
func invalidEdit(t *testing.T, bin, dir string, urls map[string]string) {
	tmp := t.TempDir()
	if err := os.CopyFS(tmp, os.DirFS(filepath.Join(dir, "langgraph"))); err != nil {
		t.Fatal(err)
	}
	test := filepath.Join(tmp, "pass", "edit.ananke.yaml")
	b, err := os.ReadFile(test)
	if err != nil {
		t.Fatal(err)
	}
	const good = "      edit: { amount: 30, currency: USD }\n"
	lines := strings.SplitAfter(string(b), "\n")
	at := slices.Index(lines, good)
	if at < 0 {
		t.Fatalf("%s has no line %q", test, good)
	}
	lines[at] = "      edit:\n        amount: 5000\n        tip: 2\n"
	if err := os.WriteFile(test, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	out, exit := ananke(t, bin, urls, nil, "validate", "--config", filepath.Join(tmp, "ananke.config.yaml"), test)
	if exit != 3 {
		t.Fatalf("exit %d, want 3:\n%s", exit, out)
	}
	want := []string{
		fmt.Sprintf("%s:%d:17: turns[1].resume.edit.amount is outside the schema: at /amount: maximum: got 5,000, want 1,000", test, at+2),
		fmt.Sprintf(`%s:%d:9: turns[1].resume.edit.tip: the schema takes no argument "tip" (additional properties 'tip' not allowed)`, test, at+3),
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.HasPrefix(l, test) {
			got = append(got, l)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("validate printed\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
