package spec

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/golden"
)

// TestExamplesValid loads every suite under examples/ (except the broken
// ones) and expects zero diagnostics.
func TestExamplesValid(t *testing.T) {
	t.Chdir(repoRoot(t))
	configs := findConfigs(t, "examples")
	if len(configs) == 0 {
		t.Fatal("no example suites found")
	}
	for _, cfg := range configs {
		if strings.HasPrefix(cfg, filepath.Join("examples", "broken")) {
			continue
		}
		t.Run(cfg, func(t *testing.T) {
			s, err := Load(Options{ConfigPath: cfg})
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if len(s.Tests) == 0 {
				t.Fatal("suite has no tests")
			}
		})
	}
}

// TestBrokenExamples loads each broken suite and compares every diagnostic
// with the suite's diagnostics.golden.
func TestBrokenExamples(t *testing.T) {
	t.Chdir(repoRoot(t))
	dirs, err := filepath.Glob(filepath.Join("examples", "broken", "*", "ananke.config.yaml"))
	if err != nil || len(dirs) < 7 {
		t.Fatalf("found %d broken suites (%v); want at least 7", len(dirs), err)
	}
	for _, cfg := range dirs {
		dir := filepath.Dir(cfg)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			_, err := Load(Options{ConfigPath: cfg})
			var diags diag.Diagnostics
			if !errors.As(err, &diags) || len(diags) == 0 {
				t.Fatalf("Load(%s) = %v; want diagnostics", dir, err)
			}
			golden.Assert(t, filepath.Join(dir, "diagnostics.golden"), diags.Error()+"\n")
		})
	}
}

func findConfigs(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == "ananke.config.yaml" {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
