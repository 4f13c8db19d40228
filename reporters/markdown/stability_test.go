package markdown_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/markdown"
)

// steady makes a passing test one that passed each of its three runs:
// repeated, not flaky.
func steady(t *report.Test) {
	t.Runs, t.PassedRuns, t.PassRate = 3, 3, 100
	t.Attempts = []report.Attempt{t.Attempts[0], t.Attempts[0], t.Attempts[0]}
	for i := range t.Attempts {
		t.Attempts[i].Run = i + 1
	}
}

// TestRunsColumns: the table gains Runs and Flaky only when some test ran
// more than once; otherwise it is the table of a suite that never repeats.
func TestRunsColumns(t *testing.T) {
	repeatedSteady := reporttest.Pick(false, reporttest.Failing, reporttest.Passing)
	steady(&repeatedSteady.Tests[1])
	for _, tc := range []struct {
		name     string
		r        *report.Report
		wide     bool
		wantRows []string
	}{
		{"no test repeated", reporttest.Pick(false, reporttest.Failing, reporttest.Passing, reporttest.Errored, reporttest.Skipped), false, []string{
			"| ✓ | weather in Paris (⚠ 1 check not made, 1 warning) | `tests/weather.ananke.yaml` | 420ms |  | 10.2k tokens · cost unknown |",
			"| ! | refund needs a seeded order | `tests/refund.ananke.yaml` | 35ms |  | — |",
			"| - | legacy flow — skipped: waiting for agent v2 | `tests/legacy.ananke.yaml` | 0ms |  |  |",
		}},
		{"flaky tests", reporttest.Pick(false, reporttest.Passing, reporttest.Skipped, reporttest.Wobbly, reporttest.Flips), true, []string{
			"| ✗ | search flips | `tests/flip.ananke.yaml` | 800ms | 1 | 1/2 (50%, 95% CI 10–91%) | ⚠ flaky | ≥ 4.5k tokens (1 of 3 unreported) |",
			"| ✓ | search finds shoes | `tests/search.ananke.yaml` | 1.3s |  | 2/3 (66.7%, 95% CI 21–94%) | ⚠ flaky | " +
				"10.5k tokens · \\$0.0017 (per run: mean 3.5k tokens · \\$0.00056, max 4.3k tokens · \\$0.0007) |",
			"| ✓ | weather in Paris (⚠ 1 check not made, 1 warning) | `tests/weather.ananke.yaml` | 420ms |  | - |  | 10.2k tokens · cost unknown |",
			"| - | legacy flow — skipped: waiting for agent v2 | `tests/legacy.ananke.yaml` | 0ms |  |  |  |  |",
		}},
		{"repeated, steady", repeatedSteady, true, []string{
			"| ✗ | checkout declines the card | `tests/checkout.ananke.yaml` | 1.6s | 2 | - |  | 5k tokens · \\$0.0036 |",
			"| ✓ | weather in Paris (⚠ 1 check not made, 1 warning) | `tests/weather.ananke.yaml` | 420ms |  | 3/3 (100%) |  | 10.2k tokens · cost unknown |",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := markdown.Render(tc.r, markdown.Options{})
			checkStructure(t, out)
			if got := strings.Contains(out, "| Runs | Flaky |"); got != tc.wide {
				t.Errorf("Runs and Flaky columns = %v; want %v:\n%s", got, tc.wide, out)
			}
			rows := tableRows(out)
			for _, row := range rows {
				if n, want := cells(row), wantCells(tc.r); n != want {
					t.Errorf("row has %d cells; want %d: %s", n, want, row)
				}
			}
			for _, want := range tc.wantRows {
				if !strings.Contains(out, "\n"+want+"\n") {
					t.Errorf("no row %q in:\n%s", want, out)
				}
			}
		})
	}
}

// TestFailOnFlaky: when flaky tests alone fail the run, the heading reads
// as a failure and says why; without fail-on-flaky the same tests pass.
// The passing test's warning and its check not made are counted either
// way and decide nothing.
func TestFailOnFlaky(t *testing.T) {
	for _, tc := range []struct {
		failOnFlaky bool
		want        string
	}{
		{false, "### ✓ Ananke: 2 of 3 tests passed, 1 skipped, 1 flaky, 1 with warnings, 1 check not made\n"},
		{true, "### ✗ Ananke: 1 flaky test failed the run (fail-on-flaky); 2 of 3 tests passed, 1 skipped, 1 with warnings, 1 check not made\n"},
	} {
		r := reporttest.Pick(tc.failOnFlaky, reporttest.Passing, reporttest.Skipped, reporttest.Wobbly)
		out := markdown.Render(r, markdown.Options{})
		if !strings.HasPrefix(out, tc.want) {
			t.Errorf("fail-on-flaky %v: heading %q; want %q", tc.failOnFlaky, truncate(out, len(tc.want)+40), tc.want)
		}
		if !strings.Contains(out, "| 3 | 2 | 0 | 0 | 1 | 1 | 100.0% |") {
			t.Errorf("fail-on-flaky %v: totals lack the flaky count:\n%s", tc.failOnFlaky, out)
		}
	}
}

// TestFlakyBlocks: a flaky test that passed gets a closed block with its
// attempts and the assertion that wobbled, as it failed in its first
// failing run; a repeated failure says in how many attempts each assertion
// failed.
func TestFlakyBlocks(t *testing.T) {
	r := reporttest.Pick(false, reporttest.Passing, reporttest.Wobbly, reporttest.Flips)
	calm(&r.Tests[0])
	out := markdown.Render(r, markdown.Options{})
	checkStructure(t, out)
	for _, want := range []string{
		"<details>\n<summary>✓ <b>search finds shoes</b> — 2/3 runs passed (95% CI 21–94%), flaky</summary>\n",
		"Attempts: run 1 ✓ · run 2 ✗ · run 3 ✓\n\npass^3 29.6% (95% CI 1–83%): the chance that 3 runs in a row all pass\n",
		"- ⚠ `tests/search.ananke.yaml:9`: `search` was never called (no tool calls in turn\\[0\\])\n" +
			"  - assertion: `turn[0].tools.require[0]`\n  - failed in 1 of 3 runs (95% CI 6–79%), first in run 2\n",
		"<details open>\n<summary>✗ <b>search flips</b> — 1 failed assertion (process), 1/2 runs passed (95% CI 10–91%), flaky</summary>\n",
		"✗ 1 of 2 runs passed (50%), below min_pass_rate 100%\n",
		"Attempts: run 1 ✗ · run 1 retry 1 ✗ · run 2 ✓ (failed assertions below: run 1)\n",
		"  - failed in 2 of 3 attempts (95% CI 21–94%)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "weather in Paris</b>") {
		t.Error("a steady passing test without warnings has a block")
	}
	// The flaky failure lists its failing assertion once, not again as
	// flaky.
	if n := strings.Count(out, "tests/flip.ananke.yaml:9"); n != 1 {
		t.Errorf("the failing assertion of search flips is listed %d times; want 1", n)
	}
}

// TestErroredRuns: a repeated test that failed because its runs errored
// has no failed assertion to show; its attempts' reasons say what happened.
func TestErroredRuns(t *testing.T) {
	r := reporttest.Pick(false, reporttest.Flips)
	ft := &r.Tests[0]
	for i := range ft.Assertions {
		ft.Assertions[i].Status, ft.Assertions[i].FailedRuns = "skip", 0
	}
	for i := range ft.Attempts[:2] {
		a := &ft.Attempts[i]
		a.Status, a.Reason, a.Failed = status.Error, fmt.Sprintf("agent unreachable (%d)", i), nil
	}
	out := markdown.Render(r, markdown.Options{})
	checkStructure(t, out)
	for _, want := range []string{
		"<summary>✗ <b>search flips</b> — 1/2 runs passed (95% CI 10–91%), flaky</summary>",
		"Attempts: run 1 ! · run 1 retry 1 ! · run 2 ✓\n\npass^2 25% (95% CI 1–82%): the chance that 2 runs in a row all pass\n\n- ! run 1: agent unreachable (0)\n- ! run 1 retry 1: agent unreachable (1)\n\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestFlakyTrimming: under a budget, failed tests keep their place before
// flaky ones, flaky ones before those with warnings, and those before the
// rest — rows and blocks alike.
func TestFlakyTrimming(t *testing.T) {
	fix := reporttest.Report()
	steadyPass := fix.Tests[reporttest.Passing]
	calm(&steadyPass)
	r := *fix
	r.Tests = nil
	// Passing (without and with a warning), flaky and failing tests
	// interleaved, so that order is exercised: the report's order is not
	// the priority.
	for i := range 30 {
		for _, tt := range []report.Test{steadyPass, fix.Tests[reporttest.Passing], fix.Tests[reporttest.Wobbly], fix.Tests[reporttest.Failing]} {
			tt.Name = fmt.Sprintf("%s %02d", tt.Name, i)
			r.Tests = append(r.Tests, tt)
		}
	}
	full := markdown.Render(&r, markdown.Options{})
	for budget := 1000; budget <= len(full)+100; budget += 997 {
		out := markdown.Render(&r, markdown.Options{Budget: budget})
		if len(out) > budget {
			t.Fatalf("budget %d: %d bytes", budget, len(out))
		}
		checkStructure(t, out)
		shown := [4]int{}
		last := 0
		for _, row := range tableRows(out) {
			k := rank(row)
			if k < last {
				t.Fatalf("budget %d: row %q after a row of lower priority", budget, row)
			}
			last = k
			shown[k]++
		}
		for k := 1; k < len(shown); k++ {
			if shown[k] > 0 && shown[k-1] < 30 {
				t.Fatalf("budget %d: %d failed, %d flaky, %d warned, %d other rows shown: a lower priority got room first", budget, shown[0], shown[1], shown[2], shown[3])
			}
		}
		if n := strings.Count(out, "flaky</summary>\n"); n != shown[1] {
			t.Errorf("budget %d: %d flaky blocks for %d flaky rows", budget, n, shown[1])
		}
		if n := strings.Count(out, "<details>\n<summary>✓ <b>weather in Paris"); n != shown[2] {
			t.Errorf("budget %d: %d blocks with warnings for %d rows with warnings", budget, n, shown[2])
		}
		if n := strings.Count(out, "<details>\n<summary>✗ "); n != shown[0] {
			t.Errorf("budget %d: %d failed blocks for %d failed rows", budget, n, shown[0])
		}
	}
}

// rank is a row's priority under trimming: 0 failed or errored, 1 flaky,
// 2 passed with warnings, 3 the rest.
func rank(row string) int {
	switch {
	case strings.HasPrefix(row, "| ✗ |"), strings.HasPrefix(row, "| ! |"):
		return 0
	case strings.Contains(row, "| ⚠ flaky |"):
		return 1
	case strings.Contains(row, " (⚠ 1 check not made, 1 warning) |"):
		return 2
	}
	return 3
}

// TestNoSecret: the planted secret shows nowhere, whatever the options,
// the budget or the verdict.
func TestNoSecret(t *testing.T) {
	reports := map[string]*report.Report{
		"fixture":       reporttest.Report(),
		"fail-on-flaky": reporttest.Pick(true, reporttest.Passing, reporttest.Skipped, reporttest.Wobbly, reporttest.Flips),
		"flaky only":    reporttest.Pick(false, reporttest.Wobbly),
		"warned only":   reporttest.Pick(false, reporttest.Passing),
	}
	for name, r := range reports {
		for _, budget := range []int{0, 800, 1600, 3000, 65000} {
			for _, o := range []markdown.Options{{}, {LinkBase: "https://github.com/o/r/blob/abc/", Marker: "<!-- m -->", Footer: "links"}} {
				o.Budget = budget
				if out := markdown.Render(r, o); strings.Contains(out, reporttest.Secret) {
					t.Errorf("%s, budget %d: the output shows the secret", name, budget)
				}
			}
		}
	}
}

// TestRunBudgetLines: a run that failed on its budget says so first in
// the heading (not as fail-on-flaky), and each bound exceeded or not
// checked gets a line under the totals; a bound kept gets none.
func TestRunBudgetLines(t *testing.T) {
	r := reporttest.Pick(false, reporttest.Passing, reporttest.Skipped, reporttest.Wobbly)
	r.Status = status.Fail
	r.Budget = &report.RunBudget{Status: status.Fail, Exceeded: true, Limits: []report.BudgetLimit{
		{Name: report.BudgetTokens, Status: status.Fail, Message: "run budget exceeded: 2.1M total tokens > max_total_tokens 2M (ananke.config.yaml:9:3)"},
		{Name: report.BudgetCost, Status: status.Skip, Message: "run budget not checked: model my_model has no price — max_cost_usd $5.00 (ananke.config.yaml:8:3)"},
		{Name: report.BudgetCost, Status: status.Pass, Message: "run budget kept: 3 total tokens"},
	}}
	out := markdown.Render(r, markdown.Options{})
	for _, want := range []string{
		"### ✗ Ananke: run budget exceeded; 2 of 3 tests passed, 1 skipped, 1 flaky, 1 with warnings, 1 check not made\n",
		"100.0% |",
		"\n\n✗ run budget exceeded: 2.1M total tokens &gt; max_total_tokens 2M (ananke.config.yaml:9:3)\n\n" +
			"⚠ run budget not checked: model my_model has no price — max_cost_usd \\$5.00 (ananke.config.yaml:8:3)\n\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "budget kept") || strings.Contains(out, "fail-on-flaky") {
		t.Errorf("a kept bound or fail-on-flaky is shown:\n%s", out)
	}
}
