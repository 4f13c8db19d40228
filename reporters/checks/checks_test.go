package checks_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ananke/action/internal/github"
	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/checks"
)

func TestBuild(t *testing.T) {
	run := checks.Build(reporttest.Report(), checks.Options{Name: "ananke", HeadSHA: "abc123", DetailsURL: "https://github.com/o/r/actions/runs/1",
		LinkBase: "https://github.com/o/r/blob/abc123/", Artifact: "the `ananke-report` artifact", Footer: "Full report: the artifact", Annotations: true})
	b, _ := json.MarshalIndent(run, "", "  ")
	golden.Assert(t, "testdata/check.golden.json", string(b)+"\n")
	if strings.Contains(string(b), reporttest.Secret) {
		t.Error("the secret is in the check run")
	}
	for _, a := range run.Annotations {
		if strings.ContainsAny(a.Title+a.Message+a.RawDetails, "\x1b\x07") {
			t.Errorf("annotation %q holds a raw control character", a.Title)
		}
	}
	if run.Conclusion != "failure" || len(run.Annotations) != 8 {
		t.Errorf("conclusion %s, %d annotations; want failure and 8 (3 assertions, 1 error, 1 protocol warning, 1 flaky, 1 failing warning, 1 warning not made)", run.Conclusion, len(run.Annotations))
	}
	if run := checks.Build(reporttest.Report(), checks.Options{Annotations: false}); len(run.Annotations) != 0 {
		t.Error("annotations: false still annotates")
	}
}

func TestConclusionAndTitle(t *testing.T) {
	for _, tc := range []struct {
		status     status.Status
		t          report.Totals
		conclusion string
		title      string
	}{
		{status.Pass, report.Totals{Total: 3, Passed: 3}, "success", "3 of 3 tests passed"},
		{status.Fail, report.Totals{Total: 3, Passed: 1, Failed: 1, Errored: 1}, "failure", "1 failed, 1 errored of 3 tests"},
		{status.Error, report.Totals{Total: 2, Passed: 1, Errored: 1}, "failure", "1 errored of 2 tests"},
		{status.Pass, report.Totals{Total: 2, Skipped: 2}, "skipped", "0 of 2 tests passed"},
		{status.Pass, report.Totals{}, "neutral", "0 of 0 tests passed"},
		// Flaky tests are counted; they fail the check only when the run's
		// status says so (fail-on-flaky).
		{status.Pass, report.Totals{Total: 6, Passed: 5, Skipped: 1, Flaky: 1}, "success", "5 of 6 tests passed, 1 flaky"},
		{status.Fail, report.Totals{Total: 6, Passed: 4, Failed: 1, Skipped: 1, Flaky: 2}, "failure", "1 failed of 6 tests, 2 flaky"},
		{status.Fail, report.Totals{Total: 6, Passed: 6, Flaky: 2}, "failure", "2 flaky tests failed the run (fail-on-flaky); 6 of 6 tests passed"},
		{status.Fail, report.Totals{Total: 3, Passed: 2, Errored: 1, Flaky: 1}, "failure", "1 flaky test failed the run (fail-on-flaky); 1 errored of 3 tests"},
		// Tests with warnings are counted and never change the conclusion.
		{status.Pass, report.Totals{Total: 3, Passed: 3, Warned: 2}, "success", "3 of 3 tests passed, 2 with warnings"},
		{status.Fail, report.Totals{Total: 3, Passed: 2, Failed: 1, Flaky: 1, Warned: 3}, "failure", "1 failed of 3 tests, 1 flaky, 3 with warnings"},
		{status.Fail, report.Totals{Total: 2, Passed: 2, Flaky: 1, Warned: 1}, "failure", "1 flaky test failed the run (fail-on-flaky); 2 of 2 tests passed, 1 with warnings"},
		// A report without a status never passes with failures in it.
		{"", report.Totals{Total: 2, Passed: 1, Failed: 1}, "failure", "1 failed of 2 tests"},
	} {
		r := &report.Report{Status: tc.status, Totals: tc.t}
		if c, ti := checks.Conclusion(r), checks.Title(r); c != tc.conclusion || ti != tc.title {
			t.Errorf("%s %+v: %s %q; want %s %q", tc.status, tc.t, c, ti, tc.conclusion, tc.title)
		}
	}
}

// TestAnnotationsStayInTheRepository: positions outside the repository
// cannot be annotated.
func TestAnnotationsStayInTheRepository(t *testing.T) {
	r := reporttest.Report()
	r.Tests[0].Assertions[1].Source.File = "../elsewhere/x.yaml"
	r.Tests[0].Assertions[2].Source.File = "/abs/x.yaml"
	for _, a := range checks.Annotations(r) {
		if strings.HasPrefix(a.Path, "..") || strings.HasPrefix(a.Path, "/") {
			t.Errorf("annotation outside the repository: %+v", a)
		}
	}
}

// TestFailOnFlaky: the conclusion follows the run's status, so a flaky
// test that passed fails the check only under fail-on-flaky.
func TestFailOnFlaky(t *testing.T) {
	for _, tc := range []struct {
		failOnFlaky bool
		conclusion  string
		title       string
	}{
		{false, "success", "2 of 3 tests passed, 1 flaky, 1 with warnings, 1 check not made"},
		{true, "failure", "1 flaky test failed the run (fail-on-flaky); 2 of 3 tests passed, 1 with warnings, 1 check not made"},
	} {
		run := checks.Build(reporttest.Pick(tc.failOnFlaky, reporttest.Passing, reporttest.Skipped, reporttest.Wobbly), checks.Options{Name: "ananke", Annotations: true})
		if run.Conclusion != tc.conclusion || run.Title != tc.title {
			t.Errorf("fail-on-flaky %v: %s %q; want %s %q", tc.failOnFlaky, run.Conclusion, run.Title, tc.conclusion, tc.title)
		}
		// Flaky or not failing the run, the assertion that wobbled is a
		// warning: it passed in the run the report shows. So are the
		// passing test's failing warning and its warning judge not made.
		if len(run.Annotations) != 3 || run.Annotations[0].Level != github.LevelWarning || run.Annotations[1].Level != github.LevelWarning ||
			run.Annotations[2].Level != github.LevelWarning {
			t.Errorf("fail-on-flaky %v: annotations %+v; want three warnings", tc.failOnFlaky, run.Annotations)
		}
	}
}

// TestFlakyAnnotations: a flaky test that passed gets a warning at each
// assertion that wobbled, with its result from the first attempt it failed
// in; a repeated failure says in how many attempts each assertion failed.
func TestFlakyAnnotations(t *testing.T) {
	got := checks.Annotations(reporttest.Pick(false, reporttest.Passing, reporttest.Wobbly, reporttest.Flips))
	want := []github.Annotation{
		{Path: "tests/weather.ananke.yaml", Line: 8, Level: github.LevelWarning, Title: "weather in Paris: turn[0].judge (could not be checked; warning)",
			Message: "the judge gave no verdict: model gpt-4o-mini at https://models.example.com/v1: server error (500) after 3 attempts: upstream overloaded\n" +
				"expected: the judge finds every criterion true: \"answers in the user's units\"\nobserved: no verdict"},
		{Path: "tests/weather.ananke.yaml", Line: 7, Level: github.LevelWarning, Title: "weather in Paris: turn[0].grounded (warning)",
			Message: "1 claim in turn[0]'s reply appears in no tool result, tool argument, user message or history: \"23\" (char 7)\n" +
				"expected: every number in the reply found in a tool result, tool argument, user message or history\n" +
				"observed: 1 ungrounded claim: \"23\"",
			RawDetails: "ungrounded claim: \"Sunny, 23 °C.\""},
		{Path: "tests/search.ananke.yaml", Line: 9, Level: github.LevelWarning, Title: "search finds shoes: turn[0].tools.require[0]",
			Message: "flaky: failed in 1 of 3 runs (95% CI 6–79%), first in run 2: `search` was never called (no tool calls in turn[0])\n" +
				"expected: `search` at least 1 time\nobserved: 0 calls"},
		{Path: "tests/flip.ananke.yaml", Line: 9, Level: github.LevelFailure, Title: "search flips: turn[0].tools.require[0]",
			Message: "failed in 2 of 3 attempts (95% CI 21–94%): `search` was never called (no tool calls in turn[0])\n" +
				"expected: `search` at least 1 time\nobserved: 0 calls"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Annotations =\n%+v\nwant\n%+v", got, want)
	}
}

// TestErroredRuns: a repeated test that failed because its runs errored
// has no failing assertion; it gets one failure at its file, with its
// reason and attempts.
func TestErroredRuns(t *testing.T) {
	r := reporttest.Pick(false, reporttest.Flips)
	ft := &r.Tests[0]
	for i := range ft.Assertions {
		ft.Assertions[i].Status, ft.Assertions[i].FailedRuns = "skip", 0
	}
	for i := range ft.Attempts[:2] {
		a := &ft.Attempts[i]
		a.Status, a.Reason, a.Failed = status.Error, "agent unreachable", nil
	}
	want := []github.Annotation{{Path: "tests/flip.ananke.yaml", Line: 1, Level: github.LevelFailure, Title: "search flips: failed",
		Message:    "1 of 2 runs passed (50%), below min_pass_rate 100%",
		RawDetails: "run 1: error: agent unreachable\nrun 1 retry 1: error: agent unreachable\nrun 2: pass"}}
	if got := checks.Annotations(r); !reflect.DeepEqual(got, want) {
		t.Errorf("Annotations =\n%+v\nwant\n%+v", got, want)
	}
	ft.At = &report.Location{File: "ananke.config.yaml", Line: 12, Col: 3}
	if a := checks.Annotations(r)[0]; a.Path != "ananke.config.yaml" || a.Line != 12 {
		t.Errorf("annotation at %s:%d; want the reason's position ananke.config.yaml:12", a.Path, a.Line)
	}
}

// TestTitleLimit: an annotation's title stays within GitHub's 255
// characters, however long the test's name.
func TestTitleLimit(t *testing.T) {
	r := reporttest.Report()
	for i := range r.Tests {
		r.Tests[i].Name = strings.Repeat("é", 300)
	}
	for _, a := range checks.Annotations(r) {
		if n := utf8.RuneCountInString(a.Title); n > 255 || !strings.HasSuffix(a.Title, "…") {
			t.Errorf("title of %d characters: %q", n, a.Title)
		}
	}
}

// TestNoSecret: the planted secret is in no part of any check run.
func TestNoSecret(t *testing.T) {
	for _, r := range []*report.Report{reporttest.Report(), reporttest.Pick(true, reporttest.Passing, reporttest.Skipped, reporttest.Wobbly, reporttest.Flips)} {
		b, _ := json.Marshal(checks.Build(r, checks.Options{Name: "ananke", Annotations: true, LinkBase: "https://github.com/o/r/blob/abc/"}))
		if strings.Contains(string(b), reporttest.Secret) {
			t.Errorf("the secret is in the check run of %d tests", len(r.Tests))
		}
	}
}

// TestWarnings: a failing warning is a warning annotation at its YAML line,
// for a test that passed or failed alike, and never fails the check run.
func TestWarnings(t *testing.T) {
	passed := reporttest.Pick(false, reporttest.Passing)
	failed := reporttest.Pick(false, reporttest.Failing, reporttest.Passing)
	ft := &failed.Tests[0]
	ft.Assertions = append(ft.Assertions, failed.Tests[1].Warned()...)
	for _, tc := range []struct {
		name       string
		r          *report.Report
		conclusion string
		levels     string // of the annotations, in order
	}{
		// The warning judge that could not be made, then the failing
		// warning.
		{"passed", passed, "success", "warning warning"},
		// The failures first, then the failing test's warning (and its
		// protocol warning), then the passing test's two.
		{"failed", failed, "failure", "failure failure warning warning warning warning"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := checks.Build(tc.r, checks.Options{Name: "ananke", Annotations: true})
			var levels []string
			for _, a := range run.Annotations {
				levels = append(levels, a.Level)
			}
			if run.Conclusion != tc.conclusion || strings.Join(levels, " ") != tc.levels {
				t.Errorf("conclusion %s, annotation levels %q; want %s, %q", run.Conclusion, levels, tc.conclusion, tc.levels)
			}
			found := false
			for _, a := range run.Annotations {
				if a.Path == "tests/weather.ananke.yaml" && a.Line == 7 && strings.HasSuffix(a.Title, ": turn[0].grounded (warning)") {
					found = a.Level == github.LevelWarning
				}
			}
			if !found {
				t.Errorf("no warning annotation at tests/weather.ananke.yaml:7 in %+v", run.Annotations)
			}
			if !strings.Contains(run.Summary, "- ⚠ `tests/weather.ananke.yaml:7`: 1 claim") {
				t.Errorf("the summary does not list the warning:\n%s", run.Summary)
			}
			if b, _ := json.Marshal(run); strings.Contains(string(b), reporttest.Secret) {
				t.Error("the secret is in the check run")
			}
		})
	}
}

// TestBuildLead: the summary's lead comes under its heading, before the
// totals.
func TestBuildLead(t *testing.T) {
	lead := "**1 new failure**\n\nCompared with [run #41](https://github.com/o/r/actions/runs/41)."
	run := checks.Build(reporttest.Report(), checks.Options{Name: "ananke", Lead: lead})
	heading, rest, _ := strings.Cut(run.Summary, "\n\n")
	if !strings.HasPrefix(heading, "### ✗ ananke: ") || !strings.HasPrefix(rest, lead+"\n\n| Total |") {
		t.Errorf("the lead is not under the heading:\n%s", run.Summary)
	}
}
