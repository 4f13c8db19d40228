package prcomment_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/internal/suitetest"
	"github.com/ananke/action/reporters/prcomment"
)

func TestBody(t *testing.T) {
	body := prcomment.Body(reporttest.Report(), prcomment.Options{CheckName: "agent tests", LinkBase: "https://github.com/o/r/blob/abc/",
		Artifact: "the `ananke-report` artifact", Footer: "Full report: the `ananke-report` artifact · [workflow run](https://github.com/o/r/actions/runs/1)"})
	golden.Assert(t, "testdata/comment.golden.md", body)
	if !strings.HasPrefix(body, "<!-- ananke:report:agent tests -->\n") {
		t.Error("the marker does not come first")
	}
	if len(body) > 65000 || strings.Contains(body, reporttest.Secret) {
		t.Errorf("%d bytes; secret present %v", len(body), strings.Contains(body, reporttest.Secret))
	}
}

// TestBodyHooks: the comment is the shared markdown, so a failed after_all
// hook is named in its heading and listed, with its stderr, under the
// totals, even when every test passed; dataset tests link to their lines.
func TestBodyHooks(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    *report.Report
		want []string
	}{
		{"tests passed", suitetest.Pick(suitetest.Smoke), []string{
			"<!-- ananke:report:agent tests -->\n### ! agent tests: after_all\\[0\\] failed; 1 test passed\n",
			"! `after_all[0]` at [`ananke.config.yaml:9`](https://github.com/o/r/blob/abc/ananke.config.yaml#L9): hook \"./cleanup.sh\" exited with status 1; stderr: boom\n",
			"```text\nremoving tmp/orders with key ***\nboom\n```\n",
		}},
		{"dataset", suitetest.Report(), []string{
			"[`tests/receipts.ananke.jsonl:3`](https://github.com/o/r/blob/abc/tests/receipts.ananke.jsonl#L3)",
			"“What is the total on this receipt?” + receipt.png (image/png, 2.1 KiB)",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := prcomment.Body(tc.r, prcomment.Options{CheckName: "agent tests", LinkBase: "https://github.com/o/r/blob/abc/", Artifact: "the `ananke-report` artifact"})
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("comment lacks %q:\n%s", w, body)
				}
			}
			if strings.Contains(body, suitetest.Secret) {
				t.Error("the comment shows the secret")
			}
		})
	}
}

// TestBodyLead: the lead comes under the heading, before the totals.
func TestBodyLead(t *testing.T) {
	lead := "**1 new failure**\n\nCompared with [run #41](https://github.com/o/r/actions/runs/41)."
	body := prcomment.Body(reporttest.Report(), prcomment.Options{CheckName: "agent tests", Lead: lead})
	want := "<!-- ananke:report:agent tests -->\n### ✗ agent tests: 2 failed, 1 errored of 6 tests, 2 flaky, 1 with warnings, 1 check not made\n\n" + lead + "\n\n| Total |"
	if !strings.HasPrefix(body, want) {
		t.Errorf("body starts\n%s\nwant\n%s", body[:min(len(body), len(want)+40)], want)
	}
}

// TestBodyHistory: read against the base branch's history, the comment
// marks each failing test — new failure, known flaky, already failing —
// in its heading, its History section and each test's block.
func TestBodyHistory(t *testing.T) {
	body := prcomment.Body(reporttest.HistoryReport(reporttest.Failing, reporttest.Flips, reporttest.Passing), prcomment.Options{CheckName: "agent tests"})
	for _, want := range []string{
		"### ✗ agent tests: 2 failed of 3 tests (1 new failure, 1 known flaky on main), 1 flaky",
		"| ✗ | search flips | **new failure (passed the last 20 runs on main)** | ✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓ |",
		"| ✗ | checkout declines the card | known flaky on main (fails 4 of the last 20); p = 0.24, within noise | ✓✓✗✓✓✓✗✓✓✓✓✗✓✓✓✓✓✗✓✓ |",
		"<summary>✗ <b>search flips</b> — 1 failed assertion (process), new failure (passed the last 20 runs on main), 1/2 runs passed",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("comment lacks %q:\n%s", want, body)
		}
	}
}

// TestBodyAttacks: the comment is the shared markdown, so a run failed by
// its attacks' gate says so first in its heading, and the Attacks section
// gives the totals, the table and the attacks that succeeded, linked to
// where they were planted.
func TestBodyAttacks(t *testing.T) {
	body := prcomment.Body(reporttest.AttacksReport(true, reporttest.Passing, reporttest.Wobbly), prcomment.Options{CheckName: "agent tests",
		LinkBase: "https://github.com/o/r/blob/abc/", Artifact: "the `ananke-report` artifact"})
	golden.Assert(t, "testdata/comment-attacks.golden.md", body)
	for _, want := range []string{
		"<!-- ananke:report:agent tests -->\n### ✗ agent tests: 3 of 8 attack runs succeeded (37.5%), above the allowed 0%; all 2 tests passed",
		"**Attacks:** 10 runs · 3 succeeded (37.5%)",
		"Planted at [`tests/weather.ananke.yaml:4`](https://github.com/o/r/blob/abc/tests/weather.ananke.yaml#L4)",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("comment lacks %q", want)
		}
	}
	if strings.Contains(body, reporttest.Secret) {
		t.Error("the comment shows the secret")
	}
}
