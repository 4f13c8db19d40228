package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/plural"
)

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

type result struct {
	code        int
	out, errOut string
}

// run runs the CLI in-process from dir with the process environment plus
// env.
func run(t *testing.T, dir string, env map[string]string, args ...string) result {
	t.Helper()
	return runContext(context.Background(), t, dir, env, args...)
}

// runContext is run with a context the test may cancel (as SIGINT does).
// Its clock is steadyClock.
func runContext(ctx context.Context, t *testing.T, dir string, env map[string]string, args ...string) result {
	t.Helper()
	return runClock(ctx, t, dir, env, steadyClock(), args...)
}

// runWall is run on the real clock, for the failing example, whose
// too-slow test exceeds its duration limit on purpose: the agent waits
// 600 ms against 300, which only the real clock shows, and a busy machine
// only lengthens.
func runWall(t *testing.T, dir string, env map[string]string, args ...string) result {
	t.Helper()
	return runClock(context.Background(), t, dir, env, time.Now, args...)
}

// steadyClock is the clock of a machine never busy: it starts at the time
// it is made and moves a millisecond at each reading, so the times a run
// stamps count its readings, not the machine's load. The timing limits a
// live run must meet (the quickstart's) then hold however long a busy
// machine takes.
func steadyClock() func() time.Time {
	start := time.Now()
	var n atomic.Int64
	return func() time.Time { return start.Add(time.Duration(n.Add(1)) * time.Millisecond) }
}

// runClock is runContext on the clock now.
func runClock(ctx context.Context, t *testing.T, dir string, env map[string]string, now func() time.Time, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	environ := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "CI=") }) // hooks and servers need PATH; CI is the test's to set
	for k, v := range env {
		environ = append(environ, k+"="+v)
	}
	a := &app{
		Stdio:   Stdio{In: strings.NewReader(""), Out: &out, Err: &errOut},
		environ: environ,
		getwd:   func() (string, error) { return filepath.Abs(".") },
		now:     now,
	}
	if dir != "" {
		t.Chdir(dir)
	}
	code := a.main(ctx, args)
	return result{code, out.String(), errOut.String()}
}

func assertGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Assert(t, filepath.Join(repoRoot(), "internal", "cli", "testdata", name), got)
}

func TestHelp(t *testing.T) {
	r := run(t, "", nil, "help")
	if r.code != ExitPass {
		t.Fatalf("help exit = %d", r.code)
	}
	assertGolden(t, "help.golden", r.out)
	if r := run(t, "", nil, "run", "-h"); r.code != ExitPass || r.errOut != "" {
		t.Errorf("run -h exit = %d, stderr %q; want 0 and the help on stdout", r.code, r.errOut)
	} else {
		assertGolden(t, "help-run.golden", r.out)
	}
	if r := run(t, "", nil); r.code != ExitInvalid || !strings.Contains(r.errOut, "Usage:") {
		t.Errorf("no args = %d %q; want usage on stderr and exit 3", r.code, r.errOut)
	}
	if r := run(t, "", nil, "frobnicate"); r.code != ExitInvalid || !strings.Contains(r.errOut, `unknown command "frobnicate"`) {
		t.Errorf("unknown command = %d %q", r.code, r.errOut)
	}
	if r := run(t, "", nil, "validate", "--nope"); r.code != ExitInvalid || !strings.Contains(r.errOut, "ananke validate: unknown flag --nope\n") {
		t.Errorf("bad flag = %d %q", r.code, r.errOut)
	}
	if r := run(t, "", nil, "validate", "-h"); r.code != ExitPass || !strings.Contains(r.out, "-config file") {
		t.Errorf("validate -h = %d %q", r.code, r.out)
	}
}

func TestVersion(t *testing.T) {
	r := run(t, "", nil, "version")
	if r.code != ExitPass || !strings.HasPrefix(r.out, "ananke dev (go") {
		t.Errorf("version = %d %q", r.code, r.out)
	}
}

func TestSchema(t *testing.T) {
	for _, kind := range []string{"config", "test", "history", "labels", "calibration"} {
		r := run(t, "", nil, "schema", kind)
		want, err := os.ReadFile(filepath.Join(repoRoot(), "schema", "ananke."+kind+".schema.json"))
		if err != nil || r.code != ExitPass || r.out != string(want) {
			t.Errorf("schema %s = %d; output equals committed file: %v (%v)", kind, r.code, r.out == string(want), err)
		}
	}
	if r := run(t, "", nil, "schema", "report"); r.code != ExitPass || !strings.Contains(r.out, `"ananke.report/v1"`) {
		t.Errorf("schema report = %d", r.code)
	}
	if r := run(t, "", nil, "schema", "normalized-trace"); r.code != ExitPass || !strings.Contains(r.out, `ananke.normalized-trace.schema.json`) {
		t.Errorf("schema normalized-trace = %d", r.code)
	}
	if r := run(t, "", nil, "schema"); r.code != ExitInvalid || !strings.Contains(r.errOut, "config|test|quarantine|report|normalized-trace|history|labels|calibration") {
		t.Errorf("schema without kind = %d %q", r.code, r.errOut)
	}
	if r := run(t, "", nil, "schema", "junit"); r.code != ExitInvalid {
		t.Errorf("schema junit = %d", r.code)
	}
}

func TestValidate(t *testing.T) {
	root := repoRoot()
	tests := []struct {
		name     string
		dir      string
		args     []string
		wantCode int
		wantOut  string
	}{
		{"suite directory", root, []string{"validate", "examples/checkout"}, ExitPass, "ok: examples/checkout/ananke.config.yaml and 1 test file are valid"},
		{"test file finds its config", root, []string{"validate", "examples/checkout/checkout.ananke.yaml"}, ExitPass, "ok: examples/checkout/ananke.config.yaml"},
		{"config file as path", root, []string{"validate", "examples/checkout/ananke.config.yaml"}, ExitPass, "and 1 test file are valid"},
		{"config in working directory", filepath.Join(root, "examples", "checkout"), []string{"validate"}, ExitPass, "ok: ananke.config.yaml"},
		{"explicit config", root, []string{"validate", "--config", "examples/checkout/ananke.config.yaml"}, ExitPass, "ok:"},
		{"broken suite", root, []string{"validate", "examples/broken/versions"}, ExitInvalid,
			"examples/broken/versions/major.ananke.yaml:1:10: version \"2.0\" is not supported"},
		{"no config anywhere", os.TempDir(), []string{"validate"}, ExitInvalid, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, tc.dir, nil, tc.args...)
			if r.code != tc.wantCode || !strings.Contains(r.out, tc.wantOut) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and %q", r.code, r.out, r.errOut, tc.wantCode, tc.wantOut)
			}
		})
	}
}

// TestValidateBrokenPrintsEverything: every diagnostic of the golden file is
// printed, and the count is on stderr.
func TestValidateBrokenPrintsEverything(t *testing.T) {
	r := run(t, repoRoot(), nil, "validate", "examples/broken/fields")
	want, err := os.ReadFile(filepath.Join(repoRoot(), "examples", "broken", "fields", "diagnostics.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if r.code != ExitInvalid || r.out != string(want) {
		t.Errorf("exit %d; stdout:\n%s\nwant:\n%s", r.code, r.out, want)
	}
	if n := strings.Count(string(want), "\n"); !strings.Contains(r.errOut, "ananke: "+plural.Count(n, "problem")+" found; nothing was run") {
		t.Errorf("stderr = %q", r.errOut)
	}
}
