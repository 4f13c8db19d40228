package checks_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/github"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/checks"
)

// TestQuarantineCheckRun: a run whose only failure and error are
// quarantined concludes success; its title counts them apart; every
// annotation of a quarantined test is a warning, marked, and its entry
// gets a notice; the others' are as they were.
func TestQuarantineCheckRun(t *testing.T) {
	r := reporttest.QuarantineReport(reporttest.Failing, reporttest.Passing, reporttest.Errored, reporttest.Wobbly)
	if c := checks.Conclusion(r); c != "success" {
		t.Errorf("conclusion %s, want success", c)
	}
	if got, want := checks.Title(r), "1 of 1 tests passed, 1 flaky, 3 quarantined (1 failed, 1 errored, not failing the run), 1 with warnings, 1 check not made"; got != want {
		t.Errorf("title %q, want %q", got, want)
	}
	var notices []string
	for _, a := range checks.Annotations(r) {
		quarantined := strings.HasPrefix(a.Title, "(quarantined) ")
		switch {
		case a.Level == github.LevelFailure:
			t.Errorf("a failure annotation: %+v", a)
		case a.Level == github.LevelNotice:
			notices = append(notices, a.Path+": "+a.Message)
		case strings.HasPrefix(a.Title, "search finds shoes") == quarantined:
			t.Errorf("annotation %q: marked quarantined %v", a.Title, quarantined)
		}
	}
	want := []string{
		"ananke.config.yaml: checkout declines the card failed (2 failed assertions); quarantined: the payment sandbox declines at random " +
			"(until 2026-12-31, @payments, https://github.com/acme/shop/issues/42, ananke.config.yaml:12), so it fails nothing",
		".ananke/quarantine.yaml: refund needs a seeded order errored; quarantined: waiting for the v2 agent (.ananke/quarantine.yaml:2), so it fails nothing",
	}
	if strings.Join(notices, "\n") != strings.Join(want, "\n") {
		t.Errorf("notices:\n%s\nwant\n%s", strings.Join(notices, "\n"), strings.Join(want, "\n"))
	}
	// Not quarantined, the same tests fail the check run.
	plain := reporttest.Pick(false, reporttest.Failing, reporttest.Passing, reporttest.Errored, reporttest.Wobbly)
	if c := checks.Conclusion(plain); c != "failure" {
		t.Errorf("without quarantine: conclusion %s", c)
	}
	all := reporttest.QuarantineReport(reporttest.Failing, reporttest.Passing)
	if got, want := checks.Title(all), "2 quarantined tests (1 failed, not failing the run), 1 with warnings, 1 check not made"; got != want {
		t.Errorf("every test quarantined: title %q, want %q", got, want)
	}
}
