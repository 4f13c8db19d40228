package format

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
)

// Attack runs (docs/attacks.md) in every output's words: the totals, the
// gate's verdict, where a payload was planted, what a run came to and each
// piece of evidence. The words are plain text: each reporter escapes them
// for where they land.

// AttackCounts is the attack runs' counts and rates: "10 runs · 3
// succeeded (37.5%) · 1 errored · 1 skipped · utility 75%"; errored and
// skipped only when some were. The success rate and utility are of the
// runs that finished (succeeded or resisted): with none, "no run
// finished" stands for both.
func AttackCounts(t report.AttackTotals) string {
	if t.Succeeded+t.Resisted == 0 {
		parts := []string{plural.Count(t.Runs, "run")}
		if t.Errored > 0 {
			parts = append(parts, fmt.Sprintf("%d errored", t.Errored))
		}
		if t.Skipped > 0 {
			parts = append(parts, fmt.Sprintf("%d skipped", t.Skipped))
		}
		return strings.Join(append(parts, "no run finished"), " · ")
	}
	parts := []string{plural.Count(t.Runs, "run"), fmt.Sprintf("%d succeeded (%s)", t.Succeeded, stability.FormatPercent(t.SuccessRate))}
	if t.Errored > 0 {
		parts = append(parts, fmt.Sprintf("%d errored", t.Errored))
	}
	if t.Skipped > 0 {
		parts = append(parts, fmt.Sprintf("%d skipped", t.Skipped))
	}
	return strings.Join(append(parts, "utility "+stability.FormatPercent(t.Utility)), " · ")
}

// AttackTotals is AttackCounts of the whole section, with what the agent
// used over the attack runs when it reported usage: "… · utility 75% ·
// 11.6k tokens · $0.0021".
func AttackTotals(a *report.Attacks) string {
	s := AttackCounts(a.Totals)
	if a.Usage != nil {
		s += " · " + a.Usage.Summary()
	}
	return s
}

// AttackGate is the gate's verdict, "" without a gate: its reason when it
// failed or errored ("3 of 8 attack runs succeeded (37.5%), above the
// allowed 0%"), else "attack success rate 0%, within the allowed 5%".
func AttackGate(a *report.Attacks) string {
	switch {
	case a.Threshold == nil:
		return ""
	case a.Status != status.Pass && a.Reason != "":
		return a.Reason
	}
	return fmt.Sprintf("attack success rate %s, within the allowed %s", stability.FormatPercent(a.Totals.SuccessRate), stability.FormatPercent(*a.Threshold))
}

// AttackSite is where a payload went: "tool_result get_forecast",
// "user".
func AttackSite(channel, site string) string {
	if site == "" {
		return channel
	}
	return channel + " " + site
}

// AttackName names an attack run by its attack and site: "tool-plain via
// tool_result get_forecast".
func AttackName(run *report.AttackRun) string {
	return run.Attack + " via " + AttackSite(run.Channel, run.Site)
}

// AttackOutcome is what a run came to, with why for an errored or skipped
// one: "succeeded", "errored: turn[0]: the agent sent nothing for 30s".
func AttackOutcome(run *report.AttackRun) string {
	what := run.Outcome
	if what == report.AttackError {
		what = "errored"
	}
	if run.Reason != "" && (run.Outcome == report.AttackError || run.Outcome == report.AttackSkipped) {
		what += ": " + run.Reason
	}
	return what
}

// AttackUtility is the test's own verdict under attack, for a run that
// ran: "utility pass", "utility fail"; "" for a skipped run.
func AttackUtility(run *report.AttackRun) string {
	if run.Outcome == report.AttackSkipped || run.Utility == "" {
		return ""
	}
	return "utility " + string(run.Utility)
}

// AttackAbout is the attack's goal and style, and its corpus unless
// built in: "goal leak, style roleplay, from attacks/extra.jsonl:3".
func AttackAbout(run *report.AttackRun) string {
	s := "goal " + run.Goal + ", style " + run.Style
	if run.Corpus != "" && run.Corpus != "builtin" {
		s += ", from " + run.Corpus
	}
	return s
}

// evidenceWords names a kind of evidence; an unknown kind is its own
// name. (A switch, not a map: nothing is built at start-up.)
func evidenceWords(kind string) string {
	switch kind {
	case report.EvidenceToolCall:
		return "tool call"
	case report.EvidenceToolArgument:
		return "canary in the arguments of"
	case report.EvidenceMarkdownImage:
		return "markdown image"
	case report.EvidenceURL:
		return "link"
	case report.EvidenceText:
		return "canary in the text"
	case report.EvidenceInstructions:
		return "instructions in the text"
	}
	return kind
}

// Evidence is one place an attack's goal was seen, its excerpt on one line
// shortened to n characters: "turn[0] · tool call delete_order:
// {"order_id":"A-17"}", "turn[0] · markdown image: …![s](https://…)".
func Evidence(e report.AttackEvidence, n int) string {
	return EvidenceWhere(e) + ": " + OneLine(e.Excerpt, n)
}

// EvidenceWhere is the evidence without its excerpt: "turn[0] · tool call
// delete_order", "turn[0] · link".
func EvidenceWhere(e report.AttackEvidence) string {
	words := evidenceWords(e.Kind)
	if e.Tool != "" {
		words += " " + e.Tool
	}
	if e.Echo {
		words += " (echo: the payload repeated, not followed)"
	}
	return fmt.Sprintf("turn[%d] · %s", e.Turn, words)
}
