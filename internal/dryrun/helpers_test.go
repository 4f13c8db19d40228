package dryrun_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/ananke/action/internal/dryrun"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
)

func writeFile(path, body string) error { return os.WriteFile(path, []byte(body), 0o644) }

// writeSuite writes files (name → content) into a new directory and
// returns the path of its ananke.config.yaml.
func writeSuite(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := writeFile(filepath.Join(dir, name), body); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "ananke.config.yaml")
}

// planOf is the plan of the suite o loads, each test under the default
// policy.
func planOf(t *testing.T, o spec.Options) string {
	t.Helper()
	s, err := spec.Load(o)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := dryrun.Write(&b, s, dryrun.Options{Policy: func(*spec.Test) stability.Policy { return stability.Resolve() }}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
