package markdown_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/markdown"
)

// TestUsage: in a run whose agent reported usage, the totals and the table
// of tests have a Cost column — "—" for a test whose agent reported none,
// empty for a skipped test, never a zero for what is unknown, the dollar
// sign escaped so GitHub reads no math; a run without usage has no such
// column and no word of usage.
func TestUsage(t *testing.T) {
	out := markdown.Render(reporttest.Report(), markdown.Options{})
	checkStructure(t, out)
	checkInert(t, out, "")
	for _, want := range []string{
		"| Total | Passed | Failed | Errored | Skipped | Flaky | Pass rate | Duration | Cost |\n|--:|--:|--:|--:|--:|--:|--:|--:|---|\n" +
			"| 6 | 2 | 2 | 1 | 1 | 2 | 40.0% | 1.7s | ≥ 30.3k tokens (usage unknown for 2 of 5 tests) |\n",
		"| | Test | File | Duration | Failed assertions | Runs | Flaky | Cost |\n|:-:|---|---|--:|--:|--:|:-:|---|\n",
		"| 1.6s | 2 | - |  | 5k tokens · \\$0.0036 |\n",
		"| 35ms |  | - |  | — |\n",
		"| 0ms |  |  |  |  |\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"$0.00 ", "0 tokens", " $"} {
		if strings.Contains(out, bad) {
			t.Errorf("output has %q:\n%s", bad, out)
		}
	}
	none := markdown.Render(reporttest.ReportWithoutUsage(), markdown.Options{})
	for _, bad := range []string{"Cost", "tokens", "usage"} {
		if strings.Contains(none, bad) {
			t.Errorf("a run without usage shows %q:\n%s", bad, none)
		}
	}
}
