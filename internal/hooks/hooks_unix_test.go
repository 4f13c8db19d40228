//go:build unix

package hooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// grandchildHook is a hook whose bash starts a background sleep (a
// grandchild of Run when bash forks), records its pid and waits for it.
func grandchildHook(t *testing.T) (Command, string) {
	t.Helper()
	c := bash(t, `sleep 300 & echo $! > "$1"; wait`)
	pidFile := filepath.Join(c.Dir, "pid")
	c.Argv = append(c.Argv, pidFile)
	return c, pidFile
}

// readPid polls pidFile until the hook has written a pid to it, and makes
// sure that process is killed when the test ends whatever happens.
func readPid(t *testing.T, pidFile string) int {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		b, err := os.ReadFile(pidFile)
		if s := strings.TrimSpace(string(b)); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, err := strconv.Atoi(s)
			if err != nil {
				t.Fatalf("pid file %q: %v", b, err)
			}
			t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("hook did not write %s", pidFile)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// assertGone fails unless process pid disappears within 2 s.
func assertGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for !processGone(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("grandchild %d is still running after Run returned", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// processGone reports whether pid no longer runs. A killed orphan stays a
// zombie until PID 1 reaps it, and some container inits never do; a zombie
// counts as gone.
func processGone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)) // Linux only; elsewhere rely on ESRCH
	if err != nil {
		return false
	}
	// "pid (comm) state ...": comm may contain spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	return i >= 0 && i+2 < len(b) && b[i+2] == 'Z'
}

func TestRunTimeoutKillsProcessGroup(t *testing.T) {
	c, pidFile := grandchildHook(t)
	c.Timeout = 300 * time.Millisecond
	start := time.Now()
	vars, err := Run(t.Context(), c)
	elapsed := time.Since(start)
	checkError(t, c, vars, err, KindTimeout)
	if limit := c.Timeout + time.Second; elapsed > limit {
		t.Errorf("Run took %v, want <= %v", elapsed, limit)
	}
	assertGone(t, readPid(t, pidFile))
}

func TestRunCancelKillsProcessGroup(t *testing.T) {
	c, pidFile := grandchildHook(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	type result struct {
		vars map[string]string
		err  error
	}
	done := make(chan result, 1)
	go func() {
		vars, err := Run(ctx, c)
		done <- result{vars, err}
	}()
	pid := readPid(t, pidFile) // the hook is running
	cancel()
	select {
	case r := <-done:
		checkError(t, c, r.vars, r.err, KindCancelled)
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after ctx was cancelled")
	}
	assertGone(t, pid)
}

// A hook that exits successfully but leaves a background child holding
// stdout must not make Run wait for that child.
func TestRunDoesNotWaitForBackgroundChild(t *testing.T) {
	c := bash(t, `sleep 30 & echo $! > "$1"; echo '{"A": "1"}'`)
	pidFile := filepath.Join(c.Dir, "pid")
	c.Argv = append(c.Argv, pidFile)
	start := time.Now()
	vars, err := Run(t.Context(), c)
	elapsed := time.Since(start)
	readPid(t, pidFile) // killed at cleanup
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if vars["A"] != "1" {
		t.Errorf("Run = %v, want A=1", vars)
	}
	if limit := waitDelay + 2*time.Second; elapsed > limit {
		t.Errorf("Run took %v, want <= %v", elapsed, limit)
	}
}

// A background child holding a large, unread stdin must not make Exec wait
// for it: the pipe is cut off WaitDelay after the command exits.
func TestExecStdinHeldByBackgroundChild(t *testing.T) {
	c := bash(t, `sleep 30 & echo $! > "$1"; echo done`)
	pidFile := filepath.Join(c.Dir, "pid")
	c.Argv = append(c.Argv, pidFile)
	c.Stdin = mib
	start := time.Now()
	out, err := Exec(t.Context(), c)
	elapsed := time.Since(start)
	readPid(t, pidFile) // killed at cleanup
	if err != nil {
		t.Fatalf("Exec: %v", err)
	}
	if out.ExitCode != 0 || string(out.Stdout) != "done\n" {
		t.Errorf("Exec = %d, %q; want 0, %q", out.ExitCode, out.Stdout, "done\n")
	}
	if limit := waitDelay + 2*time.Second; elapsed > limit {
		t.Errorf("Exec took %v, want <= %v", elapsed, limit)
	}
}
