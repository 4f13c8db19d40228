package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ananke/action/internal/agui/aguitest"
	"github.com/ananke/action/schema"
)

// checkReportDir verifies a report directory is complete and valid:
// summary.json matches its schema, junit.xml matches junit-10.xsd, and
// every test has its result and trace files.
func checkReportDir(t *testing.T, dir string, tests int) map[string]any {
	t.Helper()
	raw := validateReportFiles(t, dir)
	files, _ := filepath.Glob(filepath.Join(dir, "tests", "*.json"))
	if len(files) != 2*tests {
		t.Errorf("%d files in tests/; want %d", len(files), 2*tests)
	}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if !json.Valid(b) {
			t.Errorf("%s is not valid JSON", f)
		}
	}
	var summary map[string]any
	json.Unmarshal(raw, &summary)
	return summary
}

// validateReportFiles checks summary.json against its schema and junit.xml
// against junit-10.xsd, and returns summary.json.
func validateReportFiles(t *testing.T, dir string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatalf("summary.json: %v", err)
	}
	doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(schema.Report))
	c := jsonschema.NewCompiler()
	c.AddResource("report.json", doc)
	sch, err := c.Compile("report.json")
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("summary.json is not JSON: %v", err)
	}
	if err := sch.Validate(v); err != nil {
		t.Errorf("summary.json: %v", err)
	}
	xsd := filepath.Join(repoRoot(), "testdata", "junit", "junit-10.xsd")
	if out, err := exec.Command("xmllint", "--noout", "--schema", xsd, filepath.Join(dir, "junit.xml")).CombinedOutput(); err != nil {
		t.Errorf("junit.xml: %v\n%s", err, out)
	}
	return raw
}

func TestRunReportFiles(t *testing.T) {
	dir := copySuite(t, "failing")
	out := filepath.Join(dir, "out")
	md := filepath.Join(dir, "summary.md")
	if r := runWall(t, dir, nil, "run", "--report-dir", out, "--summary", md); r.code != ExitFail {
		t.Fatalf("exit %d", r.code)
	}
	b, err := os.ReadFile(md)
	if err != nil || !strings.Contains(string(b), "### ✗ Ananke: 6 failed of 6 tests") || !strings.Contains(string(b), "wrong-city.ananke.yaml:9") {
		t.Errorf("summary.md (%v):\n%s", err, b)
	}
	summary := checkReportDir(t, out, 6)
	if totals := summary["totals"].(map[string]any); totals["failed"] != 6.0 {
		t.Errorf("totals = %v", totals)
	}
}

// TestSecretsNeverLeak: a secret from the environment, used in a header and
// in a user message, and echoed back by the agent in text, tool arguments
// and results, appears in no byte of any report file nor on the console.
func TestSecretsNeverLeak(t *testing.T) {
	const secret = "sk-test-9f8e7d6c5b4a"
	agent := aguitest.New(t, func(r *aguitest.Request) aguitest.Response {
		user, _ := r.Input.Messages[len(r.Input.Messages)-1].TextContent()
		auth := r.Header.Get("Authorization")
		return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Seq(
			aguitest.Call("c1", "lookup", `{"token":"`+auth+`"}`, "looked up "+user),
			aguitest.Text("m1", "you said "+user+" with "+auth),
		)...)}
	})
	dir := t.TempDir()
	cfg := "version: \"1.0\"\ntarget:\n  type: agui\n  endpoint: \"" + agent.Endpoint() + "\"\n  agentId: a\n  headers:\n    Authorization: \"Bearer ${ENV.ANANKE_SECRET}\"\n"
	test := "version: \"1.0\"\nname: leak\nturns:\n  - user: \"my key is ${ENV.ANANKE_SECRET}\"\n    assert:\n      text: {must_match: \"nope\"}\n"
	os.WriteFile(filepath.Join(dir, "ananke.config.yaml"), []byte(cfg), 0o644)
	os.WriteFile(filepath.Join(dir, "t.ananke.yaml"), []byte(test), 0o644)
	out := filepath.Join(dir, "out")
	r := run(t, dir, map[string]string{"ANANKE_SECRET": secret}, "run", "-v", "--report-dir", out)
	if r.code != ExitFail {
		t.Fatalf("exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	if !strings.Contains(agent.Requests()[0].Header.Get("Authorization"), secret) {
		t.Fatal("the agent did not receive the secret; the test proves nothing")
	}
	if strings.Contains(r.out+r.errOut, secret) {
		t.Errorf("the console shows the secret:\n%s", r.out)
	}
	masks := 0
	filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := os.ReadFile(p)
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("%s contains the secret", p)
		}
		masks += bytes.Count(b, []byte("***"))
		return nil
	})
	if masks == 0 {
		t.Error("no file shows a mask; the secret never reached the report")
	}
}

// TestInterruptedRunStillReports: cancelling a run (what SIGINT does) stops
// the run in flight, marks unfinished tests as errors and still writes a
// complete, valid report directory.
func TestInterruptedRunStillReports(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	agent := aguitest.New(t, func(*aguitest.Request) aguitest.Response {
		cancel() // a run is in flight
		return aguitest.Response{Hang: true}
	})
	dir := t.TempDir()
	writeSuite(t, dir, agent.Endpoint(), "turns: [{user: hi}]\n")
	os.WriteFile(filepath.Join(dir, "u.ananke.yaml"), []byte("version: \"1.0\"\nname: u\nturns: [{user: hi}]\n"), 0o644)
	out := filepath.Join(dir, "out")
	r := runContext(ctx, t, dir, nil, "run", "--report-dir", out)
	if r.code != ExitError {
		t.Fatalf("exit %d; want 2\n%s%s", r.code, r.out, r.errOut)
	}
	summary := checkReportDir(t, out, 2)
	for _, tt := range summary["tests"].([]any) {
		m := tt.(map[string]any)
		if m["status"] != "error" || !strings.Contains(m["reason"].(string), "cancelled") {
			t.Errorf("%s: %v %v; want error (cancelled)", m["id"], m["status"], m["reason"])
		}
	}
}

// TestSIGINT sends a real SIGINT to the built binary mid-run: it must exit
// non-zero with a complete report; a second signal exits at once.
func TestSIGINT(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT on windows")
	}
	bin := filepath.Join(t.TempDir(), "ananke")
	if out, err := exec.Command("go", "build", "-o", bin, repoRoot()).CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	requested := make(chan struct{}, 1)
	agent := aguitest.New(t, func(*aguitest.Request) aguitest.Response {
		select {
		case requested <- struct{}{}:
		default:
		}
		return aguitest.Response{Hang: true}
	})
	dir := t.TempDir()
	writeSuite(t, dir, agent.Endpoint(), "turns: [{user: hi}]\n")
	for _, second := range []bool{false, true} {
		out := filepath.Join(dir, "out")
		os.RemoveAll(out)
		cmd := exec.Command(bin, "run", "--report-dir", out)
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Signal once the run is in flight: by then ananke handles SIGINT.
		select {
		case <-requested:
		case <-time.After(time.Minute):
			cmd.Process.Kill()
			t.Fatalf("no request reached the agent within a minute\n%s", stderr.String())
		}
		cmd.Process.Signal(syscall.SIGINT)
		if second {
			time.Sleep(10 * time.Millisecond)
			cmd.Process.Signal(syscall.SIGINT)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(time.Minute):
			cmd.Process.Kill()
			t.Fatal("ananke had not stopped a minute after SIGINT")
		}
		code := cmd.ProcessState.ExitCode()
		switch {
		case !second && code != ExitError:
			t.Errorf("exit %d after one SIGINT; want 2\n%s", code, stderr.String())
		case !second:
			checkReportDir(t, out, 1)
		case second && code != exitInterrupted && code != ExitError:
			t.Errorf("exit %d after two SIGINTs; want %d (or 2 if the report was already done)", code, exitInterrupted)
		}
	}
}
