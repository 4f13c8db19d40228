package hooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/ananke/action/internal/deadline"
	"github.com/ananke/action/internal/proc"
)

// Command is one hook to run.
type Command struct {
	Argv    []string      // program and arguments; Argv[0] is looked up in PATH (exec.LookPath semantics, relative to Dir when it contains a slash)
	Dir     string        // working directory
	Env     []string      // complete environment, KEY=VALUE
	Timeout time.Duration // > 0
	// Stdin, when non-nil, is written to the command's standard input
	// (otherwise it reads from the null device). A command need not read
	// it: one that exits without reading all of it is not an error.
	Stdin []byte
	// Label is what the command is called in error messages: "hook" when
	// empty; a script assertion passes "script".
	Label string
	// after is how Timeout is waited for (nil: the context's own
	// timer): a test ends the wait once the command has done what it
	// must do first, not when a busy machine's clock says so.
	after deadline.After
}

// Output is how a command ended when its exit status can judge it.
type Output struct {
	// Stdout is what the command printed, at most 1 MiB (more is an
	// *Error of KindOutput).
	Stdout []byte
	// Stderr is the last <= 4 KiB of stderr, as in Error.Stderr.
	Stderr string
	// ExitCode is the exit status; -1 when the command did not exit on
	// its own (then Exec also returns an *Error).
	ExitCode int
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

// Run runs the command and returns the variables its stdout defines. The
// command must exit with status 0 and print one JSON object (see the
// package comment).
//
// Failures of the hook are returned as *Error. Run holds no shared state and
// is safe to call from many goroutines at once.
func Run(ctx context.Context, c Command) (map[string]string, error) {
	out, err := execute(ctx, c, true)
	if err != nil {
		return nil, err
	}
	if out.ExitCode != 0 {
		return nil, StatusError(c, out)
	}
	vars, detail := parseVars(out.Stdout)
	if detail != "" {
		return nil, c.error(&Error{Kind: KindOutput, Detail: detail}, out.Stderr)
	}
	return vars, nil
}

// RunAfter runs a command for its effect alone, such as a hook run after a
// test: it must exit with status 0, and whatever it prints on stdout is
// discarded (never parsed, never limited). Failures are *Error, as for Run.
func RunAfter(ctx context.Context, c Command) error {
	out, err := execute(ctx, c, false)
	if err != nil {
		return err
	}
	if out.ExitCode != 0 {
		return StatusError(c, out)
	}
	return nil
}

// Exec runs the command as Run does (same lookup, process group, timeout
// and output limits) but leaves judging its exit status and stdout to the
// caller: a command that exits on its own, with any status, gives a nil
// error and the status in Output.ExitCode.
//
// It returns an *Error only when the exit status cannot judge the command:
// it could not start (KindStart), ran past its timeout (KindTimeout), was
// cancelled (KindCancelled), printed more than 1 MiB on stdout
// (KindOutput), or was killed by a signal (KindExit, ExitCode -1). The
// Output then holds what was captured so far, with ExitCode -1. A Timeout
// that is not positive is a caller's mistake, returned as a plain error.
func Exec(ctx context.Context, c Command) (Output, error) {
	return execute(ctx, c, true)
}

// StatusError is the *Error (KindExit) that Run and RunAfter return for a
// command that exited with out.ExitCode other than 0: its message names
// the command and the status and quotes the end of out.Stderr.
func StatusError(c Command, out Output) *Error {
	return c.error(&Error{Kind: KindExit, ExitCode: out.ExitCode}, out.Stderr)
}

// error completes e with what the command's messages need.
func (c Command) error(e *Error, stderr string) *Error {
	e.name, e.label, e.timeout = commandName(c.Argv), c.Label, c.Timeout
	e.Stderr = stderr
	return e
}

// execute is the one code path of Run, RunAfter and Exec. With keepStdout
// false the command's stdout is the null device.
func execute(ctx context.Context, c Command, keepStdout bool) (Output, error) {
	failed := Output{ExitCode: -1}
	if c.Timeout <= 0 {
		return failed, fmt.Errorf("run %s %q: timeout must be positive, got %v", c.label(), commandName(c.Argv), c.Timeout)
	}
	startErr := func(kind Kind, detail string) (Output, error) {
		return failed, c.error(&Error{Kind: kind, Detail: detail}, "")
	}
	if len(c.Argv) == 0 || c.Argv[0] == "" {
		return startErr(KindStart, "the command is empty")
	}
	if ctx.Err() != nil {
		return startErr(KindCancelled, "")
	}
	// A missing Dir would otherwise surface as a misleading
	// "fork/exec /usr/bin/bash: no such file or directory".
	if err := checkDir(c.Dir); err != nil {
		return startErr(KindStart, err.Error())
	}
	path, err := lookPath(c.Argv[0], c.Env)
	if err != nil {
		return startErr(KindStart, err.Error())
	}

	// overflowCtx is cancelled when stdout passes its limit; runCtx adds the
	// timeout. Cancelling either kills the process group (cmd.Cancel).
	overflowCtx, stopOverflow := context.WithCancelCause(ctx)
	defer stopOverflow(nil)
	runCtx, stopTimeout := deadline.WithTimeoutCause(overflowCtx, c.Timeout, errTimedOut, c.after)
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
	if c.Stdin != nil {
		// os/exec copies it in a goroutine and ignores EPIPE, so a command
		// that exits without reading it is fine; one that leaves a
		// background child holding the pipe is cut off by WaitDelay.
		cmd.Stdin = bytes.NewReader(c.Stdin)
	}
	if keepStdout {
		cmd.Stdout = stdout
	}
	cmd.Stderr = stderr
	proc.SetGroup(cmd)
	cmd.Cancel = func() error { return proc.Kill(cmd.Process) }
	cmd.WaitDelay = waitDelay

	if err := cmd.Start(); err != nil {
		if ctx.Err() != nil {
			return startErr(KindCancelled, "")
		}
		return startErr(KindStart, err.Error())
	}
	waitErr := cmd.Wait()

	out := Output{Stdout: stdout.buf, Stderr: stderr.String()}
	code, e := classify(ctx, runCtx, cmd, waitErr, stdout.overflow)
	if e != nil {
		out.ExitCode = -1
		return out, c.error(e, out.Stderr)
	}
	out.ExitCode = code
	return out, nil
}

// label is what the command is called in messages.
func (c Command) label() string {
	if c.Label == "" {
		return defaultLabel
	}
	return c.Label
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

// classify turns how the command ended into its exit status, or an *Error
// when the exit status cannot judge it. The order matters: an overflow or
// our timeout kill the command, so they win over the exit status the kill
// produced.
func classify(ctx, runCtx context.Context, cmd *exec.Cmd, waitErr error, overflow bool) (int, *Error) {
	switch {
	case overflow:
		return -1, &Error{Kind: KindOutput, Detail: fmt.Sprintf("stdout is larger than %d MiB", maxStdout>>20)}
	case waitErr == nil:
		return 0, nil
	case errors.Is(waitErr, exec.ErrWaitDelay) && cmd.ProcessState != nil && cmd.ProcessState.Success():
		// The command exited successfully but left a background process
		// holding stdout; what it printed before exiting is its output.
		return 0, nil
	case errors.Is(context.Cause(runCtx), errTimedOut):
		return -1, &Error{Kind: KindTimeout}
	case ctx.Err() != nil:
		return -1, &Error{Kind: KindCancelled}
	}
	var exitErr *exec.ExitError
	if errors.As(waitErr, &exitErr) {
		if code := exitErr.ExitCode(); code >= 0 {
			return code, nil
		}
		// Killed by a signal: ProcessState says which, e.g. "signal: killed".
		return -1, &Error{Kind: KindExit, ExitCode: -1, Detail: exitErr.ProcessState.String()}
	}
	return -1, &Error{Kind: KindExit, ExitCode: -1, Detail: waitErr.Error()}
}
