package target_test

import (
	"go/build"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/ananke/action/"

// protocols are the packages that speak a protocol, and the table that
// names them.
var protocols = []string{"internal/agui", "internal/a2a", "internal/mcp", "internal/target/registry"}

// TestLayering holds the seam: the engine plays every protocol through
// target.Session and the trace records through a protocol-neutral API, so
// neither imports a protocol package, directly or through another
// package (tests aside). The registry, which does, shows the walk sees
// what a package imports through others.
func TestLayering(t *testing.T) {
	root := moduleRoot(t)
	for _, c := range []struct {
		pkg       string
		forbidden []string
	}{
		{"internal/engine", protocols},
		{"internal/trace", protocols},
		{"internal/target", protocols},
	} {
		deps := imports(t, root, c.pkg)
		for _, f := range c.forbidden {
			if path, ok := deps[f]; ok {
				t.Errorf("%s imports %s (%s): a protocol belongs behind target.Session, chosen in internal/target/registry", c.pkg, f, strings.Join(path, " → "))
			}
		}
	}
	deps := imports(t, root, "internal/target/registry")
	for _, p := range []string{"internal/agui", "internal/a2a", "internal/mcp", "internal/engine", "internal/trace", "internal/capability"} {
		if _, ok := deps[p]; !ok {
			t.Errorf("the walk misses that internal/target/registry imports %s", p)
		}
	}
}

// imports are the module's packages pkg imports, directly or not, each
// with the chain of imports that reaches it (non-test files of this
// platform's build).
func imports(t *testing.T, root, pkg string) map[string][]string {
	t.Helper()
	seen := map[string][]string{}
	var walk func(pkg string, path []string)
	walk = func(pkg string, path []string) {
		p, err := build.Default.ImportDir(filepath.Join(root, filepath.FromSlash(pkg)), 0)
		if err != nil {
			t.Fatalf("read %s: %v", pkg, err)
		}
		for _, imp := range p.Imports {
			rel, ok := strings.CutPrefix(imp, module)
			if !ok {
				continue
			}
			if _, done := seen[rel]; done {
				continue
			}
			seen[rel] = append(slices.Clone(path), rel)
			walk(rel, seen[rel])
		}
	}
	walk(pkg, []string{pkg})
	return seen
}

// moduleRoot is the directory of the module's go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}
