package markdown_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/markdown"
)

// TestWarnings: a failing warning is listed like a failure, with ⚠ — in a
// closed block of its own for a test that passed, after the failures of a
// test that failed — and counted in the heading, which keeps the verdict.
func TestWarnings(t *testing.T) {
	// The failing test, given the passing test's warning and a protocol
	// warning already.
	failing := reporttest.Pick(false, reporttest.Failing, reporttest.Passing)
	ft := &failing.Tests[0]
	ft.Assertions = append(ft.Assertions, failing.Tests[1].Warned()...)
	failing.Totals.Warned = 2
	withProtocol := reporttest.Pick(false, reporttest.Passing)
	withProtocol.Tests[0].Warnings = []report.Warning{{Turn: 0, Seq: 2, Rule: "identity", Message: "no echo"}}
	for _, tc := range []struct {
		name    string
		r       *report.Report
		want    []string
		notWant []string
	}{
		// Its warning judge could not be made: listed with !, saying it
		// leaves the test passing, and counted.
		{"passing test with a warning and a check not made", reporttest.Pick(false, reporttest.Passing), []string{
			"### ✓ Ananke: 1 test passed, 1 with warnings, 1 check not made\n",
			"| ✓ | weather in Paris (⚠ 1 check not made, 1 warning) | `tests/weather.ananke.yaml` | 420ms |  | 10.2k tokens · cost unknown |\n",
			"<details>\n<summary>✓ <b>weather in Paris</b> — 1 check not made, 1 warning</summary>\n\n" +
				"**turn\\[0\\]** “weather?”\n\n" +
				"- ! `tests/weather.ananke.yaml:8`: the judge gave no verdict: model gpt-4o-mini at https:\u2060//models.example.com/v1: server error (500) after 3 attempts: upstream overloaded\n" +
				"  - assertion: `turn[0].judge`\n" +
				"  - not made; severity: warning, which never fails the test\n",
			"**turn\\[0\\]** “weather?”\n\n" +
				"- ⚠ `tests/weather.ananke.yaml:7`: 1 claim in turn\\[0\\]'s reply appears in no tool result, tool argument, user message or history: \"23\" (char 7)\n" +
				"  - assertion: `turn[0].grounded`\n" +
				"  - severity: warning, which never fails the test\n" +
				"  - expected: every number in the reply found in a tool result, tool argument, user message or history\n" +
				"  - observed: 1 ungrounded claim: \"23\"\n\n" +
				"```text\nungrounded claim: \"Sunny, 23 °C.\"\n```\n\n</details>\n",
		}, []string{"✗", "<details open>", "failed", "must_match"}},
		{"with protocol warnings", withProtocol, []string{
			"| ✓ | weather in Paris (⚠ 1 check not made, 1 warning, 1 protocol warning) |",
			"- ⚠ `tests/weather.ananke.yaml:7`",
			"⚠ 1 protocol warning; see the report directory.\n\n</details>",
		}, nil},
		// The warning is listed after the failures, under its own turn;
		// the failed test's row keeps its count of failed assertions and
		// no warning mark.
		{"failed test with a warning", failing, []string{
			"### ✗ Ananke: 1 failed of 2 tests, 2 with warnings, 1 check not made\n",
			"| ✗ | checkout declines the card | `tests/checkout.ananke.yaml` | 1.6s | 2 | 5k tokens · \\$0.0036 |\n",
			"<summary>✗ <b>checkout declines the card</b> — 2 failed assertions (process, outcome), 1 warning</summary>",
			"  - observed: match \"declined\"\n\n```text\nforbidden match: \"Payment \\x1b[31mdeclined\\x1b[0m ]]> <b>&amp;</b> key ***\"\n```\n\n" +
				"**turn\\[0\\]** “find shoes”\n\n- ⚠ `tests/weather.ananke.yaml:7`: 1 claim",
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := markdown.Render(tc.r, markdown.Options{})
			checkStructure(t, out)
			checkInert(t, out, "")
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
			if strings.Contains(out, reporttest.Secret) {
				t.Error("the output shows the secret")
			}
		})
	}
}
