package markdown_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/markdown"
)

// TestBlameMarkdown: with the base branch's history attached, the heading
// counts the failures by verdict; the History section lists each failing
// test — the new failure first, in bold — with its verdict, the p-value
// that decided a known-flaky one, and its runs on main as marks; each
// failing test's block says its verdict.
func TestBlameMarkdown(t *testing.T) {
	r := reporttest.HistoryReport()
	md := markdown.Render(r, markdown.Options{LinkBase: "https://github.com/acme/shop/blob/abc/"})
	golden.Assert(t, "testdata/history.golden.md", md)
	for _, want := range []string{
		"### ✗ Ananke: 2 failed, 1 errored of 6 tests (1 new failure, 1 known flaky on main, 1 already failing on main), 2 flaky",
		"**History:** the failing tests against the last 20 runs on `main`: 1 new failure, 1 known flaky on main, 1 already failing on main.\n",
		"| ✗ | search flips | **new failure (passed the last 20 runs on main)** | ✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓ |\n",
		"| ✗ | checkout declines the card | known flaky on main (fails 4 of the last 20); p = 0.24, within noise | ✓✓✗✓✓✓✗✓✓✓✓✗✓✓✓✓✓✗✓✓ |\n",
		"| ! | refund needs a seeded order | already failing on main since run #\u206039 | ✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓!!! |\n",
		"<summary>✗ <b>checkout declines the card</b> — 2 failed assertions (process, outcome), known flaky on main (fails 4 of the last 20)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
	if i, j := strings.Index(md, "| search flips | **new"), strings.Index(md, "| checkout declines the card | known"); i < 0 || j < i {
		t.Errorf("the new failure is not listed first (%d, %d)", i, j)
	}
	// Without a history, nothing of it.
	plain := markdown.Render(reporttest.Report(), markdown.Options{})
	if strings.Contains(plain, "History") || strings.Contains(plain, "new failure") {
		t.Errorf("a report without history speaks of it:\n%s", plain)
	}
	// A budget too small for the section leaves it out, never the totals.
	small := markdown.Render(r, markdown.Options{Budget: 700})
	if len(small) > 700 || strings.Contains(small, "**History:**") || !strings.Contains(small, "| Total |") {
		t.Errorf("within 700 bytes (%d):\n%s", len(small), small)
	}
}

// TestBlameQuarantinedAndWorse: a quarantined failure is listed last and
// not counted; a known-flaky test that fails more often here counts as
// new, in bold, with its p-value; a history of more runs than the trend
// shows keeps the newest.
func TestBlameQuarantinedAndWorse(t *testing.T) {
	r := reporttest.HistoryReport(reporttest.Failing, reporttest.Flips, reporttest.Passing)
	r.Tests[0].Quarantined = &report.Quarantined{Reason: "sandbox", Match: "tests/checkout"}
	p := 0.012
	r.Tests[1].History = &report.TestHistory{Sequence: strings.Repeat("p", 25) + "ffpffppppppppppppppp", Blame: "flaky", New: true, P: &p,
		Says: "known flaky on main (fails 4 of the last 45)"}
	md := markdown.Render(r, markdown.Options{})
	for _, want := range []string{
		"(1 new failure)",
		"| ✗ | search flips | **known flaky on main (fails 4 of the last 45); fails more often here (p = 0.012 at significance 0.05): counts as new** | …✗✗✓✗✗✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓ |\n",
		"| ✗ | checkout declines the card (quarantined) | known flaky on main (fails 4 of the last 20); p = 0.24, within noise |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}
