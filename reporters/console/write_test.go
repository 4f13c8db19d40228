package console_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/console"
)

// TestWriteCases covers what the fixture report does not: a run failed
// only by flaky tests, an attempt that errored, a turn that never ran.
func TestWriteCases(t *testing.T) {
	flaky := report.Test{Name: "search", File: "tests/search.ananke.yaml", Status: status.Pass,
		Runs: 2, PassedRuns: 1, PassRate: 50, MinPassRate: 50, Flaky: true, Shown: 2,
		Attempts: []report.Attempt{{Run: 1, Status: status.Error, Reason: "turn[0]: agent timed out after 30s"}, {Run: 2, Status: status.Pass}}}
	stopped := report.Test{Name: "checkout", File: "tests/checkout.ananke.yaml", Status: status.Fail,
		Turns: []report.Turn{{Index: 0, Type: "user", User: "hi", Text: ""}},
		Assertions: []report.Assertion{
			{ID: "turn[0].text.must_match[0]", Scope: "turn[0]", Status: "fail", Message: "no match", Source: report.Location{File: "t.yaml", Line: 3, Col: 5}},
			{ID: "turn[1].text.must_match[0]", Scope: "turn[1]", Status: "skip", Message: "not evaluated", Source: report.Location{File: "t.yaml", Line: 7, Col: 5}},
		}}
	for _, tc := range []struct {
		name    string
		r       *report.Report
		opts    console.Options
		want    []string
		notWant []string
	}{
		{"failed by flaky tests", &report.Report{Status: status.Fail, FailOnFlaky: true,
			Totals: report.Totals{Total: 1, Passed: 1, Flaky: 1, PassRate: 100}, Tests: []report.Test{flaky}}, console.Options{},
			[]string{
				"FLAKY search  tests/search.ananke.yaml\n",
				"  1 of 2 runs passed (50%); min_pass_rate 50%\n",
				"  attempts: run 1 !, run 2 ✓\n",
				"    run 1: turn[0]: agent timed out after 30s\n",
				"Tests: 1 total, 1 passed, 0 failed, 0 errored, 0 skipped, 1 flaky (pass rate 100.0%)\n" +
					"Flaky tests fail the run (--fail-on-flaky).\n",
			}, nil},
		{"flaky tests tolerated", &report.Report{Status: status.Pass,
			Totals: report.Totals{Total: 1, Passed: 1, Flaky: 1, PassRate: 100}, Tests: []report.Test{flaky}}, console.Options{},
			[]string{"1 flaky"}, []string{"--fail-on-flaky"}},
		{"failed, not because of flakiness", &report.Report{Status: status.Fail,
			Totals: report.Totals{Total: 1, Failed: 1}, Tests: []report.Test{stopped}}, console.Options{},
			[]string{"0 skipped (pass rate"}, []string{"flaky"}},
		{"verbose: turn not run", &report.Report{Status: status.Fail,
			Totals: report.Totals{Total: 1, Failed: 1}, Tests: []report.Test{stopped}}, console.Options{Verbose: true},
			[]string{
				"  ├─ turn[0] \"hi\" → (no text)\n" +
					"  │  └─ ✗ t.yaml:3:5: no match\n" +
					"  │       assertion: turn[0].text.must_match[0]\n" +
					"  └─ turn[1] (not run)\n" +
					"     └─ - t.yaml:7:5: not evaluated\n",
			}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := console.Write(&b, tc.r, tc.opts); err != nil {
				t.Fatal(err)
			}
			checkOutput(t, b.String(), tc.want, tc.notWant)
		})
	}
}

// TestWarnings: a failing warning shows with ⚠ and its details wherever
// failures show, after a failed test's failures; a passing test with
// warnings gets a WARN tree and stays passed in the summary; failure
// categories head a failed test only.
func TestWarnings(t *testing.T) {
	loc := func(line int) report.Location { return report.Location{File: "t.yaml", Line: line, Col: 7} }
	warn := func(scope string, line int) report.Assertion {
		return report.Assertion{ID: scope + ".grounded", Scope: scope, Source: loc(line), Severity: "warning", Status: status.Warn,
			Message: "1 claim appears in no input: \"23\"", Expected: "every number grounded", Observed: "1 ungrounded claim",
			Evidence: []report.Evidence{{Note: "ungrounded claim", Text: "Sunny, 23 °C.", EventRefs: []int64{3}}}}
	}
	turns := []report.Turn{{Index: 0, Type: "user", User: "hi"}, {Index: 1, Type: "user", User: "pay"}}
	failed := report.Test{Name: "checkout", File: "t.yaml", Status: status.Fail, Turns: turns, FailureCategories: []string{"process", "groundedness"},
		Assertions: []report.Assertion{
			warn("turn[0]", 3),
			{ID: "turn[1].tools.forbid[0]", Scope: "turn[1]", Source: loc(8), Severity: "critical", Status: status.Fail, Message: "forbidden call"},
			warn("turn[1]", 9),
		}}
	failedRun := &report.Report{Status: status.Fail, Totals: report.Totals{Total: 1, Failed: 1, Warned: 1}, Tests: []report.Test{failed}}
	sameTurn := *failedRun
	sameTurn.Tests = []report.Test{failed}
	sameTurn.Tests[0].Assertions = failed.Assertions[1:]
	flaky := reporttest.Pick(false, reporttest.Wobbly)
	ft := &flaky.Tests[0]
	ft.Assertions = append(ft.Assertions, warn("turn[0]", 12))
	flaky.Totals.Warned = 1
	for _, tc := range []struct {
		name    string
		r       *report.Report
		opts    console.Options
		want    []string
		notWant []string
	}{
		// The warning judge that could not be made (its model failed) is
		// shown with why, and counted; the test passes all the same.
		{"passing test with a warning and a check not made", reporttest.Pick(false, reporttest.Passing), console.Options{},
			[]string{
				"\nWARN weather in Paris  tests/weather.ananke.yaml\n" +
					"  usage: 10.2k tokens · cost unknown\n" +
					"  turn[0] \"weather?\"\n" +
					"    ! tests/weather.ananke.yaml:8:15: the judge gave no verdict: model gpt-4o-mini at https://models.example.com/v1: server error (500) after 3 attempts: upstream overloaded" +
					" (not made; severity warning, which never fails the test)\n" +
					"    ⚠ tests/weather.ananke.yaml:7:17: 1 claim in turn[0]'s reply appears in no tool result, tool argument, user message or history: \"23\" (char 7)\n" +
					"      assertion: turn[0].grounded\n" +
					"      expected:  every number in the reply found in a tool result, tool argument, user message or history\n" +
					"      observed:  1 ungrounded claim: \"23\"\n" +
					"      ungrounded claim: \"Sunny, 23 °C.\"\n",
				"Tests: 1 total, 1 passed, 0 failed, 0 errored, 0 skipped, 1 with warnings, 1 check not made (pass rate 100.0%)\n",
			},
			// A warning never reads as a failure, nor fails the run.
			[]string{"FAIL", "✗", "what went wrong", "--fail-on-flaky", "must_match"}},
		{"colour", reporttest.Pick(false, reporttest.Passing), console.Options{Color: true},
			[]string{"\x1b[33mWARN\x1b[0m", "\x1b[33m⚠\x1b[0m tests/weather.ananke.yaml:7:17", "\x1b[33m1 with warnings\x1b[0m"}, []string{"\x1b[31m"}},
		{"verbose", reporttest.Pick(false, reporttest.Passing), console.Options{Verbose: true},
			[]string{
				"WARN weather in Paris  tests/weather.ananke.yaml\n" +
					"  usage: 10.2k tokens · cost unknown\n" +
					"  └─ turn[0] \"weather?\" → \"Sunny, 23 °C.\"\n" +
					"     ├─ usage: 10.2k tokens · cost unknown\n" +
					"     ├─ ✓ tests/weather.ananke.yaml:6:21: assistant text matches `Sunny`\n" +
					"     ├─ ⚠ tests/weather.ananke.yaml:7:17: 1 claim in turn[0]'s reply",
				"     │    assertion: turn[0].grounded\n     │    expected:  every number",
				"     └─ ! tests/weather.ananke.yaml:8:15: the judge gave no verdict: model gpt-4o-mini",
			}, nil},
		// Warnings follow the failures, each under its turn.
		{"failed test with warnings", failedRun, console.Options{},
			[]string{
				"FAIL checkout  t.yaml\n" +
					"  what went wrong: the tool calls (process), claims the conversation does not back (groundedness)\n" +
					"  turn[1] \"pay\"\n" +
					"    ✗ t.yaml:8:7: forbidden call\n" +
					"      assertion: turn[1].tools.forbid[0]\n" +
					"  turn[0] \"hi\"\n" +
					"    ⚠ t.yaml:3:7: 1 claim appears in no input: \"23\"\n" +
					"      assertion: turn[0].grounded\n" +
					"      expected:  every number grounded\n" +
					"      observed:  1 ungrounded claim\n" +
					"      ungrounded claim: \"Sunny, 23 °C.\"\n" +
					"  turn[1] \"pay\"\n" +
					"    ⚠ t.yaml:9:7: 1 claim appears in no input: \"23\"\n",
				"1 failed, 0 errored, 0 skipped, 1 with warnings (pass",
			}, nil},
		// A first warning in the last failure's turn goes on under it.
		{"warning in the failure's turn", &sameTurn, console.Options{},
			[]string{
				"  turn[1] \"pay\"\n" +
					"    ✗ t.yaml:8:7: forbidden call\n" +
					"      assertion: turn[1].tools.forbid[0]\n" +
					"    ⚠ t.yaml:9:7: 1 claim appears in no input: \"23\"\n",
			}, []string{"turn[0]"}},
		// A flaky pass stays FLAKY; its warnings, from the attempt shown,
		// follow the assertion that wobbled. Its categories (from the run
		// that failed) are not shown: it passed.
		{"flaky test with warnings", flaky, console.Options{},
			[]string{
				"FLAKY search finds shoes  tests/search.ananke.yaml\n",
				"  turn[0] \"find red shoes\" (run 2)\n    ✗ tests/search.ananke.yaml:9:13",
				"  turn[0] \"find red shoes\" (run 3)\n    ⚠ t.yaml:12:7: 1 claim appears in no input",
			}, []string{"WARN", "what went wrong"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := console.Write(&b, tc.r, tc.opts); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(out, w) {
					t.Errorf("output has %q:\n%s", w, out)
				}
			}
			if strings.Contains(out, reporttest.Secret) {
				t.Error("the output shows the secret")
			}
		})
	}
}

// checkOutput checks that out holds every string of want and none of
// notWant.
func checkOutput(t *testing.T, out string, want, notWant []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	for _, w := range notWant {
		if strings.Contains(out, w) {
			t.Errorf("output has %q:\n%s", w, out)
		}
	}
}
