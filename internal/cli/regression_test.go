package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/github/artifact/artifacttest"
	"github.com/ananke/action/internal/github/githubtest"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/vars"
)

// repeated is a test run ten times, min_pass_rate 50, whose first passed
// runs pass and the rest fail one assertion — the agent did not call its
// tool — as the engine judges it.
func repeated(path, id, name, tool string, passed int) *engine.TestResult {
	start := reporttest.Start
	p := stability.Policy{Runs: 10, MinPassRate: 50}
	var attempts []*engine.Attempt
	var byRun [][]status.Status
	for i := range 10 {
		r := assertion.Result{ID: "turn[0].tools.require[0]", Level: assertion.LevelTurn, Kind: assertion.KindRequire, Scope: "turn[0]",
			Source: diag.Pos{File: path, Line: 9, Col: 13}, Severity: assertion.Critical, Status: status.Pass,
			Message: "`" + tool + "` called 1 time, expected at least 1 time"}
		if i >= passed {
			r.Status, r.Message = status.Fail, "`"+tool+"` was never called (no tool calls in turn[0])"
		}
		r.Finish()
		at := start.Add(time.Duration(i) * time.Second)
		attempts = append(attempts, &engine.Attempt{Run: i, Status: r.Status, Results: []assertion.Result{r}, Start: at, End: at.Add(300 * time.Millisecond)})
		byRun = append(byRun, []status.Status{r.Status})
	}
	v := p.Judge(byRun)
	return &engine.TestResult{Test: &spec.Test{Path: path, ID: id, Name: vars.Name{Value: name}}, Status: v.Status, Reason: v.Reason,
		Policy: p, Verdict: v, Attempts: attempts, Start: start, End: attempts[9].End}
}

// rateRun is a run of two tests ten times each: search finds shoes
// passing `search` of its runs, weather in Paris `weather` of them.
func rateRun(search, weather int) *report.Report {
	out := &engine.Outcome{Tests: []*engine.TestResult{
		repeated("tests/search.ananke.yaml", "tests/search", "search finds shoes", "search", search),
		repeated("tests/weather.ananke.yaml", "tests/weather", "weather in Paris", "get_weather", weather),
	}, Start: reporttest.Start, End: reporttest.Start.Add(20 * time.Second)}
	return report.Build(out, report.Meta{Version: "v1.2.3", Config: reporttest.Config()})
}

// TestDiffRegression: of two tests that passed 10 of 10 runs in the base,
// the one passing 6 of 10 in the head regressed (p = 0.043), with the
// assertion that fails more often under it, and the one passing 9 of 10 is
// within noise; --fail-on-regression fails on the first alone, and
// --significance 0.01 calls both noise.
func TestDiffRegression(t *testing.T) {
	dirs := t.TempDir()
	base := writeReport(t, filepath.Join(dirs, "base"), rateRun(10, 10))
	head := writeReport(t, filepath.Join(dirs, "head"), rateRun(6, 9))

	r := run(t, "", nil, "diff", base, head)
	if r.code != ExitPass {
		t.Fatalf("diff: exit %d; want 0\n%s%s", r.code, r.out, r.errOut)
	}
	for _, want := range []string{
		"1 regressed, 2 newly flaky\n",
		"\nPass rates: 2 tests run more than once, compared at significance 0.05 (one-sided Fisher exact test): 1 regressed, 1 within noise\n",
		"\nRegressed (1):\n" +
			"  pass rate 10/10 → 6/10, p = 0.043  search finds shoes  tests/search.ananke.yaml:1\n" +
			"      tests/search.ananke.yaml:9:13: turn[0].tools.require[0]: failed in 0/10 → 4/10 attempts, p = 0.043: regressed\n",
		"\nWithin noise (1):\n  pass rate 10/10 → 9/10, p = 0.5  weather in Paris  tests/weather.ananke.yaml:1\n",
	} {
		if !strings.Contains(r.out, want) {
			t.Errorf("diff lacks %q:\n%s", want, r.out)
		}
	}

	r = run(t, "", nil, "diff", "--fail-on-regression", base, head)
	if want := "ananke diff: regression gate: search finds shoes: pass rate 10/10 → 6/10, p = 0.043, regressed at significance 0.05\n"; r.code != ExitFail || r.errOut != want {
		t.Errorf("--fail-on-regression: exit %d, stderr %q; want 1 and %q", r.code, r.errOut, want)
	}
	r = run(t, "", nil, "diff", "--fail-on-regression", "--significance", "0.01", base, head)
	if r.code != ExitPass || r.errOut != "" || !strings.Contains(r.out, "\nWithin noise (2):\n  pass rate 10/10 → 6/10, p = 0.043  search finds shoes") ||
		!strings.Contains(r.out, "compared at significance 0.01 ") {
		t.Errorf("--significance 0.01: exit %d; want 0 and both within noise\n%s%s", r.code, r.out, r.errOut)
	}
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"--fail-on-regression", head, base}, ExitPass}, // better
		{[]string{"--fail-on-regression", base, base}, ExitPass},
		{[]string{"--fail-on-new", base, head}, ExitPass}, // min_pass_rate 50: every test still passes
		{[]string{"--significance", "0", base, head}, ExitInvalid},
		{[]string{"--significance", "1", base, head}, ExitInvalid},
		{[]string{"--significance", "5%", base, head}, ExitInvalid},
	} {
		if r := run(t, "", nil, append([]string{"diff"}, tc.args...)...); r.code != tc.code {
			t.Errorf("diff %q: exit %d; want %d\n%s%s", tc.args, r.code, tc.code, r.out, r.errOut)
		}
	}
	r = run(t, "", nil, "diff", "--format", "markdown", base, head)
	if !strings.Contains(r.out, "**Regressed (1)**\n\n- search finds shoes · pass rate 10/10 → 6/10, p = 0.043 · `tests/search.ananke.yaml`\n"+
		"  - `turn[0].tools.require[0]` at `tests/search.ananke.yaml:9`: failed in 0/10 → 4/10 attempts, p = 0.043: regressed\n") ||
		!strings.Contains(r.out, "**Within noise (1)**\n\n- weather in Paris · pass rate 10/10 → 9/10, p = 0.5 · `tests/weather.ananke.yaml`\n") {
		t.Errorf("--format markdown:\n%s", r.out)
	}
}

// TestActionRegression: on a pull request whose head passes one test 6
// of 10 times and another 9 of 10, both 10 of 10 on the base branch, the
// comment shows the first regressed with its p-value and the second
// within noise; fail-on-regression fails the step on the first alone,
// while every test still passes — in the comment, the check run and the
// outputs.
func TestActionRegression(t *testing.T) {
	for _, tc := range []struct{ gate, significance string }{{"", ""}, {"true", ""}, {"true", "0.01"}} {
		t.Run("gate "+tc.gate+" "+tc.significance, func(t *testing.T) {
			gh, art := githubtest.New(t), artifacttest.New(t)
			dir := t.TempDir()
			baseZip, err := os.ReadFile(zipDir(t, writeReport(t, filepath.Join(t.TempDir(), "main"), rateRun(10, 10)), nil))
			if err != nil {
				t.Fatal(err)
			}
			writeReport(t, filepath.Join(dir, "head-report"), rateRun(6, 9))
			addCurrentRun(gh)
			gh.AddArtifact(addBaseRun(gh, "success"), "ananke-report", baseZip, false)

			env, output, _ := actionEnv(t, dir, "pull_request", prOnMain, gh, art)
			env["GITHUB_BASE_REF"], env["INPUT_MERGE"], env["INPUT_UPLOAD-ARTIFACT"] = "main", "head-report", "false"
			env["INPUT_FAIL-ON-REGRESSION"], env["INPUT_SIGNIFICANCE"] = tc.gate, tc.significance
			r := run(t, dir, env, "action")
			comments, runs := gh.Comments(5), gh.CheckRuns()
			if len(comments) != 1 || len(runs) != 1 {
				t.Fatalf("%d comments, %d check runs\n%s%s", len(comments), len(runs), r.out, r.errOut)
			}
			body := comments[0].Body
			search := "- search finds shoes · pass rate 10/10 → 6/10, p = 0.043 · [`tests/search.ananke.yaml`](https://github.com/acme/shop/blob/head1111/tests/search.ananke.yaml#L1)\n"
			weather := "- weather in Paris · pass rate 10/10 → 9/10, p = 0.5 · [`tests/weather.ananke.yaml`](https://github.com/acme/shop/blob/head1111/tests/weather.ananke.yaml#L1)\n"
			outputs, _ := os.ReadFile(output)
			if runs[0].Conclusion != "success" || !strings.Contains(string(outputs), "\nsuccess\n") {
				t.Errorf("the verdict changed: check run %q, outputs\n%s", runs[0].Conclusion, outputs)
			}
			if tc.significance == "0.01" {
				if !strings.Contains(body, "**Within noise (2)**\n\n"+search+weather) || strings.Contains(body, "Regressed") ||
					r.code != ExitPass || r.errOut != "" {
					t.Errorf("significance 0.01: exit %d, stderr %q; want 0, both within noise\ncomment:\n%s", r.code, r.errOut, body)
				}
				return
			}
			if !strings.Contains(body, "**Regressed (1)**\n\n"+search+
				"  - `turn[0].tools.require[0]` at [`tests/search.ananke.yaml:9`](https://github.com/acme/shop/blob/head1111/tests/search.ananke.yaml#L9): failed in 0/10 → 4/10 attempts, p = 0.043: regressed\n") ||
				!strings.Contains(body, "**Within noise (1)**\n\n"+weather) {
				t.Errorf("the comment does not show search regressed and weather within noise:\n%s", body)
			}
			const gate = "ananke: regression gate: search finds shoes: pass rate 10/10 → 6/10, p = 0.043, regressed at significance 0.05\n"
			switch tc.gate {
			case "":
				if r.code != ExitPass || r.errOut != "" {
					t.Errorf("no gate: exit %d; want 0\n%s%s", r.code, r.out, r.errOut)
				}
			default:
				if r.code != ExitFail || r.errOut != gate {
					t.Errorf("fail-on-regression: exit %d, stderr %q; want 1 and %q", r.code, r.errOut, gate)
				}
			}
		})
	}
}

// TestActionRegressionInputs: fail-on-regression and significance are
// checked before anything runs.
func TestActionRegressionInputs(t *testing.T) {
	for _, tc := range []struct{ name, value, want string }{
		{"FAIL-ON-REGRESSION", "yes", "input fail-on-regression: want true or false"},
		{"SIGNIFICANCE", "5", "input significance: want a level between 0 and 1, e.g. 0.05"},
	} {
		gh, art := githubtest.New(t), artifacttest.New(t)
		dir := t.TempDir()
		env, _, _ := actionEnv(t, dir, "pull_request", prOnMain, gh, art)
		env["INPUT_"+tc.name] = tc.value
		if r := run(t, dir, env, "action"); r.code != ExitInvalid || !strings.Contains(r.out, "::error::"+tc.want) {
			t.Errorf("%s %q: exit %d; want 3 and %q\n%s%s", tc.name, tc.value, r.code, tc.want, r.out, r.errOut)
		}
	}
}

// TestActionRegressionNothingCompared: with nothing to compare, the gate
// says so and fails nothing.
func TestActionRegressionNothingCompared(t *testing.T) {
	gh, art := githubtest.New(t), artifacttest.New(t)
	dir := t.TempDir()
	writeReport(t, filepath.Join(dir, "head-report"), rateRun(6, 9))
	env, _, _ := actionEnv(t, dir, "pull_request", prOnMain, gh, art)
	env["INPUT_MERGE"], env["INPUT_UPLOAD-ARTIFACT"], env["INPUT_COMPARE"], env["INPUT_FAIL-ON-REGRESSION"] = "head-report", "false", "off", "true"
	if r := run(t, dir, env, "action"); r.code != ExitPass || !strings.Contains(r.out, "fail-on-regression: no base report was compared, so no pass rate was either\n") {
		t.Errorf("compare off: exit %d; want 0 and a line saying nothing was compared\n%s%s", r.code, r.out, r.errOut)
	}
}
