package markdown_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/reporters/internal/suitetest"
	"github.com/ananke/action/reporters/markdown"
)

// TestSuiteGolden: suite hooks, tests from a dataset, attachments, a
// failing script and an after hook that could not clean up, rendered with
// links; and a run whose before_all hook failed.
func TestSuiteGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    *report.Report
		opts markdown.Options
	}{
		{"suite.golden.md", suitetest.Report(), markdown.Options{LinkBase: "https://github.com/o/r/blob/0123abc/"}},
		{"before-all.golden.md", suitetest.BeforeAllFailed(), markdown.Options{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := markdown.Render(tc.r, tc.opts)
			golden.Assert(t, "testdata/"+tc.name, out)
			checkStructure(t, out)
			checkInert(t, out, tc.opts.LinkBase)
			if strings.Contains(out, suitetest.Secret) {
				t.Error("the output shows the secret")
			}
		})
	}
}

// TestHooks: a failed suite hook is named in the heading and listed under
// the totals at its config line, with its stderr once; dataset tests are
// at their own lines; a turn's attachments follow the user's message; a
// check that could not be made is listed with the failures.
func TestHooks(t *testing.T) {
	passedHooks := suitetest.Pick(suitetest.Smoke)
	for i := range passedHooks.Hooks {
		h := &passedHooks.Hooks[i]
		h.Status, h.Message, h.Detail = status.Pass, "", ""
	}
	passedHooks.Status = status.Pass
	manyHooks := suitetest.Pick(suitetest.Smoke)
	for i := range 6 {
		h := manyHooks.Hooks[1]
		h.Index = i + 1
		h.Message = strings.Replace(h.Message, "after_all[0]", fmt.Sprintf("after_all[%d]", i+1), 1)
		manyHooks.Hooks = append(manyHooks.Hooks, h)
	}
	const link = "https://github.com/o/r/blob/0123abc/"
	for _, tc := range []struct {
		name    string
		r       *report.Report
		opts    markdown.Options
		want    []string
		notWant []string
	}{
		{"tests passed, after_all failed", suitetest.Pick(suitetest.Smoke), markdown.Options{}, []string{
			"### ! Ananke: after_all\\[0\\] failed; 1 test passed\n",
			"|--:|--:|--:|--:|--:|--:|--:|--:|---|\n| 1 | 1 | 0 | 0 | 0 | 0 | 100.0% | 2.1s | 820 tokens · \\$0.0009 |\n\n" +
				"! `after_all[0]` at `ananke.config.yaml:9`: hook \"./cleanup.sh\" exited with status 1; stderr: boom\n\n" +
				"<details>\n<summary>stderr of after_all&#91;0&#93;</summary>\n\n" +
				"```text\nremoving tmp/orders with key ***\nboom\n```\n\n</details>\n\n" +
				"| | Test |",
		}, []string{"before_all"}},
		{"linked", suitetest.Pick(suitetest.Smoke), markdown.Options{LinkBase: link}, []string{
			"! `after_all[0]` at [`ananke.config.yaml:9`](" + link + "ananke.config.yaml#L9): hook",
		}, nil},
		{"hooks passed", passedHooks, markdown.Options{}, []string{"### ✓ Ananke: 1 test passed\n"}, []string{"_all", "stderr"}},
		{"no hooks", reporttest.Report(), markdown.Options{}, nil, []string{"_all", "stderr of"}},
		{"many failed hooks", manyHooks, markdown.Options{}, []string{
			"### ! Ananke: after_all\\[0\\], after_all\\[1\\] and 5 more hooks failed; 1 test passed\n",
			"! `after_all[4]` at",
			"_… 2 more failed hooks; see the report directory._\n",
		}, []string{"! `after_all[5]`"}},
		{"dataset", suitetest.Report(), markdown.Options{LinkBase: link}, []string{
			"| ✗ | reads the receipt total | [`tests/receipts.ananke.jsonl:3`](" + link + "tests/receipts.ananke.jsonl#L3) | 1.2s | 2 | 5.5k tokens · \\$0.013 |\n",
			"| ! | reads a scanned invoice | [`tests/receipts.ananke.jsonl:4`](" + link + "tests/receipts.ananke.jsonl#L4) | 30.0s |  | 4.1k tokens · \\$0.012 |\n",
			// A test file's row links its first line, as before.
			"| ✓ | says hello | [`tests/smoke.ananke.yaml`](" + link + "tests/smoke.ananke.yaml#L1) |",
			// An errored dataset test without a cause's position is at its line.
			"! [`tests/receipts.ananke.jsonl:4`](" + link + "tests/receipts.ananke.jsonl#L4): turn\\[0\\]: the agent sent nothing for 30s\n",
		}, nil},
		{"attachments and checks not made", suitetest.Report(), markdown.Options{}, []string{
			"**turn\\[0\\]** “What is the total on this receipt?” + receipt.png (image/png, 2.1 KiB)\n",
			"<summary>✗ <b>reads the receipt total</b> — 2 failed assertions (outcome, script), 1 check not made</summary>",
			// The after hook that failed follows the failures of its scope,
			// which is named once.
			"  - observed: exit status 1\n\n```text\nstdout of `./check_total.py`: \"total 12.00 is not the receipt's 42.00\"\n```\n\n" +
				"- ! `tests/receipts.ananke.jsonl:3`: after\\[0\\]: hook \"./reset.sh\" exited with status 2; stderr: order 42 is locked\n" +
				"  - assertion: `test.after[0]`\n",
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := markdown.Render(tc.r, tc.opts)
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(out, w) {
					t.Errorf("output has %q:\n%s", w, out)
				}
			}
			if n := strings.Count(out, "**whole test**"); n > 1 {
				t.Errorf("whole test named %d times:\n%s", n, out)
			}
			checkStructure(t, out)
		})
	}
}

// TestBeforeAllOnce: when before_all fails, every test errors with its
// message; the hook's stderr is shown once, above, not in every test's
// block.
func TestBeforeAllOnce(t *testing.T) {
	out := markdown.Render(suitetest.BeforeAllFailed(), markdown.Options{})
	if n := strings.Count(out, "database unreachable\n```"); n != 1 {
		t.Errorf("the hook's stderr is shown %d times; want once:\n%s", n, out)
	}
	if n := strings.Count(out, "! `ananke.config.yaml:6`: before_all\\[0\\]: hook"); n != 3 {
		t.Errorf("%d tests say the hook failed; want 3:\n%s", n, out)
	}
}

// TestHooksBudget: the hooks block comes with the heading and totals, and
// gives up its stderr, then itself, rather than break the budget; what is
// kept stays well formed.
func TestHooksBudget(t *testing.T) {
	r := suitetest.Pick(suitetest.Smoke)
	full := markdown.Render(r, markdown.Options{})
	head := full[:strings.Index(full, "! `after_all[0]`")]
	withoutOutput := false
	for budget := len(head) - 1; budget <= len(full)+1; budget++ {
		out := markdown.Render(r, markdown.Options{Budget: budget})
		if len(out) > budget {
			t.Fatalf("budget %d: %d bytes", budget, len(out))
		}
		checkStructure(t, out)
		hasLine, hasOutput := strings.Contains(out, "! `after_all[0]` at"), strings.Contains(out, "stderr of")
		if hasOutput && !hasLine {
			t.Fatalf("budget %d: the stderr without its hook:\n%s", budget, out)
		}
		withoutOutput = withoutOutput || hasLine && !hasOutput
		if !strings.HasPrefix(out, "### ! Ananke: after_all\\[0\\] failed; 1 test passed\n") && budget >= len(head) {
			t.Errorf("budget %d: the heading does not name the hook:\n%s", budget, out)
		}
	}
	if !withoutOutput {
		t.Error("no budget kept the hook's line without its stderr")
	}
	if got := markdown.Render(r, markdown.Options{Budget: len(full)}); got != full {
		t.Errorf("a budget of the full size trims it:\n%s", got)
	}
}

// TestHooksHostile: a hook's message, stderr and file and an attachment's
// name and type are escaped like the rest of the untrusted text.
func TestHooksHostile(t *testing.T) {
	r := suitetest.Report()
	r.Hooks[1].Message, r.Hooks[1].Detail = hostile, hostile+"\n```\n</details>\n"+hostile
	r.Hooks[1].Source.File = "tests/@octocat #12|`x`.yaml"
	r.Tests[suitetest.Receipt].Turns[0].Attachments = []trace.Attachment{{Name: hostile, MIME: hostile, Bytes: 1}}
	for _, link := range []string{"", "https://github.com/o/r/blob/abc/"} {
		out := markdown.Render(r, markdown.Options{LinkBase: link})
		checkStructure(t, out)
		checkInert(t, out, link)
	}
}
