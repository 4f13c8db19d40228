package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/github/artifact/artifacttest"
	"github.com/ananke/action/internal/github/githubtest"
	"github.com/ananke/action/internal/history"
	"github.com/ananke/action/internal/history/historytest"
)

// Two tests of the failing example, which both fail.
const (
	declinedName  = "the user declines, so no charge happens"
	wrongCityName = "the agent looks up the wrong city"
)

// historyFile writes a history of 20 runs of main, #22 to #41, in which
// the failing example's declined and wrong-city tests follow their
// patterns, and returns its path.
func historyFile(t *testing.T, declined, wrongCity string) string {
	t.Helper()
	runs := historytest.Runs(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC), 22, []historytest.Test{
		{ID: "declined", Name: declinedName, File: "declined.ananke.yaml", Pattern: declined},
		{ID: "wrong-city", Name: wrongCityName, File: "wrong-city.ananke.yaml", Pattern: wrongCity},
	})
	data, err := history.Marshal(historytest.History(runs))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "history.json")
	if err := history.WriteFile(path, data); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestActionFailOnNew is the example on the fake GitHub: with 20
// stored runs of main in which one test fails 4 times and another never,
// a pull request failing both marks the first "known flaky on main (fails
// 4 of the last 20)" and the second "new failure" in the comment, the
// check run and the job summary; fail-on new fails the step because of the
// second alone, and lists both. When main explains both failures, the
// step passes, listing them still. The history also suggests quarantining
// the flaky test.
func TestActionFailOnNew(t *testing.T) {
	gh, art := githubtest.New(t), artifacttest.New(t)
	dir := failingWorkspace(t)
	env, _, summary := actionEnv(t, dir, "pull_request", prEvent, gh, art)
	env["GITHUB_BASE_REF"] = "main"
	env["INPUT_RUN"] = "^(declined|wrong-city)$"
	env["INPUT_COMPARE"] = "off"
	env["INPUT_FAIL-ON"] = "new"
	env["INPUT_HISTORY-FILE"] = historyFile(t, "ppfpppfppppfpppppfpp", "pppppppppppppppppppp")
	r := run(t, dir, env, "action")
	if r.code != ExitFail {
		t.Fatalf("exit %d, want 1: wrong-city is a new failure\n%s%s", r.code, r.out, r.errOut)
	}
	log := plain(r.out)
	for _, want := range []string{
		"History: 20 runs of main from " + env["INPUT_HISTORY-FILE"] + "\n",
		"  history: known flaky on main (fails 4 of the last 20); p = 0.24, within noise  ✓✓✗✓✓✓✗✓✓✓✓✗✓✓✓✓✓✗✓✓\n",
		"  history: new failure (passed the last 20 runs on main)  ✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓\n",
		"History (last 20 runs on main): 1 new failure, 1 known flaky on main\n",
		"fail-on new: 1 of 2 failing tests counted as new against the last 20 runs on main:\n" +
			"  fails the step: " + wrongCityName + ": new failure (passed the last 20 runs on main)\n" +
			"  not failing the step: " + declinedName + ": known flaky on main (fails 4 of the last 20)\n",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}

	rows := []string{
		"| ✗ | " + wrongCityName + " | **new failure (passed the last 20 runs on main)** | ✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓ |\n",
		"| ✗ | " + declinedName + " | known flaky on main (fails 4 of the last 20); p = 0.24, within noise | ✓✓✗✓✓✓✗✓✓✓✓✗✓✓✓✓✓✗✓✓ |\n",
	}
	comments := gh.Comments(5)
	if len(comments) != 1 {
		t.Fatalf("%d comments", len(comments))
	}
	runs := gh.CheckRuns()
	if len(runs) != 1 {
		t.Fatalf("%d check runs", len(runs))
	}
	md, _ := os.ReadFile(summary)
	for name, body := range map[string]string{"comment": comments[0].Body, "check run": runs[0].Summary, "job summary": string(md)} {
		if !strings.Contains(body, "2 failed of 2 tests (1 new failure, 1 known flaky on main)") {
			t.Errorf("%s: the heading does not count the verdicts:\n%s", name, body)
		}
		for _, row := range rows {
			if !strings.Contains(body, row) {
				t.Errorf("%s lacks %q:\n%s", name, row, body)
			}
		}
	}
	// The history's quarantine advice: declined flakes in 20% of main's runs.
	if want := "Suggested: quarantine **" + declinedName + "** — 4 flakes in the last 20 runs on main: a flake rate of 20%, at or over the 20% threshold.\n"; !strings.Contains(comments[0].Body, want) {
		t.Errorf("the comment lacks %q", want)
	}
	if want := "2 failed of 2 tests (1 new failure, 1 known flaky on main)"; runs[0].Title != want || runs[0].Conclusion != "failure" {
		t.Errorf("check run %q %s; want %q, failure", runs[0].Title, runs[0].Conclusion, want)
	}
	var blamed int
	for _, a := range runs[0].Annotations {
		switch {
		case strings.HasPrefix(a.Title, declinedName) && strings.HasSuffix(a.Message, "\nHistory: known flaky on main (fails 4 of the last 20); p = 0.24, within noise"),
			strings.HasPrefix(a.Title, wrongCityName) && strings.HasSuffix(a.Message, "\nHistory: new failure (passed the last 20 runs on main)"):
			blamed++
		default:
			t.Errorf("annotation %q: %q", a.Title, a.Message)
		}
	}
	if blamed < 2 {
		t.Errorf("%d annotations with their verdicts", blamed)
	}
	var s struct {
		History struct{ Base string } `json:"history"`
		Tests   []struct {
			ID      string `json:"id"`
			History struct {
				Blame string `json:"blame"`
				New   bool   `json:"new"`
			} `json:"history"`
		} `json:"tests"`
	}
	if err := json.Unmarshal(validateReportFiles(t, filepath.Join(dir, "ananke-report")), &s); err != nil {
		t.Fatal(err)
	}
	if s.History.Base != "main" || len(s.Tests) != 2 {
		t.Fatalf("summary.json: %+v", s)
	}
	for _, x := range s.Tests {
		if want := map[string]string{"declined": "flaky", "wrong-city": "new"}[x.ID]; x.History.Blame != want || x.History.New != (want == "new") {
			t.Errorf("summary.json: %s history %+v, want %s", x.ID, x.History, want)
		}
	}

	// Main explains both failures: wrong-city fails there since run #39.
	env["INPUT_HISTORY-FILE"] = historyFile(t, "ppfpppfppppfpppppfpp", "pppppppppppppppppfff")
	r = run(t, dir, env, "action")
	if want := "fail-on new: 0 of 2 failing tests counted as new against the last 20 runs on main:\n" +
		"  not failing the step: " + declinedName + ": known flaky on main (fails 4 of the last 20)\n" +
		"  not failing the step: " + wrongCityName + ": already failing on main since run #39\n"; r.code != ExitPass || !strings.Contains(plain(r.out), want) {
		t.Errorf("exit %d, want 0 and %q:\n%s%s", r.code, want, r.out, r.errOut)
	}
	if c := gh.Comments(5); len(c) != 1 || !strings.Contains(c[0].Body, "(1 known flaky on main, 1 already failing on main)") {
		t.Errorf("comment %+v", c)
	}
}

// TestActionFailOnNewWithoutHistory: fail-on new without a history — none
// given, or one that cannot be read (a warning) — fails the step on every
// failure, as fail-on error, and says so.
func TestActionFailOnNewWithoutHistory(t *testing.T) {
	gh, art := githubtest.New(t), artifacttest.New(t)
	dir := failingWorkspace(t)
	env, _, _ := actionEnv(t, dir, "push", `{"ref": "refs/heads/main"}`, gh, art)
	env["INPUT_RUN"] = "^declined$"
	env["INPUT_COMPARE"] = "off"
	env["INPUT_FAIL-ON"] = "new"
	env["INPUT_UPLOAD-ARTIFACT"] = "false"
	for _, file := range []string{"", filepath.Join(dir, "no-such-history.json")} {
		env["INPUT_HISTORY-FILE"] = file
		r := run(t, dir, env, "action")
		if r.code != ExitFail || !strings.Contains(r.out, "fail-on new: no history of the base branch was read, so every failure counts, as with fail-on error\n") {
			t.Errorf("history-file %q: exit %d, want 1 and the log's line:\n%s%s", file, r.code, r.out, r.errOut)
		}
		if warned := strings.Contains(r.out, "::warning::input history-file: "); warned != (file != "") {
			t.Errorf("history-file %q: warned %v:\n%s", file, warned, r.out)
		}
	}
	env["INPUT_FAIL-ON"] = "newest"
	if r := run(t, dir, env, "action"); r.code != ExitInvalid || !strings.Contains(r.out, "::error::input fail-on: want error, fail, never or new, got \"newest\"") {
		t.Errorf("fail-on newest: exit %d\n%s", r.code, r.out)
	}
}

// TestRunFailOnNew: other CIs have it too — ananke run --history reads
// the failures against a history file, marks them in the console and the
// --summary markdown, and --fail-on new exits 1 for the new failure alone,
// 0 when the history explains both; a history that cannot be read is a
// warning; a --fail-on it does not know is a usage error.
func TestRunFailOnNew(t *testing.T) {
	dir := copySuite(t, "failing")
	md := filepath.Join(t.TempDir(), "summary.md")
	args := func(history string) []string {
		return []string{"run", "--run", "^(declined|wrong-city)$", "--history", history, "--fail-on", "new", "--summary", md, "--report-dir", filepath.Join(t.TempDir(), "r")}
	}
	env := map[string]string{"GITHUB_BASE_REF": "main"}
	r := run(t, dir, env, args(historyFile(t, "ppfpppfppppfpppppfpp", "pppppppppppppppppppp"))...)
	out := plain(r.out)
	if r.code != ExitFail || !strings.Contains(out, "fail-on new: 1 of 2 failing tests counted as new against the last 20 runs on main:\n"+
		"  fails the step: "+wrongCityName+": new failure (passed the last 20 runs on main)\n") {
		t.Errorf("exit %d, want 1 and the new failure listed:\n%s%s", r.code, out, r.errOut)
	}
	if b, _ := os.ReadFile(md); !strings.Contains(string(b), "2 failed of 2 tests (1 new failure, 1 known flaky on main)") {
		t.Errorf("--summary:\n%s", b)
	}
	r = run(t, dir, env, args(historyFile(t, "ppfpppfppppfpppppfpp", "pppppppppppppppppfff"))...)
	if r.code != ExitPass || !strings.Contains(plain(r.out), "  not failing the step: "+wrongCityName+": already failing on main since run #39\n") {
		t.Errorf("exit %d, want 0 with both explained:\n%s%s", r.code, r.out, r.errOut)
	}
	r = run(t, dir, env, args(filepath.Join(dir, "none.json"))...)
	if r.code != ExitFail || !strings.Contains(r.errOut, "ananke run: --history: read history: ") ||
		!strings.Contains(r.out, "fail-on new: no history of the base branch was read, so every failure counts, as with fail-on error\n") {
		t.Errorf("no history: exit %d, want 1 with a warning:\n%s%s", r.code, r.out, r.errOut)
	}
	if r := run(t, dir, nil, "run", "--fail-on", "fail"); r.code != ExitInvalid || !strings.Contains(r.errOut, `ananke run: --fail-on "fail": want error or new`) {
		t.Errorf("--fail-on fail: exit %d %q", r.code, r.errOut)
	}
}
