package markdown_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/markdown"
)

// TestQuarantineMarkdown: the heading's verdict is the tests' not
// quarantined, the quarantined ones counted after it; the Quarantined
// section lists the failed and errored ones with their reasons and
// entries, names the one stable in this run and gives the advice; their
// rows and blocks are marked, their blocks after the failures that count.
func TestQuarantineMarkdown(t *testing.T) {
	r := reporttest.QuarantineReport(reporttest.Failing, reporttest.Passing, reporttest.Errored, reporttest.Wobbly, reporttest.Flips)
	err := r.Advise(report.QuarantineAdvice{Test: "tests/search", Action: report.AdviseQuarantine, Reason: "fails 6 of the last 20 runs on main (30%)"},
		report.QuarantineAdvice{Test: "tests/weather", Action: report.AdviseRelease, Reason: "passed the last 30 runs on main"})
	if err != nil {
		t.Fatal(err)
	}
	md := markdown.Render(r, markdown.Options{LinkBase: "https://github.com/acme/shop/blob/abc/"})
	golden.Assert(t, "testdata/quarantine.golden.md", md)
	if i, j := strings.Index(md, "<summary>✗ <b>search flips</b>"), strings.Index(md, "<summary>✗ <b>checkout declines the card</b> — quarantined"); i < 0 || j < i {
		t.Errorf("the quarantined failure's block is not after the failure that counts (%d, %d)", i, j)
	}
	// Only quarantined failures: the run passes, and the heading says so.
	pass := markdown.Render(reporttest.QuarantineReport(reporttest.Failing, reporttest.Wobbly), markdown.Options{})
	if want := "### ✓ Ananke: 1 test passed, 1 flaky, 1 quarantined (1 failed, not failing the run)\n"; !strings.HasPrefix(pass, want) {
		t.Errorf("heading %q, want %q", strings.SplitN(pass, "\n", 2)[0], want)
	}
	all := markdown.Render(reporttest.QuarantineReport(reporttest.Failing), markdown.Options{})
	if want := "### ✓ Ananke: 1 quarantined test (1 failed, not failing the run)\n"; !strings.HasPrefix(all, want) {
		t.Errorf("heading %q, want %q", strings.SplitN(all, "\n", 2)[0], want)
	}
	// A budget too small for the section leaves it out, never the totals.
	small := markdown.Render(r, markdown.Options{Budget: 600})
	if len(small) > 600 || strings.Contains(small, "**Quarantined:**") || !strings.Contains(small, "| Total |") {
		t.Errorf("within 600 bytes (%d):\n%s", len(small), small)
	}
}
