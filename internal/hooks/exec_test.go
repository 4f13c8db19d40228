package hooks

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sh is a command running script with sh -c; args become $1, $2, ...
func sh(t *testing.T, script string, args ...string) Command {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("sh not installed")
	}
	return Command{
		Argv:    append([]string{"sh", "-c", script, "cmd"}, args...),
		Dir:     t.TempDir(),
		Env:     testEnv(),
		Timeout: mustFinish,
	}
}

// mib is 1 MiB of stdin, more than any pipe buffer holds.
var mib = bytes.Repeat([]byte("0123456789abcdef"), 1<<16)

func TestExec(t *testing.T) {
	tests := []struct {
		name       string
		script     string
		stdin      []byte
		wantCode   int
		wantStdout string
		wantStderr string
	}{
		{name: "exit 0", script: `echo ok; echo note >&2`, wantStdout: "ok\n", wantStderr: "note"},
		{name: "exit 1", script: `echo 'missing tool call'; exit 1`, wantCode: 1, wantStdout: "missing tool call\n"},
		{name: "exit 3 with stderr", script: `echo 'bad input' >&2; exit 3`, wantCode: 3, wantStderr: "bad input"},
		{name: "stdin reaches the command", script: `cat`, stdin: []byte(`{"turns": []}` + "\n"), wantStdout: `{"turns": []}` + "\n"},
		{name: "stdin with its exit status", script: `grep -q search && exit 0; exit 1`, stdin: []byte(`{"name": "lookup"}`), wantCode: 1},
		{name: "nil stdin reads nothing", script: `cat; echo end`, wantStdout: "end\n"},
		{name: "empty stdin", script: `cat; echo end`, stdin: []byte{}, wantStdout: "end\n"},
		{name: "large stdin read whole", script: `wc -c | tr -d ' '`, stdin: mib, wantStdout: "1048576\n"},
		// A command need not read its stdin: a full pipe must not block
		// it, nor the write to a closed pipe fail the run.
		{name: "large stdin ignored", script: `echo done`, stdin: mib, wantStdout: "done\n"},
		{name: "large stdin ignored, exit 3", script: `exit 3`, stdin: mib, wantCode: 3},
		{name: "large stdin ignored while running", script: `sleep 0.2; echo done`, stdin: mib, wantStdout: "done\n"},
		{name: "large stdin partly read", script: `head -c 10`, stdin: mib, wantStdout: "0123456789"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := sh(t, tc.script)
			c.Stdin = tc.stdin
			out, err := Exec(t.Context(), c) // a blocked pipe would end by the timeout: an error
			if err != nil {
				t.Fatalf("Exec: %v", err)
			}
			if out.ExitCode != tc.wantCode {
				t.Errorf("ExitCode = %d, want %d", out.ExitCode, tc.wantCode)
			}
			if string(out.Stdout) != tc.wantStdout {
				t.Errorf("Stdout = %q, want %q", out.Stdout, tc.wantStdout)
			}
			if out.Stderr != tc.wantStderr {
				t.Errorf("Stderr = %q, want %q", out.Stderr, tc.wantStderr)
			}
		})
	}
}

func TestExecErrors(t *testing.T) {
	tests := []struct {
		name       string
		cmd        func(t *testing.T) Command
		ctx        func(t *testing.T) context.Context
		wantKind   Kind
		wantStderr string
		wantMsg    string
	}{
		{
			name: "timeout",
			cmd: func(t *testing.T) Command {
				c := sh(t, `echo 'still checking' >&2; : > started; sleep 30`)
				c.Timeout = 200 * time.Millisecond
				c.after = expireWhen(t, exists(filepath.Join(c.Dir, "started")), new([]time.Duration)) // its stderr is written
				return c
			},
			wantKind:   KindTimeout,
			wantStderr: "still checking",
			wantMsg:    "timed out after 200ms",
		},
		{
			name: "timeout while ignoring a large stdin",
			cmd: func(t *testing.T) Command {
				c := sh(t, `sleep 30`)
				c.Stdin, c.Timeout = mib, 200*time.Millisecond
				return c
			},
			wantKind: KindTimeout,
		},
		{
			name: "program not found",
			cmd: func(t *testing.T) Command {
				return Command{Argv: []string{"./check.sh"}, Dir: t.TempDir(), Env: testEnv(), Timeout: time.Second}
			},
			wantKind: KindStart,
			wantMsg:  "could not start",
		},
		{
			name:     "killed by a signal",
			cmd:      func(t *testing.T) Command { return sh(t, `echo dying >&2; kill -9 $$`) },
			wantKind: KindExit, wantStderr: "dying",
			wantMsg: "was killed: signal: killed",
		},
		{
			name:     "stdout over the limit",
			cmd:      func(t *testing.T) Command { return sh(t, `yes`) },
			wantKind: KindOutput,
			wantMsg:  "stdout is larger than 1 MiB",
		},
		{
			name: "cancelled",
			cmd:  func(t *testing.T) Command { return sh(t, `true`) },
			ctx: func(t *testing.T) context.Context {
				ctx, cancel := context.WithCancel(t.Context())
				cancel()
				return ctx
			},
			wantKind: KindCancelled,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.cmd(t)
			ctx := t.Context()
			if tc.ctx != nil {
				ctx = tc.ctx(t)
			}
			out, err := Exec(ctx, c)
			he := checkError(t, c, nil, err, tc.wantKind)
			if out.ExitCode != -1 {
				t.Errorf("ExitCode = %d, want -1", out.ExitCode)
			}
			if he.Stderr != tc.wantStderr || out.Stderr != tc.wantStderr {
				t.Errorf("Error.Stderr = %q, Output.Stderr = %q, want %q", he.Stderr, out.Stderr, tc.wantStderr)
			}
			if !strings.Contains(err.Error(), tc.wantMsg) {
				t.Errorf("Error() = %q, want it to contain %q", err, tc.wantMsg)
			}
		})
	}
}

func TestRunAfter(t *testing.T) {
	tests := []struct {
		name     string
		script   string
		stdin    []byte
		timeout  time.Duration
		wantKind Kind // "" means success
		wantCode int
		wantMsg  []string
	}{
		{name: "prints nothing", script: `true`},
		{name: "prints anything", script: `echo 'cleaned up 3 rows'; echo '{"not": "vars"'`},
		// Stdout is discarded, not limited: a chatty cleanup is no error.
		{name: "prints a lot", script: `head -c 3000000 /dev/zero`},
		{name: "reads stdin", script: `grep -q '"verdict": "pass"'`, stdin: []byte(`{"verdict": "pass"}`)},
		{name: "ignores a large stdin", script: `true`, stdin: mib},
		{
			name:     "exit 2",
			script:   `echo 'ignored stdout'; echo 'teardown: db gone' >&2; exit 2`,
			wantKind: KindExit, wantCode: 2,
			wantMsg: []string{`hook "sh -c`, "exited with status 2", "stderr: teardown: db gone"},
		},
		{
			name:     "timeout",
			script:   `sleep 30`,
			timeout:  200 * time.Millisecond,
			wantKind: KindTimeout,
			wantMsg:  []string{"timed out after 200ms"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := sh(t, tc.script)
			c.Stdin = tc.stdin
			if tc.timeout > 0 {
				c.Timeout = tc.timeout
			}
			err := RunAfter(t.Context(), c)
			if tc.wantKind == "" {
				if err != nil {
					t.Fatalf("RunAfter: %v", err)
				}
				return
			}
			he := checkError(t, c, nil, err, tc.wantKind)
			if tc.wantKind == KindExit && he.ExitCode != tc.wantCode {
				t.Errorf("ExitCode = %d, want %d", he.ExitCode, tc.wantCode)
			}
			for _, want := range tc.wantMsg {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("Error() = %q, want it to contain %q", err, want)
				}
			}
		})
	}
}

// Run reads stdin too, and still requires its JSON object.
func TestRunWithStdin(t *testing.T) {
	c := sh(t, `printf '{"IN": "%s"}' "$(cat)"`)
	c.Stdin = []byte("from stdin")
	vars, err := Run(t.Context(), c)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if vars["IN"] != "from stdin" {
		t.Errorf("Run = %v, want IN=from stdin", vars)
	}

	c = sh(t, `echo '{}'`)
	c.Stdin = mib
	if _, err := Run(t.Context(), c); err != nil {
		t.Errorf("Run ignoring a large stdin: %v", err)
	}
}

func TestStatusError(t *testing.T) {
	c := Command{Argv: []string{"./check.sh", "refund"}, Timeout: time.Second}
	tests := []struct {
		name  string
		label string
		want  string
	}{
		{name: "default label", want: `hook "./check.sh refund" exited with status 2; stderr: no transcript`},
		{name: "script", label: "script", want: `script "./check.sh refund" exited with status 2; stderr: no transcript`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c.Label = tc.label
			e := StatusError(c, Output{ExitCode: 2, Stderr: "no transcript"})
			if e.Kind != KindExit || e.ExitCode != 2 || e.Stderr != "no transcript" {
				t.Errorf("StatusError = %+v, want KindExit, status 2, the stderr", e)
			}
			if got := e.Error(); got != tc.want {
				t.Errorf("Error() = %q, want %q", got, tc.want)
			}
		})
	}
}

// The label names the command in every message, including those of
// failures before it starts.
func TestLabel(t *testing.T) {
	c := Command{Argv: []string{"./check.sh"}, Dir: t.TempDir(), Env: testEnv(), Timeout: time.Second, Label: "script"}
	_, err := Exec(t.Context(), c)
	var he *Error
	if !errors.As(err, &he) || !strings.HasPrefix(err.Error(), `script "./check.sh" could not start`) {
		t.Errorf("Exec = %v, want a KindStart *Error starting with the label", err)
	}
	c.Timeout = 0
	if _, err := Exec(t.Context(), c); err == nil || !strings.HasPrefix(err.Error(), `run script "./check.sh": timeout`) {
		t.Errorf("Exec with zero timeout = %v, want the label in the message", err)
	}
}
