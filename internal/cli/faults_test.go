package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ananke/action/internal/agui/aguitest"
	"github.com/ananke/action/internal/status"
)

// faultCase is one fault and what Ananke must report for it.
type faultCase struct {
	body   string // the test file after version and name
	status status.Status
	want   string // in the reason (error) or a failing assertion's message (fail)
	// stalls: the agent never finishes, and the run timeout (1500 ms) ends
	// the case, in a suite of its own. Every other case runs with a timeout
	// none of them meets (2 min), however busy the machine: how fast a
	// case ends is for the benchmarks, not for this test.
	stalls bool
}

const faultSecret = "fs-secret-0011223344"

// faultCases: every agent fault of aguitest.Faults and the hook faults.
func faultCases(pidFile string) map[string]faultCase {
	user := func(fault string) string { return "turns: [{user: \"fault: " + fault + "\"}]\n" }
	cases := map[string]faultCase{
		"http-401":        {user("http-401"), "error", `turn[0]: the agent answered HTTP 401: {"error":"bad token"}`, false},
		"http-404":        {user("http-404"), "error", "the agent answered HTTP 404: no agent at this path", false},
		"http-500":        {user("http-500"), "error", "the agent answered HTTP 500: Traceback (most recent call last): boom", false},
		"html":            {user("html"), "error", "the agent answered with Content-Type text/html; charset=utf-8, not an event stream: <html><body>Please sign in</body></html>", false},
		"empty":           {user("empty"), "fail", "it carried no events at all", false},
		"invalid-json":    {user("invalid-json"), "fail", "the event is not valid JSON", false},
		"not-object":      {user("not-object"), "fail", "the event is not a JSON object", false},
		"missing-type":    {user("missing-type"), "fail", "the event carries no event type", false},
		"malformed-field": {user("malformed-field"), "fail", "TEXT_MESSAGE_CONTENT.delta must be a string", false},
		"unknown-event":   {user("unknown-event") + "assert: {text: {must_match: ok}}\n", "pass", "", false},
		"out-of-order":    {user("out-of-order"), "fail", "No active text message found with ID 'm1'", false},
		"stop-mid-event":  {user("stop-mid-event"), "fail", "the stream ended in the middle of an event", false},
		"no-finish":       {user("no-finish"), "fail", "the stream ended without a terminal event", false},
		"reset":           {user("reset"), "error", "reading the event stream: ", false},
		"stall":           {user("stall"), "error", "the run did not finish within target.timeout_ms (1500 ms)", true},
		"drip":            {user("drip"), "error", "the run did not finish within target.timeout_ms (1500 ms)", true},
		"huge-event":      {user("huge-event"), "error", "an SSE event is larger than the limit of 32 MiB (raise target.max_event_bytes)", false},
		"many-events":     {user("many-events") + "assert: {text: {must_match: '^x+$'}}\n", "pass", "", false},
		"run-error":       {user("run-error"), "fail", "the agent sent RUN_ERROR: model overloaded (code overloaded)", false},
		"after-finish":    {user("after-finish"), "fail", "The run has already finished with 'RUN_FINISHED'", false},
		"parallel-args": {user("parallel-args") + `assert:
  tools:
    require:
      - {name: get_price, count: {exact: 2}}
      - {name: get_price, args_match: {sku: "^A-1$"}, result_match: '"price":1'}
      - {name: get_price, args_match: {sku: "^B-2$"}, result_match: '"price":2'}
`, "pass", "", false},
		"invalid-args": {user("invalid-args") + "assert: {tools: {require: [{name: search, args_match: {q: shoes}}]}}\n", "fail",
			"args_match: the arguments are not valid JSON", false},
		// Malformed interrupt outcomes fail the protocol check; a resume
		// the agent does not know fails with its RUN_ERROR; a message sent
		// while an interrupt is pending errors, naming it.
		"interrupt-empty":     {user("interrupt-empty"), "fail", "RUN_FINISHED.outcome of type interrupt carries no interrupts", false},
		"interrupt-duplicate": {user("interrupt-duplicate"), "fail", "RUN_FINISHED.outcome carries two interrupts carrying the id 'i-1'", false},
		"interrupt-no-id":     {user("interrupt-no-id"), "fail", "RUN_FINISHED.outcome.interrupts[0] needs an id and a reason", false},
		"interrupt-amnesia": {"turns: [{user: \"fault: interrupt-amnesia\"}, {resume: approve}]\n", "fail",
			"the agent sent RUN_ERROR: no pending interrupt 'i-1' on this thread (code unknown_interrupt)", false},
		"interrupt-ignored": {"turns: [{user: \"fault: interrupt-amnesia\"}, {user: \"hello?\"}]\n", "error",
			"turn[1]: an interrupt is pending: i-1 (tool_approval); answer it with a resume turn", false},
		"hook-exit": {"hooks: [{cmd: [sh, -c, 'echo \"cannot reach the db with ${ENV.ANANKE_FAULT_SECRET}\" >&2; exit 4']}]\n" + user("none"),
			"error", `exited with status 4; stderr: cannot reach the db with ***`, false},
		"hook-not-json": {"hooks: [{cmd: [echo, hello]}]\n" + user("none"), "error", "printed unusable output", false},
		"hook-huge":     {"hooks: [{cmd: [sh, -c, 'head -c 3000000 /dev/zero | tr \"\\\\0\" a']}]\n" + user("none"), "error", "stdout is larger than 1 MiB", false},
		"hook-hang-child": {"hooks: [{cmd: [sh, -c, 'sleep 300 & echo $! > " + pidFile + "; wait'], timeout_ms: 300}]\n" + user("none"),
			"error", "timed out after 300ms (process group killed)", false},
	}
	return cases
}

// TestFaults runs a test per fault through `ananke run` (two suites: the
// stalls, ended by a short run timeout, and the rest, with one they never
// meet) and checks, per test, the exact status and message, that nothing
// passed by accident, and that each report directory is complete and
// valid.
func TestFaults(t *testing.T) {
	agent := aguitest.NewFaults(t)
	pidFile := filepath.Join(t.TempDir(), "hook-child.pid")
	cases := faultCases(pidFile)
	for _, f := range aguitest.Faults {
		if _, ok := cases[f]; !ok {
			t.Errorf("fault %s has no case", f)
		}
	}
	for _, stalls := range []bool{false, true} {
		timeout := map[bool]int{false: 120_000, true: 1500}[stalls]
		dir := t.TempDir()
		cfg := fmt.Sprintf("version: \"1.0\"\ntarget:\n  type: agui\n  endpoint: %q\n  agentId: faults\n  timeout_ms: %d\n  headers: {X-Key: \"${ENV.ANANKE_FAULT_SECRET}\"}\n", agent.Endpoint(), timeout)
		os.WriteFile(filepath.Join(dir, "ananke.config.yaml"), []byte(cfg), 0o644)
		n := 0
		for name, c := range cases {
			if c.stalls == stalls {
				os.WriteFile(filepath.Join(dir, name+".ananke.yaml"), []byte("version: \"1.0\"\nname: "+name+"\n"+c.body), 0o644)
				n++
			}
		}
		out := filepath.Join(dir, "out")
		start := time.Now()
		r := run(t, dir, map[string]string{"ANANKE_FAULT_SECRET": faultSecret}, "run", "--parallel", "8", "--report-dir", out)
		if want := map[bool]int{false: ExitFail, true: ExitError}[stalls]; r.code != want {
			t.Errorf("stalls=%v: exit %d; want %d", stalls, r.code, want)
		}
		summary := checkReportDir(t, out, n)
		for _, raw := range summary["tests"].([]any) {
			checkFault(t, raw.(map[string]any), cases)
		}
		all, _ := json.Marshal(summary)
		if strings.Contains(string(all)+r.out+r.errOut, faultSecret) {
			t.Error("a secret printed by a hook leaked into the report or the console")
		}
		t.Logf("stalls=%v: %d faults in %v", stalls, n, time.Since(start).Round(time.Millisecond))
	}
	if b, err := os.ReadFile(pidFile); err == nil {
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		if !gone(pid) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("the hung hook's child %d outlived its timeout", pid)
		}
	} else {
		t.Errorf("the hook-hang-child hook never ran: %v", err)
	}
}

// checkFault compares one test of summary.json with its case.
func checkFault(t *testing.T, tt map[string]any, cases map[string]faultCase) {
	t.Helper()
	name := tt["name"].(string)
	c := cases[name]
	got := status.Status(tt["status"].(string))
	text := fmt.Sprint(tt["reason"], " ", tt["detail"])
	for _, a := range tt["assertions"].([]any) {
		if a := a.(map[string]any); a["status"] == "fail" {
			text += " | " + a["message"].(string)
		}
	}
	if got != c.status || !strings.Contains(text, c.want) {
		t.Errorf("%s: %s %q; want %s containing %q", name, got, text, c.status, c.want)
	}
}

// TestUnreachable: connection refused and an unknown host are errors,
// quickly, with a complete report.
func TestUnreachable(t *testing.T) {
	for name, endpoint := range map[string]string{
		"refused": "http://" + freePort(t) + "/agent",
		"dns":     "http://no-such-agent.invalid/agent",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeSuite(t, dir, endpoint, "turns: [{user: hi}]\n")
			out := filepath.Join(dir, "out")
			r := run(t, dir, nil, "run", "--report-dir", out)
			summary := checkReportDir(t, out, 1)
			tt := summary["tests"].([]any)[0].(map[string]any)
			want := map[string]string{"refused": "connection refused", "dns": "no-such-agent.invalid"}[name]
			if r.code != ExitError || tt["status"] != "error" || !strings.Contains(tt["reason"].(string), want) {
				t.Errorf("exit %d, %v %v; want error containing %q", r.code, tt["status"], tt["reason"], want)
			}
		})
	}
}

// TestCancelStopsHooksAndServer: a cancelled run (SIGINT) kills a hook's
// whole process group and target.server's, and still reports.
func TestCancelStopsHooksAndServer(t *testing.T) {
	agent := aguitest.New(t, func(*aguitest.Request) aguitest.Response { return aguitest.Response{Hang: true} })
	dir := t.TempDir()
	hookPid, serverPid := filepath.Join(dir, "hook.pid"), filepath.Join(dir, "server.pid")
	cfg := fmt.Sprintf(`version: "1.0"
target:
  type: agui
  endpoint: %q
  agentId: a
  server:
    command: [sh, -c, 'sleep 300 & echo $! > %s; echo listening; wait']
    ready_log: listening
`, agent.Endpoint(), serverPid)
	os.WriteFile(filepath.Join(dir, "ananke.config.yaml"), []byte(cfg), 0o644)
	os.WriteFile(filepath.Join(dir, "a.ananke.yaml"), []byte(fmt.Sprintf(
		"version: \"1.0\"\nname: a\nhooks: [{cmd: [sh, -c, 'sleep 300 & echo $! > %s; wait']}]\nturns: [{user: hi}]\n", hookPid)), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { // cancel once the hook runs (a minute at most)
		defer cancel()
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if b, _ := os.ReadFile(hookPid); strings.HasSuffix(string(b), "\n") {
				return
			}
		}
	}()
	out := filepath.Join(dir, "out")
	ran := make(chan result, 1)
	go func() { ran <- runContext(ctx, t, dir, nil, "run", "--report-dir", out) }()
	var r result
	select {
	case r = <-ran:
	case <-time.After(2 * time.Minute):
		t.Fatal("the run had not stopped two minutes after it was cancelled")
	}
	if r.code != ExitError {
		t.Errorf("exit %d; want 2", r.code)
	}
	summary := checkReportDir(t, out, 1)
	if tt := summary["tests"].([]any)[0].(map[string]any); !strings.Contains(tt["reason"].(string), "cancelled") {
		t.Errorf("reason = %v", tt["reason"])
	}
	for what, f := range map[string]string{"hook": hookPid, "target.server": serverPid} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Errorf("%s never started: %v", what, err)
			continue
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		if !gone(pid) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("%s's child %d outlived the cancelled run", what, pid)
		}
	}
}

// gone waits for pid to be gone: a killed process goes at once, so a
// minute means it was not killed.
func gone(pid int) bool {
	for deadline := time.Now().Add(time.Minute); processAlive(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// processAlive reports whether pid exists and is not a zombie (this
// sandbox's init does not reap orphans).
func processAlive(pid int) bool {
	if pid <= 0 || syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	return err == nil && !strings.Contains(string(stat), ") Z ")
}
