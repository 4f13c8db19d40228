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

// readPid polls pidFile until the hook has written a pid to it (a minute
// at most: a hook that never does is broken, not slow), and makes sure that
// process is killed when the test ends whatever happens.
func readPid(t *testing.T, pidFile string) int {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
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

// assertGone fails unless process pid disappears: a killed process goes
// at once, so a minute means it was not killed.
func assertGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
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
	// It times out once the grandchild's pid is written, whenever a busy
	// machine gets there.
	c.after = expireWhen(t, func() bool {
		b, err := os.ReadFile(pidFile)
		return err == nil && strings.HasSuffix(string(b), "\n")
	}, new([]time.Duration))
	vars, err := Run(t.Context(), c)
	checkError(t, c, vars, err, KindTimeout) // not the sleep's own end
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
	case <-time.After(time.Minute):
		t.Fatal("Run had not returned a minute after ctx was cancelled")
	}
	assertGone(t, pid)
}

// A hook that exits successfully but leaves a background child holding
// stdout must not make Run wait for that child: Run returns before the
// child (a minute's sleep, then a marker file) ends.
func TestRunDoesNotWaitForBackgroundChild(t *testing.T) {
	c, ended := heldByChild(t, `echo '{"A": "1"}'`)
	vars, err := Run(t.Context(), c)
	if _, statErr := os.Stat(ended); statErr == nil {
		t.Error("Run returned only once the background child had ended")
	}
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if vars["A"] != "1" {
		t.Errorf("Run = %v, want A=1", vars)
	}
}

// heldByChild is a hook that runs script after starting a background
// child that holds its stdin and stdout for a minute, then writes the
// returned file and ends. The child's process group is killed when the
// test ends.
func heldByChild(t *testing.T, script string) (Command, string) {
	t.Helper()
	c := bash(t, `bash -c 'sleep 60; touch "$0"' "$1.ended" <&0 & echo $! > "$1"; `+script)
	pidFile := filepath.Join(c.Dir, "pid")
	c.Argv = append(c.Argv, pidFile)
	c.Timeout = 2 * time.Minute // the child's end, not the timeout, would end a wait for it
	t.Cleanup(func() {
		b, _ := os.ReadFile(pidFile)
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			return
		}
		if pg, err := syscall.Getpgid(pid); err == nil && pg != syscall.Getpgrp() {
			_ = syscall.Kill(-pg, syscall.SIGKILL)
		}
	})
	return c, pidFile + ".ended"
}

// A background child holding a large, unread stdin must not make Exec wait
// for it: the pipe is cut off WaitDelay after the command exits, and Exec
// returns before the child ends.
func TestExecStdinHeldByBackgroundChild(t *testing.T) {
	c, ended := heldByChild(t, `echo done`)
	c.Stdin = mib
	out, err := Exec(t.Context(), c)
	if _, statErr := os.Stat(ended); statErr == nil {
		t.Error("Exec returned only once the background child had ended")
	}
	if err != nil {
		t.Fatalf("Exec: %v", err)
	}
	if out.ExitCode != 0 || string(out.Stdout) != "done\n" {
		t.Errorf("Exec = %d, %q; want 0, %q", out.ExitCode, out.Stdout, "done\n")
	}
}
