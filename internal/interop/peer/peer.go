//go:build unix

// Package peer starts the real protocol peers of testdata/interop (Node
// servers from npm, pinned by its lock file) for tests: each in its own
// process group, ready once it prints "listening on http://127.0.0.1:PORT",
// killed with its children when the test ends.
package peer

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// readyTimeout bounds a peer's start; node's first start can be slow on a
// loaded machine (LangGraph's API server loads some 400 modules). No test
// asserts on time.
const readyTimeout = 2 * time.Minute

// readyRE matches the line every peer prints when it accepts connections
// (the example agent adds its path).
var readyRE = regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+)(?:/agent)?\r?\n`)

// Dir is testdata/interop, where the peers and their node_modules are.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "interop")
}

// Node returns node's path, failing the test when node or the package need
// (a path under node_modules) is missing: the tests need the real peers,
// never a skip.
func Node(t testing.TB, need string) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not installed (%v): the tests run real peers from testdata/interop; install Node >= 20, then run `npm ci` there", err)
	}
	if _, err := os.Stat(filepath.Join(Dir(), "node_modules", need)); err != nil {
		t.Fatalf("%s is not installed (%v): run `npm ci` in testdata/interop (bash .ci/run does)", need, err)
	}
	return node
}

// Peer is a running peer.
type Peer struct {
	URL string
	Cmd *exec.Cmd
}

// Start runs argv in dir with env added to the environment and returns the
// peer once it is ready, or an error saying why it is not, with its output.
func Start(t testing.TB, dir string, env []string, argv ...string) (*Peer, error) {
	out := &readyWriter{ready: make(chan string, 1)}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, out, out
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	name := peerName(argv)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		// The negative pid names the whole group: node and anything it spawned.
		if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
			t.Errorf("kill %s: %v", name, err)
		}
		<-exited
	})
	timer := time.NewTimer(readyTimeout)
	defer timer.Stop()
	select {
	case url := <-out.ready:
		return &Peer{URL: url, Cmd: cmd}, nil
	case err := <-exited:
		exited <- err // for the cleanup
		return nil, fmt.Errorf("%s exited before it was ready (%v):\n%s", name, err, out)
	case <-timer.C:
		return nil, fmt.Errorf("%s printed no ready line within %v:\n%s", name, readyTimeout, out)
	}
}

// peerName names a peer in messages: its script (node's first operand) or
// its program.
func peerName(argv []string) string {
	for i := 1; i < len(argv); i++ {
		switch a := argv[i]; {
		case a == "--import":
			i++ // its module
		case !strings.HasPrefix(a, "-"):
			return filepath.Base(a)
		}
	}
	return filepath.Base(argv[0])
}

// MustStart is Start failing the test.
func MustStart(t testing.TB, dir string, env []string, argv ...string) *Peer {
	t.Helper()
	p, err := Start(t, dir, env, argv...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// readyWriter keeps a peer's output and reports the URL of its ready line.
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

// GoBuild builds the Go peer in testdata/interop/dir — a module of its own,
// so that Ananke's go.mod does not grow with the peer's dependencies (the
// go command downloads them through the module proxy on the first build) —
// and returns the path of its binary, in the test's temporary directory.
func GoBuild(t testing.TB, dir string) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is not installed (%v): the Go peers of testdata/interop are built with it", err)
	}
	bin := filepath.Join(t.TempDir(), filepath.Base(dir))
	cmd := exec.Command(gobin, "build", "-o", bin, ".")
	cmd.Dir = filepath.Join(Dir(), dir)
	// The peer's own go.mod, whatever workspace the tests run in.
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build the peer in testdata/interop/%s: %v\n%s", dir, err, out)
	}
	return bin
}
