package spec

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/diag"
)

// repoRoot is the module root, found from this file's location.
func repoRoot(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// parseTest decodes a test file held in a string.
func parseTest(t testing.TB, src string) (*Test, diag.Diagnostics) {
	t.Helper()
	var diags diag.Diagnostics
	l := newLoader("t.ananke.yaml", &diags)
	doc := l.ParseBytes([]byte(src))
	if doc == nil {
		return nil, diags
	}
	return l.test(doc), diags
}

// parseConfig decodes a config file held in a string.
func parseConfig(t testing.TB, src string) (*Config, diag.Diagnostics) {
	t.Helper()
	var diags diag.Diagnostics
	l := newLoader("ananke.config.yaml", &diags)
	doc := l.ParseBytes([]byte(src))
	if doc == nil {
		return nil, diags
	}
	return l.config(doc), diags
}

// mustTest decodes a test that must be valid.
func mustTest(t testing.TB, src string) *Test {
	t.Helper()
	tt, diags := parseTest(t, src)
	if len(diags) > 0 {
		t.Fatalf("unexpected diagnostics:\n%s", diags.Error())
	}
	return tt
}

// mustConfig decodes a config that must be valid.
func mustConfig(t testing.TB, src string) *Config {
	t.Helper()
	c, diags := parseConfig(t, src)
	if len(diags) > 0 {
		t.Fatalf("unexpected diagnostics:\n%s", diags.Error())
	}
	return c
}

// writeFiles creates files (path → content) under a temp dir and returns it.
func writeFiles(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// diagLines are ds's problems, in ds's order, each without prefix (the
// file's path and a colon).
func diagLines(ds diag.Diagnostics, prefix string) []string {
	var got []string
	for _, d := range ds {
		got = append(got, strings.TrimPrefix(d.String(), prefix))
	}
	return got
}

// checkDiags reports problems got where want was, one a line.
func checkDiags(t testing.TB, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func hasDiag(ds diag.Diagnostics, substr string) bool {
	for _, d := range ds {
		if strings.Contains(d.String(), substr) {
			return true
		}
	}
	return false
}

const minimalConfig = `version: "1.0"
target:
  type: agui
  endpoint: "http://127.0.0.1:1/agent"
  agentId: a
`

// payloads returns the payloads of kind k that block b holds itself.
func payloads[P assertion.Payload](b *assertion.Block, k assertion.Kind) []P {
	var out []P
	for _, it := range b.Items(k) {
		out = append(out, it.Payload.(P))
	}
	return out
}
