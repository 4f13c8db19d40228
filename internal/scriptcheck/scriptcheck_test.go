package scriptcheck

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/status"
)

// writeScript writes an executable sh script named check.sh into a new
// temporary directory and returns the directory.
func writeScript(t *testing.T, body string) string {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("sh not installed")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "check.sh"), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// scriptCheck is a critical script check of turn[0] running argv.
func scriptCheck(timeoutMs int64, argv ...string) assertion.Check {
	return assertion.Check{
		ID: "turn[0].script[0]", Level: assertion.LevelTest, Kind: assertion.KindScript, Severity: assertion.Critical,
		Pos:     diag.Pos{File: "tests/refund.ananke.yaml", Line: 12, Col: 9},
		Payload: &assertion.ScriptCheck{Script: &assertion.Script{TimeoutMs: timeoutMs}, Argv: argv},
	}
}

func testEnv() []string { return []string{"PATH=" + os.Getenv("PATH")} }

func TestEvaluate(t *testing.T) {
	refund := Transcript(TestInfo{ID: "refund"}, scopeWith("refund"))
	search := Transcript(TestInfo{ID: "refund"}, scopeWith("search"))
	tests := []struct {
		name         string
		script       string
		argv         []string // default ./check.sh
		timeoutMs    int64    // default a minute: only a hang meets it
		severity     assertion.Severity
		stdin        []byte
		ctx          func(t *testing.T) context.Context
		wantStatus   status.Status
		wantObserved string
		wantMsg      []string // substrings of Message
		wantEvidence []string // Text of each evidence item
	}{
		{
			name: "pass", script: `exit 0`,
			wantStatus: status.Pass, wantObserved: "exit status 0",
			wantMsg: []string{"script `./check.sh` exited 0 over turn[0]"},
		},
		{
			name: "pass keeps stdout as evidence", script: `echo 'refund called once'`,
			wantStatus: status.Pass, wantObserved: "exit status 0",
			wantEvidence: []string{"refund called once"},
		},
		{
			name: "fail with stdout", script: `echo '  refund was never called'; echo 'debug' >&2; exit 1`,
			wantStatus: status.Fail, wantObserved: "exit status 1",
			wantMsg:      []string{"refund was never called"},
			wantEvidence: []string{"refund was never called", "debug"},
		},
		{
			name: "fail printing nothing", script: `exit 1`,
			wantStatus: status.Fail, wantObserved: "exit status 1",
			wantMsg: []string{"script `./check.sh` exited 1 and printed nothing"},
		},
		{
			name: "failing warning", script: `echo slow; exit 1`, severity: assertion.Warning,
			wantStatus: status.Warn, wantObserved: "exit status 1",
			wantMsg: []string{"slow"}, wantEvidence: []string{"slow"},
		},
		{
			name: "arguments reach the script", script: `[ "$1" = "refund order" ] && [ "$2" = 42 ] || { echo "got $1 $2"; exit 1; }`,
			argv:       []string{"./check.sh", "refund order", "42"},
			wantStatus: status.Pass, wantMsg: []string{`script ` + "`" + `./check.sh "refund order" 42` + "`"},
		},
		{
			name: "transcript on stdin: pass", script: `grep -q '"name":"refund"' || { echo 'no refund call'; exit 1; }`,
			stdin: refund, wantStatus: status.Pass,
		},
		{
			name: "transcript on stdin: fail", script: `grep -q '"name":"refund"' || { echo 'no refund call'; exit 1; }`,
			stdin: search, wantStatus: status.Fail, wantMsg: []string{"no refund call"},
		},
		{
			name: "error: exit 2", script: `echo 'jq: command not found' >&2; exit 2`,
			wantStatus: status.Error, wantObserved: "exit status 2",
			wantMsg: []string{
				`script "./check.sh" exited with status 2; stderr: jq: command not found`,
				"exits 0 to pass or 1 to fail",
			},
			wantEvidence: []string{"jq: command not found"},
		},
		{
			name: "error: a warning's error stays an error", script: `exit 3`, severity: assertion.Warning,
			wantStatus: status.Error, wantObserved: "exit status 3",
		},
		{
			name: "error: missing program", argv: []string{"./missing.sh"},
			wantStatus: status.Error, wantObserved: "could not start",
			wantMsg: []string{`script "./missing.sh" could not start`},
		},
		{
			// What it printed before its timeout is internal/hooks' to
			// test: here, a busy machine might not start it in 100 ms.
			name: "error: timeout", script: `sleep 30`, timeoutMs: 100,
			wantStatus: status.Error, wantObserved: "timed out",
			wantMsg: []string{`script "./check.sh" timed out after 100ms`},
		},
		{
			name: "error: killed", script: `kill -9 $$`,
			wantStatus: status.Error, wantObserved: "killed (signal: killed)",
			wantMsg: []string{`script "./check.sh" was killed`},
		},
		{
			name: "error: cancelled", script: `exit 0`,
			ctx: func(t *testing.T) context.Context {
				ctx, cancel := context.WithCancel(t.Context())
				cancel()
				return ctx
			},
			wantStatus: status.Error, wantObserved: "cancelled",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeScript(t, tc.script)
			argv := tc.argv
			if argv == nil {
				argv = []string{"./check.sh"}
			}
			timeout := tc.timeoutMs
			if timeout == 0 {
				timeout = 60_000
			}
			c := scriptCheck(timeout, argv...)
			if tc.severity != "" {
				c.Severity = tc.severity
			}
			ctx := t.Context()
			if tc.ctx != nil {
				ctx = tc.ctx(t)
			}
			r := Evaluate(ctx, c, Input{Dir: dir, Env: testEnv(), Transcript: tc.stdin, Scope: "turn[0]"})
			if r.Status != tc.wantStatus {
				t.Fatalf("Status = %q, want %q (message: %s)", r.Status, tc.wantStatus, r.Message)
			}
			if r.ID != c.ID || r.Level != c.Level || r.Kind != assertion.KindScript || r.Scope != "turn[0]" || r.Source != c.Pos || r.Severity != c.Severity {
				t.Errorf("Result = %+v, want ID, level, kind, scope, source and severity of the check", r)
			}
			if want := "`" + commandName(argv) + "` exits 0"; r.Expected != want {
				t.Errorf("Expected = %q, want %q", r.Expected, want)
			}
			if tc.wantObserved != "" && r.Observed != tc.wantObserved {
				t.Errorf("Observed = %q, want %q", r.Observed, tc.wantObserved)
			}
			for _, want := range tc.wantMsg {
				if !strings.Contains(r.Message, want) {
					t.Errorf("Message = %q, want it to contain %q", r.Message, want)
				}
			}
			if tc.wantEvidence != nil {
				var got []string
				for _, e := range r.Evidence {
					got = append(got, e.Text)
				}
				if strings.Join(got, "\x00") != strings.Join(tc.wantEvidence, "\x00") {
					t.Errorf("Evidence texts = %q, want %q", got, tc.wantEvidence)
				}
			}
			if r.EventRefs == nil {
				t.Error("EventRefs = nil: Finish was not called")
			}
		})
	}
}

// A failing script's stdout is the message, bounded; the evidence keeps
// more of it.
func TestEvaluateBoundsMessage(t *testing.T) {
	dir := writeScript(t, `i=0; while [ $i -lt 500 ]; do echo "reason line $i"; i=$((i+1)); done; exit 1`)
	r := Evaluate(t.Context(), scriptCheck(60_000, "./check.sh"), Input{Dir: dir, Env: testEnv(), Scope: "test"})
	if r.Status != status.Fail {
		t.Fatalf("Status = %q, want fail", r.Status)
	}
	if len(r.Message) > maxMessage || !strings.HasPrefix(r.Message, "reason line 0\n") || !strings.HasSuffix(r.Message, "…") {
		t.Errorf("Message is %d bytes, starting %.20q and ending %q; want <= %d bytes, the start of stdout, ending with …",
			len(r.Message), r.Message, r.Message[max(0, len(r.Message)-10):], maxMessage)
	}
	if len(r.Evidence) != 1 || len(r.Evidence[0].Text) > maxEvidence || len(r.Evidence[0].Text) <= maxMessage {
		t.Errorf("Evidence = %d items, want one holding more than the message and at most %d bytes", len(r.Evidence), maxEvidence)
	}
}

func TestEvaluateNotAScript(t *testing.T) {
	c := assertion.Check{ID: "test.script[0]", Kind: assertion.KindScript}
	r := Evaluate(t.Context(), c, Input{Scope: "test"})
	if r.Status != status.Error || r.Severity != assertion.Critical {
		t.Errorf("Evaluate = %q (%s), want a critical error", r.Status, r.Severity)
	}
}

func TestBound(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{in: "  short \n", n: 10, want: "short"},
		{in: "exactly10!", n: 10, want: "exactly10!"},
		{in: "abcdefghijkl", n: 10, want: "abcdefg…"},
		{in: "ééééééé", n: 10, want: "ééé…"}, // cut at a rune boundary
		{in: "a\xffb", n: 10, want: "a\uFFFDb"},
		{in: "", n: 10, want: ""},
	}
	for _, tc := range tests {
		if got := bound(tc.in, tc.n); got != tc.want || len(got) > tc.n {
			t.Errorf("bound(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

func TestCommandName(t *testing.T) {
	tests := []struct {
		argv []string
		want string
	}{
		{[]string{"./check.sh", "refund"}, "./check.sh refund"},
		{[]string{"python3", "check.py", "--tool", "a b"}, `python3 check.py --tool "a b"`},
		{[]string{"sh", "-c", `grep -q "x"`}, `sh -c "grep -q \"x\""`},
		{[]string{"./check.sh", ""}, `./check.sh ""`},
		{[]string{strings.Repeat("a", 100)}, strings.Repeat("a", 77) + "…"},
	}
	for _, tc := range tests {
		if got := commandName(tc.argv); got != tc.want {
			t.Errorf("commandName(%q) = %q, want %q", tc.argv, got, tc.want)
		}
	}
}
