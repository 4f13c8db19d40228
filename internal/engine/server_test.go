package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ananke/action/internal/agui/aguitest"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/target/registry"
)

// serverConfig is a target.server block running a shell script, given
// timeoutMs to be ready.
func serverConfig(script string, timeoutMs int, extra string) string {
	return fmt.Sprintf("  server:\n    command: [\"sh\", \"-c\", %q]\n    timeout_ms: %d\n%s", script, timeoutMs, extra)
}

// alive reports whether pid exists and is not a zombie.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	return err == nil && !strings.Contains(string(stat), ") Z ")
}

func TestServer(t *testing.T) {
	agent := aguitest.New(t, textAgent)
	pidDir := t.TempDir()
	pidFile := filepath.Join(pidDir, "child.pid")
	// A server that becomes ready has a minute, which only a hang uses up;
	// the one that never does is ended by its 2 s.
	const ready, never = 60_000, 2000
	tests := []struct {
		name    string
		script  string
		timeout int
		extra   string
		status  status.Status
		want    string
	}{
		{"ready by log line", "sleep 300 & echo $! > " + pidFile + "; echo booting; echo 'listening on :1'; wait", ready, "    ready_log: \"listening on\"\n", status.Pass, ""},
		{"ready by url", "sleep 300 & echo $! > " + pidFile + "; wait", ready, "    ready_url: \"" + agent.URL + "/health\"\n", status.Pass, ""},
		{"exits before ready", "echo 'fatal: port in use' >&2; exit 3", ready, "    ready_log: \"listening\"\n", status.Error,
			"target.server exited before it was ready (exit status 3); its last output:\n    fatal: port in use"},
		{"never ready", "echo still booting; sleep 300", never, "    ready_log: \"listening\"\n", status.Error,
			"target.server did not print a line matching `listening` within 2s; its last output:\n    still booting"},
		{"reused when the endpoint answers", "exit 1", ready, "    reuse_existing: true\n", status.Pass, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(pidFile)
			s := suite(t, agent.Endpoint(), serverConfig(tc.script, tc.timeout, tc.extra), map[string]string{"t": "turns: [{user: hi}]\n"})
			r := one(t, run(t, s))
			if r.Status != tc.status || !strings.Contains(r.Reason, tc.want) {
				t.Errorf("status %s %q; want %s containing %q", r.Status, r.Reason, tc.status, tc.want)
			}
			b, err := os.ReadFile(pidFile)
			if err != nil {
				return // this script starts no child
			}
			pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			for deadline := time.Now().Add(time.Minute); alive(pid) && time.Now().Before(deadline); {
				time.Sleep(20 * time.Millisecond)
			}
			if alive(pid) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Errorf("the server's child %d outlived the run", pid)
			}
		})
	}
}

// TestServerSecrets: what target.server reads from the environment is a
// secret of the run, masked like any other — its output can reach a
// test's reason.
func TestServerSecrets(t *testing.T) {
	const key = "sk-server-0123456789"
	agent := aguitest.New(t, textAgent)
	s := suite(t, agent.Endpoint(), serverConfig("echo \"bad key $SERVER_KEY\" >&2; exit 3", 60_000,
		"    ready_log: \"listening\"\n    env: {SERVER_KEY: \"${ENV.SERVER_KEY}\"}\n"), map[string]string{"t": "turns: [{user: hi}]\n"})
	out := engine.Run(context.Background(), engine.Options{Protocols: registry.Lookup, Suite: s, NewID: ids(), Env: os.Environ(),
		LookupEnv: func(k string) (string, bool) {
			if k == "SERVER_KEY" {
				return key, true
			}
			return os.LookupEnv(k)
		}})
	if r := out.Tests[0]; r.Status != status.Error || !strings.Contains(r.Reason, "bad key "+key) {
		t.Fatalf("status %s %q; want an error quoting the server's output", r.Status, r.Reason)
	}
	if !slices.Contains(out.Secrets, key) {
		t.Errorf("Outcome.Secrets = %q; want the server's key among them", out.Secrets)
	}
}
