package cli

import (
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	agentOnce sync.Once
	agentBin  string
	agentErr  error
)

// exampleAgent builds examples/agent once per test binary.
func exampleAgent(t *testing.T) string {
	t.Helper()
	agentOnce.Do(func() {
		dir, err := os.MkdirTemp("", "ananke-agent")
		if err != nil {
			agentErr = err
			return
		}
		agentBin = filepath.Join(dir, "agent")
		out, err := exec.Command("go", "build", "-o", agentBin, filepath.Join(repoRoot(), "examples", "agent")).CombinedOutput()
		if err != nil {
			agentErr = fmt.Errorf("build example agent: %v\n%s", err, out)
		}
	})
	if agentErr != nil {
		t.Fatal(agentErr)
	}
	return agentBin
}

func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// copySuite copies an example suite into a temp dir, pointing it at a free
// port and at the prebuilt example agent (instead of `go run`), so suites
// can run in parallel with other packages' tests.
func copySuite(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join(repoRoot(), "examples", name)
	dst := t.TempDir()
	addr := freePort(t)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s := string(b)
		if d.Name() == "ananke.config.yaml" {
			s = strings.NewReplacer(`"go", "run", "../agent"`, fmt.Sprintf("%q", exampleAgent(t)),
				"127.0.0.1:8765", addr, "127.0.0.1:8766", addr, "127.0.0.1:8767", addr, "127.0.0.1:8768", addr, "127.0.0.1:8769", addr,
				"127.0.0.1:8770", addr, "127.0.0.1:8771", addr).Replace(s)
		}
		out := filepath.Join(dst, strings.TrimPrefix(p, src))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		info, _ := d.Info()
		return os.WriteFile(out, []byte(s), info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestRunQuickstart runs the README's main job end to end.
func TestRunQuickstart(t *testing.T) {
	dir := copySuite(t, "quickstart")
	r := run(t, dir, nil, "run", "--report-dir", filepath.Join(dir, "out"))
	if r.code != ExitPass {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.out, r.errOut)
	}
	for _, want := range []string{"✓ weather in Paris uses the weather tool", "✓ a purchase confirmed through a client tool",
		"Tests: 6 total, 6 passed, 0 failed, 0 errored, 0 skipped (pass rate 100.0%)"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err != nil {
		t.Errorf("report directory: %v", err)
	}
}

// TestRunDatasets runs examples/datasets: a dataset and a test file with
// attachments, hooks around cases and the run, and script assertions.
func TestRunDatasets(t *testing.T) {
	dir := copySuite(t, "datasets")
	r := run(t, dir, nil, "run", "--report-dir", filepath.Join(dir, "out"))
	if r.code != ExitPass {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.out, r.errOut)
	}
	for _, want := range []string{"✓ receipt: Please file this receipt", "✓ a receipt and a photo in one message", "✓ cleanup: Find trail shoes",
		"Tests: 10 total, 9 passed, 0 failed, 0 errored, 1 skipped, 1 with warnings"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.out)
		}
	}
	plan := run(t, dir, nil, "run", "--dry-run")
	for _, want := range []string{"before_all[0]: hooks/seed.sh", "after[0]: hooks/cleanup.sh ${CUSTOMER}",
		`turn[0] "Please file this receipt" + [taxi-receipt.txt (text/plain, 34 bytes)]`, "[shop/receipt]  shop.ananke.jsonl:5",
		"`hooks/mentions.sh get_policy` exits 0  (turn[0].script[0])"} {
		if !strings.Contains(plan.out, want) {
			t.Errorf("the plan lacks %q:\n%s", want, plan.out)
		}
	}
}

// TestRunFailing: the failing example exits 1, and each test fails on the
// assertion it was written to break, with readable evidence.
func TestRunFailing(t *testing.T) {
	dir := copySuite(t, "failing")
	r := runWall(t, dir, nil, "run", "--report-dir", filepath.Join(dir, "out"))
	if r.code != ExitFail {
		t.Fatalf("exit %d; want 1\n%s%s", r.code, r.out, r.errOut)
	}
	for _, want := range []string{
		"wrong-city.ananke.yaml:9:13: expected `get_weather` with args_match.city `^Paris$` at least 1 time, saw 0;",
		`failed args_match.city: "London" does not match ` + "`^Paris$`",
		"declined.ananke.yaml:14:13: expected `charge_card` exactly 1 time, saw 0: `charge_card` was never called (calls in turn[0]: validate_cart, confirm_purchase)",
		"confirm_purchase {\"amount\":89.5} → no  (call ",
		"forbidden.ananke.yaml:6:14: `get_weather` is forbidden but was called 1 time",
		"crash.ananke.yaml:5:5: the agent sent RUN_ERROR: the agent crashed on purpose (code demo_crash)",
		"too-slow.ananke.yaml:8:26: turn[0] took ",
		"parallel-count.ananke.yaml:9:13: expected `get_price` exactly 1 time, saw 2",
		"Tests: 6 total, 0 passed, 6 failed, 0 errored, 0 skipped (pass rate 0.0%)",
	} {
		if !strings.Contains(r.out, want) {
			t.Errorf("stdout lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("stdout:\n%s", r.out)
	}
}

// TestRunUnreachable: an agent nobody listens for makes every test an
// error, exit 2.
func TestRunUnreachable(t *testing.T) {
	dir := t.TempDir()
	writeSuite(t, dir, "http://"+freePort(t)+"/agent", "turns: [{user: hi}]\n")
	r := run(t, dir, nil, "run", "--report-dir", filepath.Join(dir, "out"))
	if r.code != ExitError || !strings.Contains(r.out, "connection refused") || !strings.Contains(r.out, "! t (") {
		t.Errorf("exit %d; want 2 with the cause\n%s%s", r.code, r.out, r.errOut)
	}
}

// TestRunInvalid: an invalid file exits 3 and nothing is sent.
func TestRunInvalid(t *testing.T) {
	dir := t.TempDir()
	writeSuite(t, dir, "http://"+freePort(t)+"/agent", "turns: [{usr: hi}]\n")
	r := run(t, dir, nil, "run")
	if r.code != ExitInvalid || !strings.Contains(r.out, `t.ananke.yaml:3:10: unknown field "usr" in turns[0] (did you mean "user"?)`) {
		t.Errorf("exit %d; want 3 with the problem\n%s%s", r.code, r.out, r.errOut)
	}
}

// TestRunMissingEnv: a ${ENV.X} that is not set stops the run before
// anything is sent.
func TestRunMissingEnv(t *testing.T) {
	dir := t.TempDir()
	writeSuite(t, dir, "http://"+freePort(t)+"/agent", "turns: [{user: \"${ENV.ANANKE_NOT_SET}\"}]\n")
	r := run(t, dir, nil, "run")
	if r.code != ExitInvalid || !strings.Contains(r.errOut, "t.ananke.yaml:3:16: environment variable ANANKE_NOT_SET is not set") {
		t.Errorf("exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	if r := run(t, dir, nil, "run", "--parallel", "0"); r.code != ExitInvalid || !strings.Contains(r.errOut, "--parallel must be at least 1") {
		t.Errorf("--parallel 0: exit %d %q", r.code, r.errOut)
	}
}

func writeSuite(t *testing.T, dir, endpoint, turns string) {
	t.Helper()
	cfg := fmt.Sprintf("version: \"1.0\"\ntarget:\n  type: agui\n  endpoint: %q\n  agentId: a\n", endpoint)
	test := "version: \"1.0\"\nname: t\n" + turns
	for name, body := range map[string]string{"ananke.config.yaml": cfg, "t.ananke.yaml": test} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
