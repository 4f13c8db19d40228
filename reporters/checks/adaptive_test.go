package checks_test

import (
	"testing"

	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/checks"
)

// TestAdaptiveTitle: the check run's title counts inconclusive tests, or
// says they failed the run under fail-on-inconclusive.
func TestAdaptiveTitle(t *testing.T) {
	for _, tc := range []struct {
		fail  bool
		tests []int
		want  string
	}{
		{false, []int{reporttest.SettledPass, reporttest.Inconclusive}, "2 of 2 tests passed, 1 inconclusive"},
		{true, []int{reporttest.SettledPass, reporttest.Inconclusive}, "1 inconclusive test failed the run (fail-on-inconclusive); 2 of 2 tests passed"},
		{true, []int{reporttest.SettledFail, reporttest.Inconclusive}, "1 failed of 2 tests, 1 inconclusive"},
	} {
		r := reporttest.AdaptiveReport(tc.fail, tc.tests...)
		if got := checks.Title(r); got != tc.want {
			t.Errorf("Title = %q, want %q", got, tc.want)
		}
		if got, want := checks.Conclusion(r), map[bool]string{true: "failure", false: "success"}[tc.fail || tc.tests[0] == reporttest.SettledFail]; got != want {
			t.Errorf("Conclusion = %q, want %q", got, want)
		}
	}
}
