package hooks

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Hooks in these tests are small bash programs, given with bash -c or
// written to t.TempDir().

// needBash skips the test when bash is not installed.
func needBash(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed")
	}
}

// mustFinish is the timeout of hooks that must finish: only a hang meets
// it, never a busy machine.
const mustFinish = time.Minute

// expireWhen returns a Command.after that ends the timeout's wait once
// ready reports true (checked every 10 ms; a minute at most, when the hook
// never gets there), whatever the duration: the hook has then done what
// the test needs it to do before it times out, however busy the machine.
// The durations asked for are appended to *asked.
func expireWhen(t *testing.T, ready func() bool, asked *[]time.Duration) func(time.Duration) <-chan time.Time {
	return func(d time.Duration) <-chan time.Time {
		*asked = append(*asked, d)
		expired := make(chan time.Time, 1)
		go func() {
			deadline := time.Now().Add(time.Minute)
			for !ready() && time.Now().Before(deadline) {
				select {
				case <-t.Context().Done():
					return
				case <-time.After(10 * time.Millisecond):
				}
			}
			expired <- time.Now()
		}()
		return expired
	}
}

// exists reports whether file exists.
func exists(file string) func() bool {
	return func() bool {
		_, err := os.Stat(file)
		return err == nil
	}
}

// testEnv is a minimal environment: only PATH, so that tests can also check
// that nothing else (HOME, ...) leaks into a hook.
func testEnv() []string { return []string{"PATH=" + os.Getenv("PATH")} }

// bash is a hook running script with bash -c; args become $1, $2, ...
func bash(t *testing.T, script string, args ...string) Command {
	t.Helper()
	needBash(t)
	return Command{
		Argv:    append([]string{"bash", "-c", script, "hook"}, args...),
		Dir:     t.TempDir(),
		Env:     testEnv(),
		Timeout: mustFinish,
	}
}

// writeScript writes an executable bash script into dir and returns its path.
func writeScript(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/usr/bin/env bash\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRun(t *testing.T) {
	tests := []struct {
		name   string
		script string
		want   map[string]string
	}{
		{
			name: "strings numbers booleans",
			script: `printf '%s\n' '{"S": "hello", "N": 42, "F": 1.50, "E": 1e3, "NEG": -0.5,` +
				` "BIG": 12345678901234567890, "T": true, "FA": false, "U": "\u00e9 ${x}", "_x1": ""}'`,
			want: map[string]string{
				"S": "hello", "N": "42", "F": "1.50", "E": "1e3", "NEG": "-0.5",
				"BIG": "12345678901234567890", "T": "true", "FA": "false", "U": "é ${x}", "_x1": "",
			},
		},
		{name: "empty object", script: `echo '{}'`, want: map[string]string{}},
		{
			name:   "whitespace around the object and stderr noise",
			script: `echo 'progress...' >&2; printf '\n\n  {"A": "1"}  \n\n'`,
			want:   map[string]string{"A": "1"},
		},
		{
			name:   "duplicate key: last wins",
			script: `echo '{"A": "1", "A": "2"}'`,
			want:   map[string]string{"A": "2"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Run(t.Context(), bash(t, tc.script))
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if got == nil || !maps.Equal(got, tc.want) {
				t.Errorf("Run = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestRunUsesDirAndEnv(t *testing.T) {
	needBash(t)
	dir := t.TempDir()
	writeScript(t, dir, "seed.sh",
		`printf '{"DIR": "%s", "FOO": "%s", "HOME": "%s"}' "$(pwd -P)" "$FOO" "${HOME-unset}"`)
	c := Command{
		Argv:    []string{"./seed.sh"}, // relative to Dir
		Dir:     dir,
		Env:     append(testEnv(), "FOO=bar baz"), // no HOME
		Timeout: mustFinish,
	}
	got, err := Run(t.Context(), c)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	wantDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"DIR": wantDir, "FOO": "bar baz", "HOME": "unset"}
	if !maps.Equal(got, want) {
		t.Errorf("Run = %v, want %v", got, want)
	}
}

// A nil Env means an empty environment, not this process's (os/exec's
// default).
func TestRunNilEnvIsEmpty(t *testing.T) {
	needBash(t)
	t.Setenv("ANANKE_HOOKS_TEST", "leaked")
	bashPath, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal(err)
	}
	c := Command{
		Argv:    []string{bashPath, "-c", `printf '{"V": "%s"}' "${ANANKE_HOOKS_TEST-unset}"`},
		Dir:     t.TempDir(),
		Timeout: mustFinish,
	}
	got, err := Run(t.Context(), c)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if got["V"] != "unset" {
		t.Errorf("ANANKE_HOOKS_TEST = %q in the hook, want unset", got["V"])
	}
}

func TestRunLooksUpProgramInEnvPath(t *testing.T) {
	needBash(t)
	bin := t.TempDir()
	writeScript(t, bin, "ananke-test-hook", `echo '{"FOUND": "yes"}'`)
	c := Command{
		Argv:    []string{"ananke-test-hook"},
		Dir:     t.TempDir(),
		Env:     []string{"PATH=" + bin + string(filepath.ListSeparator) + os.Getenv("PATH")},
		Timeout: mustFinish,
	}
	got, err := Run(t.Context(), c)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if got["FOUND"] != "yes" {
		t.Errorf("Run = %v, want FOUND=yes", got)
	}

	// The same name with the process PATH only (as the test binary has it)
	// must not be found: the lookup uses Env, not os.Getenv.
	c.Env = testEnv()
	_, err = Run(t.Context(), c)
	var he *Error
	if !errors.As(err, &he) || he.Kind != KindStart {
		t.Errorf("Run with PATH lacking the hook: err = %v, want KindStart", err)
	}
}

func TestRunErrors(t *testing.T) {
	needBash(t)
	tests := []struct {
		name       string
		cmd        func(t *testing.T) Command
		wantKind   Kind
		wantCode   int      // checked for KindExit
		wantDetail []string // substrings of Detail
		wantStderr string   // suffix of Stderr
	}{
		{
			name:       "non-zero exit with stderr",
			cmd:        script(`echo 'connecting...' >&2; echo 'seed failed: db down' >&2; exit 3`),
			wantKind:   KindExit,
			wantCode:   3,
			wantStderr: "seed failed: db down",
		},
		{
			name:       "killed by a signal",
			cmd:        script(`kill -9 $$`),
			wantKind:   KindExit,
			wantCode:   -1,
			wantDetail: []string{"signal: killed"},
		},
		{
			name:       "non-JSON stdout",
			cmd:        script(`echo hello world; echo 'oops' >&2`),
			wantKind:   KindOutput,
			wantDetail: []string{"not JSON", `"hello world\n"`},
			wantStderr: "oops",
		},
		{
			name:       "truncated JSON",
			cmd:        script(`printf '{"A": "1"'`),
			wantKind:   KindOutput,
			wantDetail: []string{"not complete JSON", `"{\"A\": \"1\""`},
		},
		{
			name:       "top-level array",
			cmd:        script(`echo '["A"]'`),
			wantKind:   KindOutput,
			wantDetail: []string{"an array, not a JSON object"},
		},
		{
			name:       "null value",
			cmd:        script(`echo '{"A": "1", "TOKEN": null}'`),
			wantKind:   KindOutput,
			wantDetail: []string{`"TOKEN"`, "null"},
		},
		{
			name:       "array value",
			cmd:        script(`echo '{"LIST": [1, 2]}'`),
			wantKind:   KindOutput,
			wantDetail: []string{`"LIST"`, "an array"},
		},
		{
			name:       "object value",
			cmd:        script(`echo '{"USER": {"id": 1}}'`),
			wantKind:   KindOutput,
			wantDetail: []string{`"USER"`, "an object"},
		},
		{
			name:       "two objects",
			cmd:        script(`echo '{"A": "1"}'; echo '{"B": "2"}'`),
			wantKind:   KindOutput,
			wantDetail: []string{"more after the JSON object", `"{\"B\": \"2\"}"`},
		},
		{
			name:       "empty stdout",
			cmd:        script(`true`),
			wantKind:   KindOutput,
			wantDetail: []string{"stdout is empty", `{"TOKEN": "..."}`},
		},
		{
			name:       "whitespace-only stdout",
			cmd:        script(`printf ' \n\t\n'`),
			wantKind:   KindOutput,
			wantDetail: []string{"stdout is empty"},
		},
		{
			name:       "invalid variable name",
			cmd:        script(`echo '{"OK": "1", "my-token": "x"}'`),
			wantKind:   KindOutput,
			wantDetail: []string{`"my-token"`, "not valid"},
		},
		{
			name:       "huge stdout",
			cmd:        script(`head -c 3000000 /dev/zero | tr '\0' a`),
			wantKind:   KindOutput,
			wantDetail: []string{"stdout is larger than 1 MiB"},
		},
		{
			name:       "long stderr keeps its tail",
			cmd:        script(`for i in $(seq 1000); do echo "noise line $i" >&2; done; echo 'the real reason' >&2; exit 1`),
			wantKind:   KindExit,
			wantCode:   1,
			wantStderr: "noise line 1000\nthe real reason",
		},
		{
			name: "program not found",
			cmd: func(t *testing.T) Command {
				return Command{Argv: []string{"ananke-no-such-hook"}, Dir: t.TempDir(), Env: testEnv(), Timeout: time.Second}
			},
			wantKind:   KindStart,
			wantDetail: []string{`"ananke-no-such-hook" not found in PATH`},
		},
		{
			name: "no PATH in Env",
			cmd: func(t *testing.T) Command {
				return Command{Argv: []string{"bash", "-c", "true"}, Dir: t.TempDir(), Timeout: time.Second}
			},
			wantKind:   KindStart,
			wantDetail: []string{"PATH is not set"},
		},
		{
			name: "script not executable",
			cmd: func(t *testing.T) Command {
				dir := t.TempDir()
				if err := os.WriteFile(filepath.Join(dir, "seed.sh"), []byte("echo {}\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				return Command{Argv: []string{"./seed.sh"}, Dir: dir, Env: testEnv(), Timeout: time.Second}
			},
			wantKind:   KindStart,
			wantDetail: []string{"permission denied"},
		},
		{
			name: "missing directory",
			cmd: func(t *testing.T) Command {
				return Command{Argv: []string{"bash", "-c", "true"}, Dir: filepath.Join(t.TempDir(), "gone"), Env: testEnv(), Timeout: time.Second}
			},
			wantKind:   KindStart,
			wantDetail: []string{"working directory", "gone", "no such file or directory"},
		},
		{
			name: "directory is a file",
			cmd: func(t *testing.T) Command {
				c := bash(t, "true")
				c.Dir = writeScript(t, c.Dir, "file", "")
				return c
			},
			wantKind:   KindStart,
			wantDetail: []string{"is not a directory"},
		},
		{
			name: "empty argv",
			cmd: func(t *testing.T) Command {
				return Command{Dir: t.TempDir(), Env: testEnv(), Timeout: time.Second}
			},
			wantKind:   KindStart,
			wantDetail: []string{"empty"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.cmd(t)
			vars, err := Run(t.Context(), c)
			he := checkError(t, c, vars, err, tc.wantKind)
			if tc.wantKind == KindExit && he.ExitCode != tc.wantCode {
				t.Errorf("ExitCode = %d, want %d", he.ExitCode, tc.wantCode)
			}
			for _, want := range tc.wantDetail {
				if !strings.Contains(he.Detail, want) {
					t.Errorf("Detail = %q, want it to contain %q", he.Detail, want)
				}
			}
			if !strings.HasSuffix(he.Stderr, tc.wantStderr) {
				t.Errorf("Stderr = %q, want it to end with %q", he.Stderr, tc.wantStderr)
			}
			if len(he.Stderr) > maxStderr {
				t.Errorf("len(Stderr) = %d, want <= %d", len(he.Stderr), maxStderr)
			}
		})
	}
}

// script returns a Command builder for a bash -c hook.
func script(s string) func(t *testing.T) Command {
	return func(t *testing.T) Command { return bash(t, s) }
}

// checkError asserts that Run failed with an *Error of kind want whose
// message is one line naming the command, and returns it.
func checkError(t *testing.T, c Command, vars map[string]string, err error, want Kind) *Error {
	t.Helper()
	if vars != nil {
		t.Errorf("Run returned variables %v with an error", vars)
	}
	var he *Error
	if !errors.As(err, &he) {
		t.Fatalf("Run error = %v (%T), want *Error", err, err)
	}
	if he.Kind != want {
		t.Fatalf("Kind = %q, want %q (error: %v)", he.Kind, want, err)
	}
	msg := err.Error()
	if name := commandName(c.Argv); name != "" && !strings.Contains(msg, fmt.Sprintf("hook %q", name)) {
		t.Errorf("Error() = %q, want it to name the command %q", msg, name)
	}
	if strings.ContainsAny(msg, "\n\r") {
		t.Errorf("Error() = %q, want one line", msg)
	}
	return he
}

func TestRunTimeout(t *testing.T) {
	c := bash(t, `echo 'waiting for db' >&2; : > started; sleep 30; echo '{}'`)
	c.Timeout = 300 * time.Millisecond
	var asked []time.Duration
	c.after = expireWhen(t, exists(filepath.Join(c.Dir, "started")), &asked) // its stderr is written
	vars, err := Run(t.Context(), c)
	if !slices.Equal(asked, []time.Duration{c.Timeout}) {
		t.Errorf("waited %v, want the timeout", asked)
	}
	he := checkError(t, c, vars, err, KindTimeout) // not the sleep's own end
	if he.Stderr != "waiting for db" {
		t.Errorf("Stderr = %q, want %q", he.Stderr, "waiting for db")
	}
	if want := "timed out after 300ms (process group killed)"; !strings.Contains(err.Error(), want) {
		t.Errorf("Error() = %q, want it to contain %q", err, want)
	}
}

// A hook that floods stdout is stopped as soon as it passes the limit, not
// left running until its timeout (which would make it a KindTimeout).
func TestRunStopsEndlessStdout(t *testing.T) {
	c := bash(t, `yes '{"A": "1"}'`) // Timeout mustFinish
	vars, err := Run(t.Context(), c)
	checkError(t, c, vars, err, KindOutput)
}

func TestRunCancelledBeforeStart(t *testing.T) {
	c := bash(t, `echo '{}'`)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	vars, err := Run(ctx, c)
	checkError(t, c, vars, err, KindCancelled)
}

func TestRunRejectsNonPositiveTimeout(t *testing.T) {
	c := bash(t, `echo '{}'`)
	c.Timeout = 0
	_, err := Run(t.Context(), c)
	var he *Error
	if err == nil || errors.As(err, &he) {
		t.Errorf("Run with zero timeout: err = %v, want a plain (non-hook) error", err)
	}
}

func TestRunConcurrent(t *testing.T) {
	needBash(t)
	const n = 20
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			c := bash(t, `printf '{"N": "%s"}' "$1"`, fmt.Sprint(i))
			vars, err := Run(t.Context(), c)
			if err == nil && vars["N"] != fmt.Sprint(i) {
				err = fmt.Errorf("got N=%q", vars["N"])
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("hook %d: %v", i, err)
		}
	}
}
