package mcp

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ananke/action/internal/proc"
)

// stopGrace is how long Close waits for a stdio server after closing its
// stdin (the MCP spec's way to end a stdio session), and again after
// SIGTERM, before it kills the server's process group.
const stopGrace = 2 * time.Second

// server is a stdio server's process.
type server struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *stderrTail
	exited chan struct{} // closed once the process has been waited for
	err    error         // how it exited, once exited is closed
	// hungUp is closed once the server closed its stdout, or its stdin
	// to a write: it is exiting.
	hungUp   chan struct{}
	hangUpMu sync.Once
	// after is time.After; tests see the waits through it.
	after func(time.Duration) <-chan time.Time
}

// startServer starts the command in its own process group and returns the
// SDK transport over its stdin and stdout, tapped into w.
func startServer(o *Options, w *wire) (*server, sdk.Transport, error) {
	cmd := exec.Command(o.Command[0], o.Command[1:]...)
	cmd.Dir = o.Dir
	if len(o.Env) > 0 {
		cmd.Env = append(cmd.Environ(), o.Env...)
	}
	proc.SetGroup(cmd)
	// A grandchild that keeps stderr open must not hold Wait.
	cmd.WaitDelay = stopGrace
	s := &server{cmd: cmd, stderr: &stderrTail{w: o.Stderr}, exited: make(chan struct{}), hungUp: make(chan struct{}), after: o.after}
	if s.after == nil {
		s.after = time.After
	}
	cmd.Stderr = s.stderr
	// stdout is a pipe of our own, not StdoutPipe: Wait would close that
	// one as soon as the process exits, losing its last unread messages.
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, nil, fmt.Errorf("mcp: start server: %w", err)
	}
	cmd.Stdout = pw
	stdin, err := cmd.StdinPipe()
	if err != nil {
		pr.Close()
		pw.Close()
		return nil, nil, fmt.Errorf("mcp: start server: %w", err)
	}
	err = cmd.Start()
	pw.Close()
	if err != nil {
		pr.Close()
		return nil, nil, fmt.Errorf("mcp: start server: %w", err)
	}
	s.stdin = stdin
	go func() {
		s.err = cmd.Wait()
		close(s.exited)
	}()
	t := &sdk.IOTransport{
		Reader: &tapReader{r: pr, tap: lineTap{fn: func(line []byte) { w.in(line) }}, eof: s.hangUp},
		Writer: &tapWriter{w: stdin, tap: lineTap{fn: w.out}, broken: s.hangUp},
	}
	return s, t, nil
}

// hangUp records that the server closed its stdout or its stdin.
func (s *server) hangUp() { s.hangUpMu.Do(func() { close(s.hungUp) }) }

// hungUpWait is how long a server that hung up is waited for. It is
// exiting, and its exit is reported once its stderr has been read to the
// end, however long a busy machine takes to get there; only a server that
// closed its pipes and lives on meets this bound.
const hungUpWait = time.Minute

// gone reports whether the server has exited: a server that hung up is
// waited for (hungUpWait at most), another one exitWait.
func (s *server) gone() bool {
	select {
	case <-s.hungUp:
		return s.exitedWithin(hungUpWait)
	default:
		return s.exitedWithin(exitWait)
	}
}

// exitedWithin reports whether the server has exited, waiting at most d.
func (s *server) exitedWithin(d time.Duration) bool {
	select {
	case <-s.exited:
		return true
	case <-s.after(d):
		return false
	}
}

// exit describes how the server exited, with its last stderr lines.
func (s *server) exit() string {
	how := "exit status 0"
	var ee *exec.ExitError
	switch {
	case errors.As(s.err, &ee):
		how = ee.String()
	case s.err != nil:
		how = s.err.Error()
	}
	return how + s.stderr.quote()
}

// stopNow stops a server that failed its handshake: it closes its stdin
// and asks its process group to stop at once, and kills it if it has not
// exited within exitWait — a server that did not answer in time is not
// waited for again.
func (s *server) stopNow() {
	s.stdin.Close()
	proc.Terminate(s.cmd.Process)
	s.exitedWithin(exitWait)
	proc.Kill(s.cmd.Process)
	<-s.exited
}

// stop closes the server's stdin, then asks its process group to stop,
// then kills it, waiting stopGrace between the steps.
func (s *server) stop() error {
	s.stdin.Close()
	if s.exitedWithin(stopGrace) {
		proc.Kill(s.cmd.Process) // what it started in the background
		return nil
	}
	proc.Terminate(s.cmd.Process)
	if !s.exitedWithin(stopGrace) {
		proc.Kill(s.cmd.Process)
		<-s.exited
		return fmt.Errorf("mcp: the server did not stop within %v of SIGTERM and was killed", stopGrace)
	}
	proc.Kill(s.cmd.Process)
	return nil
}
