package hooks

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// lookPath resolves argv0 the way exec.LookPath does, but searches the PATH
// of env — the environment the hook will run with — rather than this
// process's, so the caller alone decides what the hook sees. A name
// containing a path separator is returned unchanged: os/exec then resolves a
// relative one against the hook's Dir.
//
// Relative PATH entries (including empty ones, which mean ".") are skipped,
// as exec.LookPath refuses them (exec.ErrDot): a hook must not run a program
// just because it happens to sit in the test directory.
func lookPath(argv0 string, env []string) (string, error) {
	if strings.ContainsRune(argv0, '/') || strings.ContainsRune(argv0, filepath.Separator) {
		return argv0, nil
	}
	pathVar, ok := envValue(env, "PATH")
	if !ok || pathVar == "" {
		return "", fmt.Errorf("%q not found: PATH is not set in the hook's environment", argv0)
	}
	for _, dir := range filepath.SplitList(pathVar) {
		if !filepath.IsAbs(dir) {
			continue
		}
		// LookPath does not search PATH for a name with a separator; it
		// only checks that the file exists and is executable (and, on
		// Windows, tries the PATHEXT extensions).
		// A file that is not executable is skipped, as exec.LookPath does.
		if p, err := exec.LookPath(filepath.Join(dir, argv0)); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%q not found in PATH", argv0)
}

// envValue returns the value of key in env. The last entry wins, as in
// os/exec; names compare case-insensitively on Windows.
func envValue(env []string, key string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		k, v, ok := strings.Cut(env[i], "=")
		if !ok {
			continue
		}
		if k == key || (runtime.GOOS == "windows" && strings.EqualFold(k, key)) {
			return v, true
		}
	}
	return "", false
}
