//go:build unix

package mcp

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
	"time"

	"github.com/ananke/action/internal/proc"
)

// interopDir holds the pinned Node packages (testdata/interop/package.json).
const interopDir = "../../testdata/interop"

// readyTimeout bounds the start of server-everything's HTTP transports.
const readyTimeout = 30 * time.Second

var readyRE = regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+)\r?\n`)

// everything returns node and the entry point of
// @modelcontextprotocol/server-everything, failing the test when either is
// missing: the tests need the real server.
func everything(t *testing.T) (node, entry string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not installed (%v): the MCP tests run @modelcontextprotocol/server-everything", err)
	}
	entry, err = filepath.Abs(filepath.Join(interopDir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(entry); err != nil {
		t.Fatalf("server-everything is not installed (%v): run `npm ci` in testdata/interop", err)
	}
	return node, entry
}

// stdioOptions runs server-everything over stdio.
func stdioOptions(t *testing.T) Options {
	node, entry := everything(t)
	return Options{Transport: TransportStdio, Command: []string{node, entry, "stdio"}}
}

// startHTTP starts server-everything's transport mode ("streamableHttp"
// or "sse") on a free loopback port and returns its base URL; the server
// is stopped when the test ends.
func startHTTP(t *testing.T, mode string) string {
	t.Helper()
	node, entry := everything(t)
	preload, err := filepath.Abs(filepath.Join("testdata", "loopback.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "--import", preload, entry, mode)
	cmd.Env = append(os.Environ(), "PORT=0")
	proc.SetGroup(cmd)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start server-everything %s: %v", mode, err)
	}
	exited := make(chan struct{})
	t.Cleanup(func() {
		proc.Signal(cmd.Process, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(2 * time.Second):
			proc.Kill(cmd.Process)
			<-exited
		}
	})
	urls := make(chan string, 1)
	go func() {
		r := bufio.NewReader(stderr)
		for {
			line, err := r.ReadString('\n')
			if m := readyRE.FindStringSubmatch(line); m != nil {
				urls <- m[1]
				break
			}
			if err != nil {
				break
			}
		}
		io.Copy(io.Discard, r)
		cmd.Wait()
		close(exited)
	}()
	select {
	case u := <-urls:
		return u
	case <-exited:
		t.Fatalf("server-everything %s exited before it was ready", mode)
	case <-time.After(readyTimeout):
		t.Fatalf("server-everything %s printed no ready line within %v", mode, readyTimeout)
	}
	return ""
}
