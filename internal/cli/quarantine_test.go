package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/github/artifact/artifacttest"
	"github.com/ananke/action/internal/github/githubtest"
)

// quarantineSuite is the flaky example — its coin fails its first toss —
// with config appended to its config, and a quarantine file when file is
// set.
func quarantineSuite(t *testing.T, config, file string) string {
	t.Helper()
	dir := copySuite(t, "flaky")
	cfg := filepath.Join(dir, "ananke.config.yaml")
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, append(b, config...), 0o644); err != nil {
		t.Fatal(err)
	}
	if file != "" {
		os.MkdirAll(filepath.Join(dir, ".ananke"), 0o755)
		if err := os.WriteFile(filepath.Join(dir, ".ananke", "quarantine.yaml"), []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestRunQuarantined: a quarantined test that fails is reported as failed
// — on its line, in its tree, in the summary and the report's files — and
// the run passes: exit 0.
func TestRunQuarantined(t *testing.T) {
	dir := quarantineSuite(t, "quarantine_file: .ananke/quarantine.yaml\n",
		"quarantine:\n  - test: coin\n    reason: the coin is fair on purpose\n    until: 2999-12-31\n")
	out := filepath.Join(t.TempDir(), "report")
	r := run(t, dir, nil, "run", "--runs", "1", "--report-dir", out)
	stdout := plain(r.out)
	if r.code != ExitPass {
		t.Fatalf("exit %d, want 0: a quarantined failure fails nothing\n%s%s", r.code, r.out, r.errOut)
	}
	for _, want := range []string{
		"✗ the agent tosses the coin with its tool (",
		"· quarantined\n",
		"  quarantined: the coin is fair on purpose (until 2999-12-31, .ananke/quarantine.yaml:2); reported, never fails the run\n",
		"Tests: 1 total, 0 passed, 1 failed,",
		"Quarantined: 1 (1 failed, not failing the run)\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	var s struct {
		Status string `json:"status"`
		Tests  []struct {
			Status      string `json:"status"`
			Quarantined struct {
				Reason string `json:"reason"`
				Source struct {
					File string `json:"file"`
				} `json:"source"`
			} `json:"quarantined"`
		} `json:"tests"`
	}
	b := validateReportFiles(t, out)
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if s.Status != "pass" || s.Tests[0].Status != "fail" || s.Tests[0].Quarantined.Reason != "the coin is fair on purpose" ||
		s.Tests[0].Quarantined.Source.File != ".ananke/quarantine.yaml" {
		t.Errorf("summary.json: %+v", s)
	}
	junit, _ := os.ReadFile(filepath.Join(out, "junit.xml"))
	if !strings.Contains(string(junit), `type="quarantined"`) || strings.Contains(string(junit), "<failure") {
		t.Errorf("junit.xml:\n%s", junit)
	}
}

// TestValidateQuarantine: an entry past its date is a problem at its
// until: for validate and run alike, with every other problem at once,
// and nothing runs; an entry that matches no test is a warning, which
// fails nothing.
func TestValidateQuarantine(t *testing.T) {
	dir := quarantineSuite(t, "quarantine:\n  - {test: coin, reason: fair coin, until: 2000-01-31}\n  - {test: dice}\nquarantine_file: .ananke/quarantine.yaml\n",
		"quarantine:\n  - test: coin*\n    reason: still fair\n    until: 2001-02-28\n")
	want := []string{
		`ananke.config.yaml:26:5: quarantine[1] is missing required field "reason"`,
		`ananke.config.yaml:25:44: quarantine of "coin" expired on 2000-01-31 (today is `,
		`.ananke/quarantine.yaml:4:12: quarantine of "coin*" expired on 2001-02-28 (today is `,
		"3 problems found; nothing was run",
	}
	for _, args := range [][]string{{"validate"}, {"run", "--report-dir", filepath.Join(t.TempDir(), "report")}} {
		r := run(t, dir, nil, args...)
		got := r.out + r.errOut
		if r.code != ExitInvalid {
			t.Errorf("%s: exit %d, want 3\n%s", args[0], r.code, got)
		}
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: output lacks %q:\n%s", args[0], w, got)
			}
		}
	}
	ok := quarantineSuite(t, "quarantine:\n  - {test: coin, reason: fair coin}\n  - {test: dice, reason: gone}\n", "")
	r := run(t, ok, nil, "validate")
	if r.code != ExitPass || !strings.Contains(r.out, `ananke.config.yaml:26:12: warning: quarantine: "dice" matches no test; remove the entry`) {
		t.Errorf("exit %d, want 0 with a warning:\n%s%s", r.code, r.out, r.errOut)
	}
	if r := run(t, ok, nil, "validate", "coin.ananke.yaml"); r.code != ExitPass || strings.Contains(r.out, "warning") {
		t.Errorf("a path given: exit %d, want 0 and no warning:\n%s%s", r.code, r.out, r.errOut)
	}
}

// TestActionQuarantined: in the action, a quarantined failure leaves the
// step passing and the check run a success, its annotations warnings; the
// comment's Quarantined section names the test with its reason.
func TestActionQuarantined(t *testing.T) {
	gh, art := githubtest.New(t), artifacttest.New(t)
	dir := quarantineSuite(t, "quarantine:\n  - {test: coin, reason: the coin is fair on purpose}\n", "")
	env, output, _ := actionEnv(t, dir, "pull_request", prEvent, gh, art)
	env["INPUT_RUNS"] = "1"
	r := run(t, dir, env, "action")
	if r.code != ExitPass {
		t.Fatalf("exit %d, want 0\n%s%s", r.code, r.out, r.errOut)
	}
	runs := gh.CheckRuns()
	if len(runs) != 1 || runs[0].Conclusion != "success" || !strings.Contains(runs[0].Title, "1 quarantined test (1 failed, not failing the run)") {
		t.Fatalf("check runs %+v", runs)
	}
	for _, a := range runs[0].Annotations {
		if a.Level == "failure" {
			t.Errorf("a failure annotation: %+v", a)
		}
	}
	comments := gh.Comments(5)
	if len(comments) != 1 || !strings.Contains(comments[0].Body, "**Quarantined:** 1 test (1 failed, not failing the run)") ||
		!strings.Contains(comments[0].Body, "— the coin is fair on purpose (") {
		t.Errorf("comments %+v", comments)
	}
	if b, _ := os.ReadFile(output); !strings.Contains(string(b), "quarantined<<") || !strings.Contains(string(b), "\nsuccess\n") {
		t.Errorf("GITHUB_OUTPUT:\n%s", b)
	}
}
