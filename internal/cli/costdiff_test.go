package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/github/artifact/artifacttest"
	"github.com/ananke/action/internal/github/githubtest"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
	"github.com/ananke/action/reporters/reportdir"
)

// spend is what the agent reported for one turn: input and output tokens
// and the cost it gave.
func spend(in, out int64, usd float64) *cost.Spend {
	var t cost.Tokens
	t.Set(cost.Input, in)
	t.Set(cost.Output, out)
	s := &cost.Spend{}
	s.Add(cost.Usage{Provider: "openai", Model: "gpt-4o", Tokens: t, CostUSD: &usd, CostFrom: cost.FromSource})
	return s
}

// usageRun is a passing run of three tests whose agent reported usage in
// every turn, as report.Build sees it: weather in Paris (one run) spends
// k × 1000 input and k × 250 output tokens, $0.01 × k; weather in Berlin
// (one run) 500 and 100, $0.005, a tenth more for each k over 1; search finds shoes (flaky: 2 of 3 runs
// pass) 400 and 100, $0.004 a run — and when searchGap, its last run
// reports nothing, so its usage per attempt is unknown.
func usageRun(k int64, searchGap bool) *report.Report {
	out := reporttest.Outcome()
	weather, search := out.Tests[reporttest.Passing], out.Tests[reporttest.Wobbly]
	berlin := cloneResult(weather, "tests/weather-berlin", "weather in Berlin")
	each := func(r *engine.TestResult, s func(i int) *cost.Spend) {
		for i, a := range r.Attempts {
			for k := range a.Trace.Turns {
				a.Trace.Turns[k].Usage = s(i)
			}
		}
	}
	each(weather, func(int) *cost.Spend { return spend(k*1000, k*250, 0.01*float64(k)) })
	each(berlin, func(int) *cost.Spend { return spend(500+(k-1)*50, 100+(k-1)*10, 0.005+float64(k-1)*0.0005) })
	each(search, func(i int) *cost.Spend {
		if searchGap && i == len(search.Attempts)-1 {
			return nil
		}
		// A run that reported more than double still never gates while
		// another run's usage is unknown.
		if searchGap {
			return spend(4000, 1000, 0.04)
		}
		return spend(400, 100, 0.004)
	})
	// Berlin comes first in the run, so the cost changes' order is theirs.
	out.Tests = []*engine.TestResult{berlin, weather, search}
	return report.Build(out, report.Meta{Version: "v1.2.3", Config: reporttest.Config()})
}

// cloneResult copies a test's result under another id and name, each
// attempt with its own trace turns.
func cloneResult(r *engine.TestResult, id, name string) *engine.TestResult {
	c := *r
	t := *r.Test
	t.ID, t.Name = id, vars.Name{Value: name}
	c.Test, c.Attempts = &t, nil
	for _, a := range r.Attempts {
		ac := *a
		tr := *a.Trace
		tr.Turns = append([]trace.Turn(nil), tr.Turns...)
		ac.Trace = &tr
		c.Attempts = append(c.Attempts, &ac)
	}
	return &c
}

// writeReport writes r as the report directory dir.
func writeReport(t *testing.T, dir string, r *report.Report) string {
	t.Helper()
	if err := reportdir.Write(dir, r); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestDiffCost: ananke diff shows the test whose agent spent twice as
// much first among the cost changes, and --fail-on-cost-increase fails on
// it alone — never on the test whose usage the head does not know,
// however much its known runs spent.
func TestDiffCost(t *testing.T) {
	dirs := t.TempDir()
	base := writeReport(t, filepath.Join(dirs, "base"), usageRun(1, false))
	head := writeReport(t, filepath.Join(dirs, "head"), usageRun(2, true))

	r := run(t, "", nil, "diff", base, head)
	if r.code != ExitPass {
		t.Fatalf("diff: exit %d; want 0\n%s%s", r.code, r.out, r.errOut)
	}
	for _, want := range []string{
		"no change in test results\n",
		"\nCost per attempt, summed over 2 tests: 1.9k → 3.2k tokens (+71%) · $0.015 → $0.026 (+$0.011, +70%); 1 test not compared (usage unknown in one run)\n",
		"\nCost changes per attempt (2):\n" +
			"  +$0.01 (+100%)   weather in Paris  tests/weather.ananke.yaml:1  (1.2k → 2.5k tokens · $0.01 → $0.02)\n" +
			"  +$0.0005 (+10%)  weather in Berlin  tests/weather.ananke.yaml:1  (600 → 660 tokens · $0.005 → $0.0055)\n",
		"\nCost not compared (1):\n  usage unknown in head  search finds shoes  tests/search.ananke.yaml:1\n",
	} {
		if !strings.Contains(r.out, want) {
			t.Errorf("diff lacks %q:\n%s", want, r.out)
		}
	}

	r = run(t, "", nil, "diff", "--fail-on-cost-increase", "50", base, head)
	if r.code != ExitFail || r.errOut != "ananke diff: cost gate: weather in Paris +100% cost (base $0.01 → $0.02) exceeds 50%\n" ||
		!strings.Contains(r.out, "(1.2k → 2.5k tokens · $0.01 → $0.02 · exceeds 50%)") {
		t.Errorf("--fail-on-cost-increase 50: exit %d; want 1 and the gate's line\n%s%s", r.code, r.out, r.errOut)
	}
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"--fail-on-cost-increase", "100", base, head}, ExitPass}, // +100% is not over 100%
		{[]string{"--fail-on-cost-increase", "99.5%", base, head}, ExitFail},
		{[]string{"--fail-on-cost-increase", "0", head, base}, ExitPass}, // cheaper
		{[]string{"--fail-on-cost-increase", "50", "--fail-on-new", base, head}, ExitFail},
		{[]string{"--fail-on-cost-increase", "-5", base, head}, ExitInvalid},
		{[]string{"--fail-on-cost-increase", "lots", base, head}, ExitInvalid},
	} {
		if r := run(t, "", nil, append([]string{"diff"}, tc.args...)...); r.code != tc.code {
			t.Errorf("diff %q: exit %d; want %d\n%s%s", tc.args, r.code, tc.code, r.out, r.errOut)
		}
	}
	if r := run(t, "", nil, "diff", "--format", "markdown", "--fail-on-cost-increase", "50", base, head); r.code != ExitFail ||
		!strings.Contains(r.out, "**Cost changes per attempt (2)**\n\n- weather in Paris · +\\$0.01 (+100%) · `tests/weather.ananke.yaml` · 1.2k → 2.5k tokens · \\$0.01 → \\$0.02 · exceeds 50%\n") {
		t.Errorf("--format markdown: exit %d\n%s%s", r.code, r.out, r.errOut)
	}
}

// TestActionCostRegression: on a pull request whose agent spends twice
// the base branch's on one test, the comment lists that test first among
// the cost changes, and fail-on-cost-increase: 50 fails the step with a
// line naming it, while every test still passes — in the comment, the
// check run and the outputs.
func TestActionCostRegression(t *testing.T) {
	for _, limit := range []string{"", "50"} {
		t.Run("limit "+limit, func(t *testing.T) {
			gh, art := githubtest.New(t), artifacttest.New(t)
			dir := t.TempDir()
			baseZip, err := os.ReadFile(zipDir(t, writeReport(t, filepath.Join(t.TempDir(), "main"), usageRun(1, false)), nil))
			if err != nil {
				t.Fatal(err)
			}
			writeReport(t, filepath.Join(dir, "head-report"), usageRun(2, true))
			addCurrentRun(gh)
			gh.AddArtifact(addBaseRun(gh, "success"), "ananke-report", baseZip, false)

			env, output, _ := actionEnv(t, dir, "pull_request", prOnMain, gh, art)
			env["GITHUB_BASE_REF"], env["INPUT_MERGE"], env["INPUT_UPLOAD-ARTIFACT"] = "main", "head-report", "false"
			env["INPUT_FAIL-ON-COST-INCREASE"] = limit
			r := run(t, dir, env, "action")
			comments, runs := gh.Comments(5), gh.CheckRuns()
			if len(comments) != 1 || len(runs) != 1 {
				t.Fatalf("%d comments, %d check runs\n%s%s", len(comments), len(runs), r.out, r.errOut)
			}
			body := comments[0].Body
			_, costs, _ := strings.Cut(body, "**Cost changes per attempt (2)**\n\n")
			first := "- weather in Paris · +\\$0.01 (+100%) · [`tests/weather.ananke.yaml`](https://github.com/acme/shop/blob/head1111/tests/weather.ananke.yaml#L1) · 1.2k → 2.5k tokens · \\$0.01 → \\$0.02"
			if !strings.HasPrefix(costs, first) || !strings.Contains(costs, "\n- weather in Berlin · +\\$0.0005 (+10%) · ") || !strings.Contains(body, "**Cost not compared (1)**\n\n- search finds shoes · usage unknown in head") {
				t.Errorf("the comment does not list weather in Paris first among the cost changes:\n%s", body)
			}
			outputs, _ := os.ReadFile(output)
			if runs[0].Conclusion != "success" || !strings.Contains(string(outputs), "conclusion<<") || !strings.Contains(string(outputs), "\nsuccess\n") ||
				!strings.Contains(string(outputs), "failed<<") {
				t.Errorf("the verdict changed: check run %q, outputs\n%s", runs[0].Conclusion, outputs)
			}
			const gate = "ananke: cost gate: weather in Paris +100% cost (base $0.01 → $0.02) exceeds 50%\n"
			switch limit {
			case "":
				if r.code != ExitPass || strings.Contains(body, "exceeds") || r.errOut != "" {
					t.Errorf("no limit: exit %d; want 0\n%s%s", r.code, r.out, r.errOut)
				}
			default:
				if r.code != ExitFail || r.errOut != gate || !strings.Contains(body, first+" · exceeds 50%\n") {
					t.Errorf("limit %s: exit %d, stderr %q; want 1 and %q\ncomment:\n%s", limit, r.code, r.errOut, gate, body)
				}
			}
		})
	}
}

// previousReport writes a report directory holding only a summary.json:
// the quickstart's weather test spent 1,500 tokens and $0.012 per attempt,
// its memory test reported no usage, and the rest did not run.
func previousReport(t *testing.T, dir string) string {
	t.Helper()
	tok, usd := 1500.0, 0.012
	r := report.Report{Schema: report.Schema, Status: status.Pass, Tests: []report.Test{
		{ID: "weather", Status: status.Pass, Runs: 1, PerAttempt: &report.AttemptUsage{Attempts: 1, MeanTokens: &tok, MeanCostUSD: &usd}},
		{ID: "memory", Status: status.Pass, Runs: 1},
	}}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, reportdir.SummaryFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestDryRunEstimate: --dry-run --estimate-from DIR estimates each test's
// tokens and cost from the report in DIR times the runs planned, and
// names the tests without an estimate; --estimate-from needs --dry-run
// and a readable report.
func TestDryRunEstimate(t *testing.T) {
	dir := copySuite(t, "quickstart")
	prev := previousReport(t, filepath.Join(t.TempDir(), "main-report"))
	r := run(t, dir, nil, "run", "--dry-run", "--runs", "2", "--estimate-from", prev)
	if r.code != ExitPass {
		t.Fatalf("exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	for _, want := range []string{
		"weather in Paris uses the weather tool  [weather]  weather.ananke.yaml\n  2 runs, min pass rate 100%, 0 retries\n  estimate: 3k tokens · $0.024 (2 runs × 1.5k tokens · $0.012)\n",
		"  estimate: none (usage unknown in the previous report)\n",
		"  estimate: none (not in the previous report)\n",
		"\nEstimate from " + prev + ": ",
		"  total: 3k tokens · $0.024, for 1 of 6 tests\n",
		"  no estimate for 5 tests: ",
		"the agent answers from the conversation history (usage unknown in the previous report)",
	} {
		if !strings.Contains(r.out, want) {
			t.Errorf("the plan lacks %q:\n%s", want, r.out)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--estimate-from", prev}, "ananke run: --estimate-from estimates a dry run's usage: add --dry-run\n"},
		{[]string{"--dry-run", "--estimate-from", filepath.Join(dir, "nope")}, "ananke run: --estimate-from: read report " + filepath.Join(dir, "nope")},
	} {
		if r := run(t, dir, nil, append([]string{"run"}, tc.args...)...); r.code != ExitInvalid || !strings.HasPrefix(r.errOut, tc.want) || r.out != "" {
			t.Errorf("run %q: exit %d, stderr %q; want 3 and %q", tc.args, r.code, r.errOut, tc.want)
		}
	}
}

// TestActionDryRunEstimate: the action's dry run on a pull request
// estimates from the base branch's report artifact, the one compare
// would use, and says when there is none.
func TestActionDryRunEstimate(t *testing.T) {
	gh, art := githubtest.New(t), artifacttest.New(t)
	dir := copySuite(t, "quickstart")
	baseZip, err := os.ReadFile(zipDir(t, previousReport(t, filepath.Join(t.TempDir(), "main")), nil))
	if err != nil {
		t.Fatal(err)
	}
	addCurrentRun(gh)
	gh.AddArtifact(addBaseRun(gh, "success"), "ananke-report", baseZip, false)
	env, _, _ := actionEnv(t, dir, "pull_request", prOnMain, gh, art)
	env["GITHUB_BASE_REF"], env["INPUT_DRY-RUN"] = "main", "true"
	r := run(t, dir, env, "action")
	if r.code != ExitPass || len(gh.CheckRuns()) != 0 ||
		!strings.Contains(r.out, "  estimate: 1.5k tokens · $0.012 (1 run × 1.5k tokens · $0.012)\n") ||
		!strings.Contains(r.out, "\nEstimate from run #41 on main (abc1234) https://github.com/acme/shop/actions/runs/41: ") {
		t.Errorf("dry run on a pull request: exit %d, %d check runs\n%s%s", r.code, len(gh.CheckRuns()), r.out, r.errOut)
	}

	env, _, _ = actionEnv(t, dir, "push", `{"ref": "refs/heads/main"}`, gh, art)
	env["INPUT_DRY-RUN"] = "true"
	r = run(t, dir, env, "action")
	if r.code != ExitPass || !strings.Contains(r.out, "No estimate of the run's tokens and cost: there is no base report.\n") ||
		strings.Contains(r.out, "estimate:") {
		t.Errorf("dry run on a push: exit %d\n%s%s", r.code, r.out, r.errOut)
	}
}
