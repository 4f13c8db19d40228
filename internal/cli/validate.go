package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/spec"
)

func runValidate(_ context.Context, a *app, args []string) error {
	fs := a.flags("validate", "[PATH...]")
	configFlag := fs.String("config", "", "project config `file` (default: ananke.config.yaml here or in a parent of the first PATH)")
	alias(fs, "c", "config")
	if err := a.parse(fs, args); err != nil {
		return err
	}
	suite, err := a.load(*configFlag, fs.Args())
	if err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "ok: %s and %s are valid\n", suite.Config.Path, describeFiles(suite.Tests))
	return nil
}

// load finds the config, loads the suite and prints every diagnostic. It
// returns an error (exit 3) when the files are invalid.
func (a *app) load(configFlag string, paths []string) (*spec.Suite, error) {
	return a.loadSuite(spec.Options{ConfigPath: configFlag, Paths: paths})
}

// loadSuite loads what o names, finding the config as findConfig does:
// with an endpoint, a config found nowhere is not a mistake (Ananke then
// uses a default target at the endpoint); a --config that is not one is.
// Diagnostics go to stdout, as a compiler's do, and so do warnings (a
// quarantine entry that matches no test); the error counts the problems.
// Quarantine entries expire against the app's clock.
func (a *app) loadSuite(o spec.Options) (*spec.Suite, error) {
	cfg, paths, err := a.findConfig(o.ConfigPath, o.Paths)
	if err != nil && (o.Endpoint == "" || o.ConfigPath != "") {
		return nil, withCode(ExitInvalid, "", err)
	}
	o.ConfigPath, o.Paths, o.LookupEnv, o.Today = cfg, paths, a.lookupEnv, a.now()
	suite, err := spec.Load(o)
	var diags diag.Diagnostics
	switch {
	case errors.As(err, &diags):
		for _, d := range diags {
			fmt.Fprintln(a.Out, d)
		}
		return nil, invalidf("", "%s found; nothing was run", plural.Count(len(diags), "problem"))
	case err != nil:
		return nil, withCode(ExitInvalid, "", err)
	}
	for _, w := range suite.Warnings {
		fmt.Fprintf(a.Out, "%s: warning: %s\n", w.Pos, w.Message)
	}
	return suite, nil
}

// findConfig returns the config path: --config; a config file named among
// the paths (then removed from them); else the nearest ananke.config.yaml
// in the first path's directory, the working directory, or their parents.
func (a *app) findConfig(flagVal string, paths []string) (string, []string, error) {
	if flagVal != "" {
		return flagVal, paths, a.checkConfigFlag(flagVal)
	}
	for i, p := range paths {
		if slices.Contains(spec.ConfigNames, filepath.Base(p)) {
			rest := slices.Delete(slices.Clone(paths), i, i+1)
			if len(rest) == 0 {
				rest = nil
			}
			return p, rest, nil
		}
	}
	start := "."
	if len(paths) > 0 {
		start = paths[0]
		if !isDir(start) {
			start = filepath.Dir(start)
		}
	}
	found := spec.FindConfig(start)
	if found == "" {
		return "", nil, fmt.Errorf("no %s found in %s or its parents; pass --config FILE, or start a project with 'ananke init' (docs/init.md)", spec.ConfigNames[0], start)
	}
	// `ananke run examples/quickstart` means that suite: its own directory
	// is not a list of tests but the suite, discovered as its config says.
	if len(paths) == 1 && sameDir(paths[0], filepath.Dir(found)) {
		paths = nil
	}
	if wd, err := a.getwd(); err == nil {
		if rel, err := filepath.Rel(wd, found); err == nil {
			found = rel
		}
	}
	return found, paths, nil
}

// checkConfigFlag says, once, why --config names no config: a file that
// does not exist, a directory, or a test file given where its config goes.
func (a *app) checkConfigFlag(path string) error {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("--config %s: no such file", path)
	case err != nil:
		return fmt.Errorf("--config %w", err)
	case st.IsDir():
		return fmt.Errorf("--config %s is a directory; name the config file in it (%s)", path, filepath.Join(path, spec.ConfigNames[0]))
	case spec.IsTestFile(path):
		cmd := a.cmd
		if cmd == "" {
			cmd = "run"
		}
		return fmt.Errorf("--config %s is a test file, not a project config: pass it as a path, 'ananke %s %s' (its config, %s, is found by itself)", path, cmd, path, spec.ConfigNames[0])
	}
	return nil
}

func sameDir(a, b string) bool {
	x, err1 := filepath.Abs(a)
	y, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && x == y
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// describeFiles counts test files and dataset cases: "3 test files",
// "2 test files and 1 dataset (200 cases)".
func describeFiles(tests []*spec.Test) string {
	files, datasets, cases, fileTests := map[string]bool{}, map[string]bool{}, 0, 0
	for _, t := range tests {
		if spec.IsDataset(t.Path) {
			datasets[t.Path] = true
			cases++
		} else {
			files[t.Path] = true
			fileTests++
		}
	}
	fs := plural.Count(len(files), "test file")
	if fileTests > len(files) { // a source's sessions, a test each
		fs += fmt.Sprintf(" (%s)", plural.Count(fileTests, "test"))
	}
	switch {
	case len(datasets) == 0:
		return fs
	case len(files) == 0:
		return fmt.Sprintf("%s (%s)", plural.Count(len(datasets), "dataset"), plural.Count(cases, "case"))
	}
	return fmt.Sprintf("%s and %s (%s)", fs, plural.Count(len(datasets), "dataset"), plural.Count(cases, "case"))
}
