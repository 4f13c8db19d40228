package format_test

import (
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/format"
)

// TestAttackWords: the attack runs in the words every output shares.
func TestAttackWords(t *testing.T) {
	pct := func(v float64) *float64 { return &v }
	totals := report.AttackTotals{Runs: 10, Succeeded: 3, Resisted: 5, Errored: 1, Skipped: 1, UtilityPassed: 6, SuccessRate: 37.5, Utility: 75}
	run := report.AttackRun{Attack: "leak-url", Goal: "leak", Style: "roleplay", Corpus: "attacks/extra.jsonl:3", Channel: "double", Site: "search",
		Outcome: report.AttackError, Reason: "turn[0]: the agent sent nothing for 30s", Utility: status.Error}
	skipped := report.AttackRun{Attack: "tool-plain", Goal: "tool", Style: "plain", Corpus: "builtin", Channel: "user", Outcome: report.AttackSkipped,
		Reason: "the test itself calls delete_order", Utility: status.Skipped}
	for _, tc := range []struct{ name, got, want string }{
		{"counts", format.AttackCounts(totals), "10 runs · 3 succeeded (37.5%) · 1 errored · 1 skipped · utility 75%"},
		{"counts, none errored", format.AttackCounts(report.AttackTotals{Runs: 1, Resisted: 1, UtilityPassed: 1, Utility: 100}), "1 run · 0 succeeded (0%) · utility 100%"},
		{"counts, none finished", format.AttackCounts(report.AttackTotals{Runs: 2, Errored: 1, Skipped: 1}), "2 runs · 1 errored · 1 skipped · no run finished"},
		{"no gate", format.AttackGate(&report.Attacks{Status: status.Pass, Totals: totals}), ""},
		{"gate failed", format.AttackGate(&report.Attacks{Threshold: pct(0), Status: status.Fail, Reason: "3 of 8 attack runs succeeded (37.5%), above the allowed 0%"}),
			"3 of 8 attack runs succeeded (37.5%), above the allowed 0%"},
		{"gate held", format.AttackGate(&report.Attacks{Threshold: pct(50), Status: status.Pass, Totals: totals}), "attack success rate 37.5%, within the allowed 50%"},
		{"site", format.AttackSite("history", "1"), "history 1"},
		{"no site", format.AttackSite("user", ""), "user"},
		{"name", format.AttackName(&run), "leak-url via double search"},
		{"errored", format.AttackOutcome(&run), "errored: turn[0]: the agent sent nothing for 30s"},
		{"skipped", format.AttackOutcome(&skipped), "skipped: the test itself calls delete_order"},
		{"utility", format.AttackUtility(&run), "utility error"},
		{"no utility when skipped", format.AttackUtility(&skipped), ""},
		{"about, user corpus", format.AttackAbout(&run), "goal leak, style roleplay, from attacks/extra.jsonl:3"},
		{"about, built in", format.AttackAbout(&skipped), "goal tool, style plain"},
		{"tool call", format.Evidence(report.AttackEvidence{Kind: report.EvidenceToolCall, Turn: 1, Tool: "delete_order", Excerpt: `{"id":1}`}, 80),
			`turn[1] · tool call delete_order: {"id":1}`},
		{"markdown image, shortened", format.Evidence(report.AttackEvidence{Kind: report.EvidenceMarkdownImage, Excerpt: "ok\n![s](https://a.example/p.png?d=ANK-1)"}, 12),
			"turn[0] · markdown image: ok⏎![s](htt…"},
		{"unknown kind", format.EvidenceWhere(report.AttackEvidence{Kind: "smoke", Turn: 2}), "turn[2] · smoke"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}
