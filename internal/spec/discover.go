package spec

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/ananke/action/internal/diag"
)

// ConfigNames are the file names a project config may have.
var ConfigNames = []string{"ananke.config.yaml", "ananke.config.yml"}

// skipDirs are never searched for test files.
var skipDirs = []string{".git", "node_modules", "vendor"}

// IsTestFile reports whether name is a test file or dataset name.
func IsTestFile(name string) bool {
	return strings.HasSuffix(name, ".ananke.yaml") || strings.HasSuffix(name, ".ananke.yml") || IsDataset(name)
}

// FindConfig looks for a config file in dir and then in each parent
// directory, like git looks for .git. It returns "" when there is none.
func FindConfig(dir string) string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		for _, name := range ConfigNames {
			p := filepath.Join(dir, name)
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				return p
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Discover lists the test files to load, sorted: the explicit paths (files,
// or directories searched for test files) when given, else the config's
// `tests` globs, else every test file under the config's directory.
func Discover(cfg *Config, paths []string, diags *diag.Diagnostics) ([]string, error) {
	var files []string
	switch {
	case len(paths) > 0:
		for _, p := range paths {
			st, err := os.Stat(p)
			switch {
			case err != nil:
				diags.Add(diag.Pos{File: p}, "no such file or directory")
			case st.IsDir():
				found, err := walkTests(p)
				if err != nil {
					return nil, err
				}
				files = append(files, found...)
			case !isConfigName(filepath.Base(p)):
				files = append(files, p)
			}
		}
	case len(cfg.Tests) > 0:
		for _, g := range cfg.Tests {
			// The static part may leave the config's directory
			// ("../shared/*.ananke.yaml"); the pattern is matched below it.
			base, pattern := doublestar.SplitPattern(filepath.ToSlash(g.Value))
			root := filepath.Join(cfg.Dir, filepath.FromSlash(base))
			matches, err := doublestar.Glob(os.DirFS(root), pattern, doublestar.WithFilesOnly())
			if err != nil {
				diags.Add(g.Pos, "tests: invalid glob %q: %v", g.Value, err)
				continue
			}
			if len(matches) == 0 {
				diags.Add(g.Pos, "tests: %q matches no files under %s", g.Value, cfg.Dir)
			}
			for _, m := range matches {
				files = append(files, filepath.Join(root, filepath.FromSlash(m)))
			}
		}
	default:
		found, err := walkTests(cfg.Dir)
		if err != nil {
			return nil, err
		}
		files = found
	}
	slices.Sort(files)
	files = slices.Compact(files)
	if len(files) == 0 && len(*diags) == 0 {
		where := cfg.Dir
		if len(paths) > 0 {
			where = strings.Join(paths, ", ")
		}
		diags.Add(diag.Pos{File: cfg.Path}, "no test files (*.ananke.yaml, *.ananke.jsonl) found under %s", where)
	}
	return files, nil
}

func isConfigName(name string) bool { return slices.Contains(ConfigNames, name) }

// walkTests finds test files under root, skipping .git, node_modules and
// vendor.
func walkTests(root string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrPermission) {
				return nil
			}
			return err
		}
		if d.IsDir() && p != root && slices.Contains(skipDirs, d.Name()) {
			return filepath.SkipDir
		}
		if !d.IsDir() && IsTestFile(d.Name()) {
			files = append(files, p)
		}
		return nil
	})
	return files, err
}
