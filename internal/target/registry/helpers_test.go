package registry_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ananke/action/internal/spec"
)

// loadSuite writes files (path → content, ananke.config.yaml among them)
// into a new directory and loads the suite they make.
func loadSuite(t *testing.T, files map[string]string) *spec.Suite {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := spec.Load(spec.Options{ConfigPath: filepath.Join(dir, "ananke.config.yaml")})
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return s
}
