package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestMainExitCodes walks every exit code the README documents (0 passed,
// 1 a test failed, 2 a test errored, 3 invalid files or flags) through
// Main, the process's entry, and checks what it printed on stderr: each
// command's error once, with its prefix. (The one other code, 130 after a
// second interrupt, ends the process at once: TestSIGINT.)
func TestMainExitCodes(t *testing.T) {
	nano := filepath.Join(repoRoot(), "examples", "nanoclaw")
	broken, err := filepath.Glob(filepath.Join(nano, "*", "broken.ananke.yaml"))
	if err != nil || len(broken) == 0 {
		t.Fatalf("no broken NanoClaw tests: %v", err)
	}
	out := t.TempDir()
	errored := t.TempDir()
	writeSuite(t, errored, "http://"+freePort(t)+"/agent", "turns: [{user: hi}]\n")
	aDir := t.TempDir() // a directory where a file is wanted
	pass, fail := filepath.Join(out, "pass"), filepath.Join(out, "fail")
	runNano := func(dir string, more ...string) []string {
		return slices.Concat([]string{"run", "--config", filepath.Join(nano, "ananke.config.yaml"), "--report-dir", dir}, more)
	}
	runMain := func(args []string) (code int, stdout, stderr string) {
		var o, e bytes.Buffer
		code = Main(context.Background(), args, Stdio{In: strings.NewReader(""), Out: &o, Err: &e}, os.Environ())
		return code, o.String(), e.String()
	}
	// The reports the merge and diff cases read, made first so that each
	// case also runs alone (-run).
	for _, pre := range []struct {
		args []string
		code int
	}{{runNano(pass), ExitPass}, {runNano(fail, broken...), ExitFail}} {
		if code, stdout, stderr := runMain(pre.args); code != pre.code || stderr != "" {
			t.Fatalf("ananke %s: exit %d, stderr %q; want %d and nothing\nstdout:\n%s", strings.Join(pre.args, " "), code, stderr, pre.code, stdout)
		}
	}

	cases := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"a run that passes", runNano(filepath.Join(out, "p1")), ExitPass, ""},
		{"version", []string{"version"}, ExitPass, ""},
		{"help", []string{"run", "-h"}, ExitPass, ""},
		{"a run with a failed test", runNano(filepath.Join(out, "f1"), broken...), ExitFail, ""},
		{"a merge of a failed run", []string{"merge", "-o", filepath.Join(out, "merged"), fail}, ExitFail, ""},
		{"diff --fail-on-new with a new failure", []string{"diff", "--fail-on-new", pass, fail}, ExitFail, ""},
		{"a run with an errored test", []string{"run", "--config", filepath.Join(errored, "ananke.config.yaml"), "--report-dir", filepath.Join(out, "errored")}, ExitError, ""},
		{"a passing run that lost its summary", runNano(filepath.Join(out, "p2"), "--summary", aDir), ExitError,
			"ananke: write summary: open " + aDir + ": is a directory\n"},
		{"a failing run that lost its summary stays failed", runNano(filepath.Join(out, "f2"), append([]string{"--summary", aDir}, broken...)...), ExitFail,
			"ananke: write summary: open " + aDir + ": is a directory\n"},
		{"invalid flag value", []string{"run", "--parallel", "0"}, ExitInvalid, "ananke run: --parallel must be at least 1, got 0\n"},
		{"unknown flag", []string{"trace", "export", "--verbos"}, ExitInvalid, "ananke trace export: unknown flag --verbos\nRun 'ananke trace export -h' for its flags.\n"},
		{"unknown command", []string{"rnu"}, ExitInvalid, "ananke: unknown command \"rnu\"; did you mean run?\nRun 'ananke help' for the commands.\n"},
		{"invalid files", []string{"validate", filepath.Join(repoRoot(), "examples", "broken", "yaml")}, ExitInvalid, "ananke: 6 problems found; nothing was run\n"},
		{"a filter that matches nothing", runNano(filepath.Join(out, "none"), "--run", "^nothing$"), ExitInvalid,
			"ananke: no test matches --run \"^nothing$\" (of 6 tests); nothing was run\n"},
		{"a missing report", []string{"diff", pass, filepath.Join(out, "nowhere")}, ExitInvalid,
			"ananke diff: head: read report " + filepath.Join(out, "nowhere") + ": open " + filepath.Join(out, "nowhere", "summary.json") + ": no such file or directory\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runMain(tc.args)
			if code != tc.code || stderr != tc.stderr {
				t.Errorf("ananke %s: exit %d, stderr %q; want %d, %q\nstdout:\n%s", strings.Join(tc.args, " "), code, stderr, tc.code, tc.stderr, stdout)
			}
		})
	}
}

// TestExitError: what an error returned by a command prints and the code
// it ends with, alone and joined.
func TestExitError(t *testing.T) {
	failed := exitWith(ExitFail)
	lost := errorf("", "write summary: %v", errors.New("disk full"))
	warned := exitf(ExitPass, "", "--memprofile: %v", errors.New("denied"))
	cases := []struct {
		name  string
		err   error
		code  int
		lines string
	}{
		{"nil", nil, ExitPass, ""},
		{"silent", failed, ExitFail, ""},
		{"help", exitWith(ExitPass), ExitPass, ""},
		{"a command's", invalidf("diff", "name two report directories"), ExitInvalid, "ananke diff: name two report directories\n"},
		{"ananke's", lost, ExitError, "ananke: write summary: disk full\n"},
		{"later lines as they are", invalidf("run", "unknown flag --x\nRun 'ananke run -h' for its flags."), ExitInvalid,
			"ananke run: unknown flag --x\nRun 'ananke run -h' for its flags.\n"},
		{"a plain error is Ananke's failure", errors.New("boom"), ExitError, "ananke: boom\n"},
		{"joined: the first code that is not 0", errors.Join(failed, lost), ExitFail, "ananke: write summary: disk full\n"},
		{"joined: a pass that lost an output", errors.Join(nil, lost), ExitError, "ananke: write summary: disk full\n"},
		{"joined: a warning keeps a pass", errors.Join(nil, warned), ExitPass, "ananke: --memprofile: denied\n"},
		{"joined: a warning after a failure", errors.Join(lost, warned), ExitError, "ananke: write summary: disk full\nananke: --memprofile: denied\n"},
		{"a scope for joined messages", withCode(ExitInvalid, "init", errors.Join(errors.New("a exists"), errors.New("nothing was written"))), ExitInvalid,
			"ananke init: a exists\nananke init: nothing was written\n"},
		{"another code for a joined error", withCode(ExitPass, "", errors.Join(failed, lost)), ExitPass, "ananke: write summary: disk full\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			a := &app{Stdio: Stdio{Err: &stderr}}
			if code := a.exit(tc.err); code != tc.code || stderr.String() != tc.lines {
				t.Errorf("exit = %d, printed %q; want %d, %q", code, stderr.String(), tc.code, tc.lines)
			}
		})
	}
}
