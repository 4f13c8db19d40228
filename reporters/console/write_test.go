package console_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/console"
)

// TestWriteCases covers what the fixture report does not: a run failed
// only by flaky tests, an attempt that errored, a turn that never ran.
func TestWriteCases(t *testing.T) {
	flaky := report.Test{Name: "search", File: "tests/search.ananke.yaml", Status: report.StatusPass,
		Runs: 2, PassedRuns: 1, PassRate: 50, MinPassRate: 50, Flaky: true, Shown: 2,
		Attempts: []report.Attempt{{Run: 1, Status: report.StatusError, Reason: "turn[0]: agent timed out after 30s"}, {Run: 2, Status: report.StatusPass}}}
	stopped := report.Test{Name: "checkout", File: "tests/checkout.ananke.yaml", Status: report.StatusFail,
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
		{"failed by flaky tests", &report.Report{Status: report.StatusFail, FailOnFlaky: true,
			Totals: report.Totals{Total: 1, Passed: 1, Flaky: 1, PassRate: 100}, Tests: []report.Test{flaky}}, console.Options{},
			[]string{
				"FLAKY search  tests/search.ananke.yaml\n",
				"  1 of 2 runs passed (50%); min_pass_rate 50%\n",
				"  attempts: run 1 !, run 2 ✓\n",
				"    run 1: turn[0]: agent timed out after 30s\n",
				"Tests: 1 total, 1 passed, 0 failed, 0 errored, 0 skipped, 1 flaky (pass rate 100.0%)\n" +
					"Flaky tests fail the run (--fail-on-flaky).\n",
			}, nil},
		{"flaky tests tolerated", &report.Report{Status: report.StatusPass,
			Totals: report.Totals{Total: 1, Passed: 1, Flaky: 1, PassRate: 100}, Tests: []report.Test{flaky}}, console.Options{},
			[]string{"1 flaky"}, []string{"--fail-on-flaky"}},
		{"failed, not because of flakiness", &report.Report{Status: report.StatusFail,
			Totals: report.Totals{Total: 1, Failed: 1}, Tests: []report.Test{stopped}}, console.Options{},
			[]string{"0 skipped (pass rate"}, []string{"flaky"}},
		{"verbose: turn not run", &report.Report{Status: report.StatusFail,
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
		})
	}
}
