package hooks

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/ananke/action/internal/proc"
)

// Command is one hook to run.
type Command struct {
	Argv    []string      // program and arguments; Argv[0] is looked up in PATH (exec.LookPath semantics, relative to Dir when it contains a slash)
	Dir     string        // working directory
	Env     []string      // complete environment, KEY=VALUE
	Timeout time.Duration // > 0
}

// waitDelay bounds how long Run waits for the hook's stdout and stderr to
// close once the hook has exited or been killed. Without it a grandchild that
// escaped the process group (or a background child left running by a hook
// that exited successfully) would keep the pipes open and Run would hang.
const waitDelay = 500 * time.Millisecond

var (
	// errTimedOut is the cause of the context Run cancels when Timeout
	// elapses; it tells our timeout apart from the caller's cancellation.
	errTimedOut = errors.New("hook timed out")
	// errStdoutTooLarge is the cause of the context Run cancels when stdout
	// passes maxStdout: there is no point letting the hook run on.
	errStdoutTooLarge = errors.New("hook stdout too large")
)

// Run runs the command and returns the variables its stdout defines.
//
// Failures of the hook are returned as *Error. Run holds no shared state and
// is safe to call from many goroutines at once.
func Run(ctx context.Context, c Command) (map[string]string, error) {
	if c.Timeout <= 0 {
		return nil, fmt.Errorf("run hook %q: timeout must be positive, got %v", commandName(c.Argv), c.Timeout)
	}
	hookErr := func(kind Kind, detail string) *Error {
		return &Error{Kind: kind, Detail: detail, name: commandName(c.Argv), timeout: c.Timeout}
	}
	if len(c.Argv) == 0 || c.Argv[0] == "" {
		return nil, hookErr(KindStart, "the command is empty")
	}
	if ctx.Err() != nil {
		return nil, hookErr(KindCancelled, "")
	}
	// A missing Dir would otherwise surface as a misleading
	// "fork/exec /usr/bin/bash: no such file or directory".
	if err := checkDir(c.Dir); err != nil {
		return nil, hookErr(KindStart, err.Error())
	}
	path, err := lookPath(c.Argv[0], c.Env)
	if err != nil {
		return nil, hookErr(KindStart, err.Error())
	}

	// overflowCtx is cancelled when stdout passes its limit; runCtx adds the
	// timeout. Cancelling either kills the process group (cmd.Cancel).
	overflowCtx, stopOverflow := context.WithCancelCause(ctx)
	defer stopOverflow(nil)
	runCtx, stopTimeout := context.WithTimeoutCause(overflowCtx, c.Timeout, errTimedOut)
	defer stopTimeout()

	stdout := &limitedBuffer{max: maxStdout, onOverflow: func() { stopOverflow(errStdoutTooLarge) }}
	stderr := &tailBuffer{max: maxStderr}
	cmd := exec.CommandContext(runCtx, path)
	cmd.Args = c.Argv // $0 is what the user wrote, not the resolved path
	cmd.Dir = c.Dir
	cmd.Env = c.Env
	if cmd.Env == nil {
		// A nil Env would make os/exec use this process's environment; the
		// caller decides what the hook sees.
		cmd.Env = []string{}
	}
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	proc.SetGroup(cmd)
	cmd.Cancel = func() error { return proc.Kill(cmd.Process) }
	cmd.WaitDelay = waitDelay

	if err := cmd.Start(); err != nil {
		if ctx.Err() != nil {
			return nil, hookErr(KindCancelled, "")
		}
		return nil, hookErr(KindStart, err.Error())
	}
	waitErr := cmd.Wait()

	e := classify(ctx, runCtx, cmd, waitErr, stdout.overflow)
	if e == nil {
		vars, detail := parseVars(stdout.buf)
		if detail == "" {
			return vars, nil
		}
		e = &Error{Kind: KindOutput, Detail: detail}
	}
	e.name, e.timeout = commandName(c.Argv), c.Timeout
	e.Stderr = stderr.String()
	return nil, e
}

// checkDir reports why dir cannot be a working directory ("" means the
// current one).
func checkDir(dir string) error {
	if dir == "" {
		return nil
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("working directory: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("working directory %s is not a directory", dir)
	}
	return nil
}

// classify turns how the hook ended into an *Error, or nil when it exited
// successfully and its stdout should be parsed. The order matters: an
// overflow or our timeout kill the hook, so they win over the exit status
// the kill produced.
func classify(ctx, runCtx context.Context, cmd *exec.Cmd, waitErr error, overflow bool) *Error {
	switch {
	case overflow:
		return &Error{Kind: KindOutput, Detail: fmt.Sprintf("stdout is larger than %d MiB", maxStdout>>20)}
	case waitErr == nil:
		return nil
	case errors.Is(waitErr, exec.ErrWaitDelay) && cmd.ProcessState != nil && cmd.ProcessState.Success():
		// The hook exited successfully but left a background process
		// holding stdout; what it printed before exiting is its output.
		return nil
	case errors.Is(context.Cause(runCtx), errTimedOut):
		return &Error{Kind: KindTimeout}
	case ctx.Err() != nil:
		return &Error{Kind: KindCancelled}
	}
	var exitErr *exec.ExitError
	if errors.As(waitErr, &exitErr) {
		if code := exitErr.ExitCode(); code >= 0 {
			return &Error{Kind: KindExit, ExitCode: code}
		}
		// Killed by a signal: ProcessState says which, e.g. "signal: killed".
		return &Error{Kind: KindExit, ExitCode: -1, Detail: exitErr.ProcessState.String()}
	}
	return &Error{Kind: KindExit, ExitCode: -1, Detail: waitErr.Error()}
}
