package markdown_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/markdown"
)

// TestAdaptiveMarkdown: the heading counts inconclusive tests, or says
// they failed the run under fail-on-inconclusive; a line under the totals
// says what adaptive runs saved; a test's runs say whether its verdict
// settled.
func TestAdaptiveMarkdown(t *testing.T) {
	all := markdown.Render(reporttest.AdaptiveReport(false, reporttest.SettledPass, reporttest.SettledFail, reporttest.Inconclusive, reporttest.Fixed), markdown.Options{})
	for _, want := range []string{
		"### ✗ Ananke: 1 failed of 4 tests, 1 inconclusive\n",
		"Adaptive runs: 33 of at most 63 runs (30 saved by stopping once settled), 1 inconclusive.\n",
		"| 24/24 (100%, 95% CI 86–100%), settled |",
		"| 0/6 (0%, 95% CI 0–39%), settled |",
		"| 3/3 (100%, 95% CI 44–100%), ? inconclusive |",
		"| 3/3 (100%, 95% CI 44–100%) |",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("markdown lacks %q:\n%s", want, all)
		}
	}
	failed := markdown.Render(reporttest.AdaptiveReport(true, reporttest.Inconclusive), markdown.Options{})
	if want := "### ✗ Ananke: 1 inconclusive test failed the run (fail-on-inconclusive); 1 test passed\n"; !strings.HasPrefix(failed, want) {
		t.Errorf("heading %q, want %q", strings.SplitN(failed, "\n", 2)[0], want)
	}
	if fixed := markdown.Render(reporttest.AdaptiveReport(false, reporttest.Fixed), markdown.Options{}); strings.Contains(fixed, "Adaptive runs") || strings.Contains(fixed, "settled") {
		t.Errorf("a run of fixed runs speaks of adaptive runs:\n%s", fixed)
	}
}
