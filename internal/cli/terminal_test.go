package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestIsTerminal: /dev/null is a character device but no terminal; pipes
// and files are neither. Only a terminal may be asked questions.
func TestIsTerminal(t *testing.T) {
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for name, f := range map[string]*os.File{os.DevNull: devNull, "a pipe": r, "a file": file} {
		if isTerminal(f) {
			t.Errorf("isTerminal(%s) = true; want false", name)
		}
	}
}

// TestInitStdinDevNull runs the built binary as a script does, stdin
// /dev/null: init asks nothing and writes the files (docs/init.md).
func TestInitStdinDevNull(t *testing.T) {
	dir := newRepo(t)
	cmd := exec.Command(filepath.Join(ananke(t), "ananke"), "init", "--no-probe", "--endpoint", "http://localhost:8000/agent")
	cmd.Dir = dir // cmd.Stdin nil: the null device
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if code := cmd.ProcessState.ExitCode(); err != nil || code != ExitPass {
		t.Fatalf("init </dev/null: exit %d (%v)\nstdout:\n%s\nstderr:\n%s", code, err, stdout.String(), stderr.String())
	}
	if strings.Contains(stderr.String(), "Agent id") {
		t.Errorf("init asked for the agent id with stdin /dev/null:\n%s", stderr.String())
	}
	if b, err := os.ReadFile(filepath.Join(dir, "ananke.config.yaml")); err != nil || !strings.Contains(string(b), `agentId: "my-agent"`) {
		t.Errorf("config: %v\n%s", err, b)
	}
}
