package checks_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/github"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/checks"
)

// TestBlameCheckRun: with the base branch's history, the title counts the
// failures by verdict, the summary has the History section, and every
// annotation of a failing test ends with its verdict; a passing test's are
// as they were, and without a history nothing changes.
func TestBlameCheckRun(t *testing.T) {
	r := reporttest.HistoryReport()
	run := checks.Build(r, checks.Options{Name: "ananke", Annotations: true})
	if want := "2 failed, 1 errored of 6 tests (1 new failure, 1 known flaky on main, 1 already failing on main), 2 flaky, 1 with warnings, 1 check not made"; run.Title != want {
		t.Errorf("title %q, want %q", run.Title, want)
	}
	if !strings.Contains(run.Summary, "| ✗ | checkout declines the card | known flaky on main (fails 4 of the last 20); p = 0.24, within noise |") {
		t.Errorf("summary lacks the History section:\n%s", run.Summary)
	}
	says := map[string]string{
		"checkout declines the card":  "\nHistory: known flaky on main (fails 4 of the last 20); p = 0.24, within noise",
		"refund needs a seeded order": "\nHistory: already failing on main since run #39",
		"search flips":                "\nHistory: new failure (passed the last 20 runs on main)",
	}
	seen := map[string]bool{}
	for _, a := range run.Annotations {
		name, _, _ := strings.Cut(a.Title, ":")
		want, failing := says[name]
		switch {
		case failing && !strings.HasSuffix(a.Message, want):
			t.Errorf("annotation %q of a failing test: message %q, want it to end %q", a.Title, a.Message, want)
		case !failing && strings.Contains(a.Message, "History:"):
			t.Errorf("annotation %q of a test that did not fail: %q", a.Title, a.Message)
		}
		seen[name] = seen[name] || failing && a.Level == github.LevelFailure
	}
	for name := range says {
		if !seen[name] {
			t.Errorf("no failure annotation of %s", name)
		}
	}
	plain := checks.Build(reporttest.Report(), checks.Options{Name: "ananke", Annotations: true})
	if strings.Contains(plain.Title, "new failure") || strings.Contains(plain.Summary, "History") {
		t.Errorf("without a history: title %q", plain.Title)
	}
	for _, a := range plain.Annotations {
		if strings.Contains(a.Message, "History:") {
			t.Errorf("without a history: annotation %+v", a)
		}
	}
}
