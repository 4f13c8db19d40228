//go:build unix

package a2a

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// The tests below run against a real A2A agent written with @a2a-js/sdk:
// testdata/interop/a2a-agent.mjs.

const agentReady = 30 * time.Second

var readyRE = regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+)\r?\n`)

// agent is a running a2a-agent.mjs.
type agent struct {
	url string
	cmd *exec.Cmd
}

// startAgent starts a2a-agent.mjs and returns its URL; it is killed when
// the test ends. Node and testdata/interop/node_modules are required.
func startAgent(t *testing.T, env ...string) *agent {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "interop"))
	if err != nil {
		t.Fatal(err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not installed (%v): the A2A tests run a real agent; install Node >= 20, then run `npm ci` in testdata/interop", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@a2a-js", "sdk")); err != nil {
		t.Fatalf("the A2A agent's packages are not installed (%v): run `npm ci` in testdata/interop", err)
	}
	out := &readyWriter{ready: make(chan string, 1)}
	cmd := exec.Command(node, "a2a-agent.mjs", "--port", "0")
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, out, out
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
			t.Errorf("kill a2a-agent.mjs: %v", err)
		}
		<-exited
	})
	select {
	case url := <-out.ready:
		return &agent{url: url, cmd: cmd}
	case err := <-exited:
		exited <- err
		t.Fatalf("a2a-agent.mjs exited before it was ready (%v):\n%s", err, out)
	case <-time.After(agentReady):
		t.Fatalf("a2a-agent.mjs printed no ready line within %v:\n%s", agentReady, out)
	}
	return nil
}

type readyWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	ready chan string
	sent  bool
}

func (w *readyWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if m := readyRE.FindSubmatch(w.buf.Bytes()); m != nil && !w.sent {
		w.sent = true
		w.ready <- string(m[1])
	}
	return len(p), nil
}

func (w *readyWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// conversation plays texts as the turns of one session and returns the
// trace and the session's source.
func conversation(t *testing.T, o Options, texts ...string) (*trace.Trace, trace.Source, []error) {
	t.Helper()
	s, err := Dial(t.Context(), o)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	defer s.Close()
	rec := trace.NewRecorder()
	var errs []error
	for i, text := range texts {
		rec.StartTurn(i, target.TurnUser, text, time.Now())
		errs = append(errs, s.Turn(t.Context(), target.Turn{Index: i, Type: target.TurnUser, Text: text}, rec))
		rec.EndTurn(time.Now(), nil)
	}
	return rec.Trace(), s.Source(), errs
}
