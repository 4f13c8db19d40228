package checks_test

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ananke/action/internal/github"
	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/checks"
	"github.com/ananke/action/reporters/internal/suitetest"
)

// TestBuildSuite: a failed after_all hook, tests from a dataset, a failing
// script and an after hook that could not clean up, as one check run.
func TestBuildSuite(t *testing.T) {
	run := checks.Build(suitetest.Report(), checks.Options{Name: "ananke", HeadSHA: "abc123", DetailsURL: "https://github.com/o/r/actions/runs/1",
		LinkBase: "https://github.com/o/r/blob/abc123/", Artifact: "the `ananke-report` artifact", Annotations: true})
	b, _ := json.MarshalIndent(run, "", "  ")
	golden.Assert(t, "testdata/check-suite.golden.json", string(b)+"\n")
	if strings.Contains(string(b), suitetest.Secret) {
		t.Error("the secret is in the check run")
	}
	if !strings.HasPrefix(run.Summary, "### ✗ ananke: after_all\\[0\\] failed; 1 failed, 1 errored of 3 tests, 1 check not made\n") {
		t.Errorf("the summary does not name the hook:\n%s", run.Summary)
	}
}

// TestHookAnnotations: a failed suite hook is a failure at its line in
// the config, first, with its message and stderr; the tests a failed
// before_all errored are counted there, not annotated one by one at the
// same line.
func TestHookAnnotations(t *testing.T) {
	afterAll := github.Annotation{Path: "ananke.config.yaml", Line: 9, Level: github.LevelFailure, Title: "after_all[0] failed",
		Message:    `after_all[0]: hook "./cleanup.sh" exited with status 1; stderr: boom`,
		RawDetails: "removing tmp/orders with key ***\nboom"}
	outside := suitetest.Pick(suitetest.Smoke)
	outside.Hooks[1].Source.File = "../ananke.config.yaml"
	for _, tc := range []struct {
		name       string
		r          *report.Report
		want       []github.Annotation
		conclusion string
		title      string
	}{
		// Every test passed: the hook alone fails the check run.
		{"after_all failed", suitetest.Pick(suitetest.Smoke), []github.Annotation{afterAll}, "failure", "after_all[0] failed; 1 of 1 tests passed"},
		{"before_all failed", suitetest.BeforeAllFailed(), []github.Annotation{{Path: "ananke.config.yaml", Line: 6, Level: github.LevelFailure,
			Title:      "before_all[0] failed",
			Message:    "before_all[0]: hook \"./seed.sh\" exited with status 3; stderr: database unreachable\n3 tests errored because of it",
			RawDetails: "connecting to db\ndatabase unreachable"}}, "failure", "before_all[0] failed; 3 errored of 3 tests"},
		// A config outside the repository cannot be annotated; the title
		// still names the hook.
		{"outside the repository", outside, nil, "failure", "after_all[0] failed; 1 of 1 tests passed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := checks.Build(tc.r, checks.Options{Name: "ananke", Annotations: true})
			if !reflect.DeepEqual(run.Annotations, tc.want) {
				t.Errorf("Annotations =\n%+v\nwant\n%+v", run.Annotations, tc.want)
			}
			if run.Conclusion != tc.conclusion || run.Title != tc.title {
				t.Errorf("%s %q; want %s %q", run.Conclusion, run.Title, tc.conclusion, tc.title)
			}
		})
	}
}

// TestHookTitles: the title names the failed suite hooks before the
// tests' counts; passing hooks are not mentioned.
func TestHookTitles(t *testing.T) {
	hook := func(phase string, i int, st status.Status) report.Hook {
		return report.Hook{Phase: phase, Index: i, Status: st}
	}
	for _, tc := range []struct {
		hooks []report.Hook
		title string
	}{
		{[]report.Hook{hook("before_all", 0, status.Pass), hook("after_all", 0, status.Pass)}, "3 of 3 tests passed"},
		{[]report.Hook{hook("before_all", 0, status.Pass), hook("after_all", 0, status.Error)}, "after_all[0] failed; 3 of 3 tests passed"},
		{[]report.Hook{hook("after_all", 0, status.Error), hook("after_all", 1, status.Error)}, "after_all[0] and after_all[1] failed; 3 of 3 tests passed"},
	} {
		r := &report.Report{Status: status.Error, Totals: report.Totals{Total: 3, Passed: 3}, Hooks: tc.hooks}
		if got := checks.Title(r); got != tc.title {
			t.Errorf("Title = %q; want %q", got, tc.title)
		}
		if got := checks.Conclusion(r); got != "failure" {
			t.Errorf("Conclusion = %s; want failure: the run's status is error", got)
		}
	}
}

// TestDatasetLines: a test from a dataset whose cause has no position is
// annotated at its own line, as are its protocol warnings; a test file's
// stay at line 1.
func TestDatasetLines(t *testing.T) {
	r := suitetest.Pick(suitetest.Invoice, suitetest.Smoke)
	for i := range r.Tests {
		r.Tests[i].Warnings = []report.Warning{{Turn: 0, Seq: 2, Rule: "identity", Message: "no echo"}}
	}
	var got []string
	for _, a := range checks.Annotations(r) {
		got = append(got, a.Path+":"+strconv.Itoa(a.Line)+" "+a.Level+" "+a.Title)
	}
	want := []string{
		"ananke.config.yaml:9 failure after_all[0] failed",
		"tests/receipts.ananke.jsonl:4 failure reads a scanned invoice: error",
		"tests/receipts.ananke.jsonl:4 warning reads a scanned invoice: 1 protocol warning(s)",
		"tests/smoke.ananke.yaml:1 warning says hello: 1 protocol warning(s)",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("annotations\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestErroredChecks: a check that could not be made is a failure at its
// line, even in a test that failed otherwise; the one an errored test's
// reason tells of is not annotated twice.
func TestErroredChecks(t *testing.T) {
	r := suitetest.Pick(suitetest.Receipt)
	var titles []string
	for _, a := range checks.Annotations(r) {
		titles = append(titles, a.Title)
	}
	if want := "reads the receipt total: test.after[0] (could not be checked)"; !strings.Contains(strings.Join(titles, "\n"), want) {
		t.Errorf("no annotation %q in\n%s", want, strings.Join(titles, "\n"))
	}
	// The same test, errored by its after hook alone, as the engine
	// reports it: the reason is the hook's message at the hook's line.
	rt := &r.Tests[0]
	rt.Status, rt.Reason = status.Error, rt.Assertions[2].Message
	at := rt.Assertions[2].Source
	rt.At = &at
	for i := range rt.Assertions[:2] {
		rt.Assertions[i].Status = status.Pass
	}
	var lines []string
	for _, a := range checks.Annotations(r) {
		lines = append(lines, a.Title+" @"+strconv.Itoa(a.Line))
	}
	want := []string{"after_all[0] failed @9", "reads the receipt total: error @3"}
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("annotations %q; want %q", lines, want)
	}
}
