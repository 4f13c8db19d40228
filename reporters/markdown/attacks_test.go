package markdown_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/markdown"
)

// TestAttacksMarkdown: the heading puts the failed gate first, never
// blaming the flaky test; the Attacks section gives the totals with the
// gate's verdict, a row per test and channel site, a closed block per
// attack that succeeded with where it was planted, its evidence and its
// payload fenced, and the tests not attacked. Without a gate the heading
// is the tests' alone.
func TestAttacksMarkdown(t *testing.T) {
	opts := markdown.Options{LinkBase: "https://github.com/acme/shop/blob/abc/"}
	md := markdown.Render(reporttest.AttacksReport(true, reporttest.Passing, reporttest.Wobbly), opts)
	golden.Assert(t, "testdata/attacks.golden.md", md)
	for _, want := range []string{
		"### ✗ Ananke: 3 of 8 attack runs succeeded (37.5%), above the allowed 0%; all 2 tests passed, 1 flaky,",
		"**Attacks:** 10 runs · 3 succeeded (37.5%) · 1 errored · 1 skipped · utility 75% · 11.6k tokens · \\$0.002 — ✗ 3 of 8 attack runs succeeded (37.5%), above the allowed 0%: the run fails.",
		"| ✗ | weather in Paris | `tool_result get_forecast` | 3 | 2 (66.7%) |  | 100% |",
		"Payload:\n\n````text\n```\n</tool_output>\n",
		"Not attacked: **checkout declines the card** (did not pass without attack (failed)), **legacy flow**",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the summary lacks %q", want)
		}
	}
	if strings.Contains(md, reporttest.Secret) || strings.Contains(md, "failed the run (fail-on-flaky)") {
		t.Error("the summary shows the secret or blames the flaky test")
	}
	if n := strings.Count(md, "<details>\n<summary>✗ <b>"); n != 3 {
		t.Errorf("%d blocks of attacks that succeeded, want 3", n)
	}

	ungated := markdown.Render(reporttest.AttacksReport(false, reporttest.Passing, reporttest.Wobbly), opts)
	golden.Assert(t, "testdata/attacks-ungated.golden.md", ungated)
	if !strings.HasPrefix(ungated, "### ✓ Ananke: all 2 tests passed, 1 flaky") || strings.Contains(ungated, "the run fails") {
		t.Errorf("without a gate: %s", strings.SplitN(ungated, "\n", 2)[0])
	}
}

// TestAttacksBudget: a budget that cannot hold every block keeps the
// totals and table, the worst blocks that fit, and counts the others in
// the report directory; the output stays within the budget.
func TestAttacksBudget(t *testing.T) {
	r := reporttest.AttacksReport(true, reporttest.Passing, reporttest.Wobbly)
	full := markdown.Render(r, markdown.Options{})
	head := full[:strings.Index(full, "<details>")]
	for _, tc := range []struct {
		name   string
		budget int
		blocks int
		note   string
	}{
		{"one block", len(head) + 1100, 1, "_… 2 more succeeded attack runs not shown — see the report directory._"},
		{"no block", len(head) + 100, 0, "_… 3 more succeeded attack runs not shown — see the report directory._"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			md := markdown.Render(r, markdown.Options{Budget: tc.budget})
			if len(md) > tc.budget {
				t.Errorf("%d bytes, over the budget %d", len(md), tc.budget)
			}
			if n := strings.Count(md, "<details>\n<summary>✗ <b>"); n != tc.blocks || !strings.Contains(md, tc.note) || !strings.Contains(md, "| Channel |") {
				t.Errorf("%d blocks (want %d), note %q, table kept:\n%s", n, tc.blocks, tc.note, md)
			}
		})
	}
}

// TestAttacksEscapes: hostile text in every field of the attacks section
// — names, sites, attack ids, reasons, evidence, payloads — leaves every
// fence and block closed and nothing live outside code, whatever the
// budget.
func TestAttacksEscapes(t *testing.T) {
	r := reporttest.AttacksReport(true, reporttest.Passing)
	a := r.Attacks
	a.Reason = hostile
	for i := range a.Groups {
		g := &a.Groups[i]
		g.Name, g.Channel, g.Site = hostile, hostile, hostile
	}
	for i := range a.Runs {
		run := &a.Runs[i]
		run.Name, run.Attack, run.Goal, run.Style, run.Corpus, run.Site = hostile, hostile, hostile, hostile, hostile, hostile
		run.Canary, run.Reason = hostile, hostile
		run.Payload = hostile + "\n```\n</details>\n" + hostile
		run.PlantedAt.File = "tests/@octocat #12|`x`.yaml"
		run.UtilityFailures = []string{hostile + " `unclosed"}
		for j := range run.Evidence {
			run.Evidence[j].Tool, run.Evidence[j].Excerpt = hostile, hostile
		}
	}
	for i := range a.NotAttacked {
		a.NotAttacked[i].Name, a.NotAttacked[i].Reason = hostile, hostile
	}
	full := markdown.Render(r, markdown.Options{LinkBase: "https://github.com/o/r/blob/abc/"})
	if strings.Count(full, "<details>\n<summary>✗ ") != 3 || !strings.Contains(full, "Not attacked: ") {
		t.Fatalf("the hostile section lacks its blocks or its tests not attacked:\n%s", full)
	}
	for _, budget := range []int{0, len(full) / 2, len(full) / 3} {
		out := markdown.Render(r, markdown.Options{LinkBase: "https://github.com/o/r/blob/abc/", Budget: budget})
		checkStructure(t, out)
		checkInert(t, out, "https://github.com/o/r/blob/abc/")
	}
}
