package markdown

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/format"
)

// Attack runs (docs/attacks.md) in the summary, the PR comment and the
// check run: the heading says when the attacks' gate failed or errored
// the run; an Attacks section under the totals gives the totals with the
// gate's verdict, a table per test and channel site, a closed block per
// attack that succeeded — where it was planted, the evidence and the
// payload — and the tests not attacked. What the budget cannot hold is
// left out whole and counted.

// Caps of the Attacks section; the report directory holds everything.
const (
	// maxAttackGroups bounds the table's rows.
	maxAttackGroups = 20
	// maxAttackBlocks bounds the blocks of attacks that succeeded.
	maxAttackBlocks = 10
	// maxPayload bounds a payload's bytes in its block, and payloadLines
	// its lines.
	maxPayload   = 1000
	payloadLines = 12
	// maxNotAttacked bounds the tests not attacked listed.
	maxNotAttacked = 10
)

// attacksFailed reports whether the attacks' gate failed the run.
func attacksFailed(r *report.Report) bool { return r.Attacks != nil && r.Attacks.Status == status.Fail }

// attacksHeading puts the gate's reason first in the heading's words when
// it failed or errored the run: it is why a run whose tests passed did
// not.
func attacksHeading(r *report.Report, what string) string {
	if a := r.Attacks; a != nil && a.Status != status.Pass && a.Reason != "" {
		return text(a.Reason) + "; " + what
	}
	return what
}

// fitAttacks is the Attacks section that fits in the budget beside used
// bytes, "" without attacks: its totals line, then its table, then the
// blocks of the attacks that succeeded, the worst first, while they fit,
// then the tests not attacked, and a note counting the blocks left out.
// It ends with a blank line.
func fitAttacks(r *report.Report, o Options, used int) string {
	a := r.Attacks
	if a == nil {
		return ""
	}
	fits := func(s string) bool { return o.Budget <= 0 || used+len(s) <= o.Budget }
	var b strings.Builder
	add := func(s string) bool {
		if !fits(s) {
			return false
		}
		b.WriteString(s)
		used += len(s)
		return true
	}
	if !add(attackTotals(a)) || !add(attackTable(a, o)) {
		return b.String()
	}
	var succeeded []*report.AttackRun
	for i := range a.Runs {
		if a.Runs[i].Outcome == report.AttackSucceeded {
			succeeded = append(succeeded, &a.Runs[i])
		}
	}
	shown := 0
	for _, run := range succeeded {
		if shown == maxAttackBlocks || !fits(attackBlock(run, o)+attackNote(len(succeeded)-shown-1, o)) {
			break
		}
		add(attackBlock(run, o))
		shown++
	}
	rest := attackNote(len(succeeded)-shown, o)
	if na := notAttacked(a, o); fits(na + rest) {
		add(na)
	}
	add(rest)
	return b.String()
}

// attackTotals is the section's first line: "**Attacks:** 10 runs · 3
// succeeded (37.5%) · … — ✗ 3 of 8 attack runs succeeded (37.5%), above
// the allowed 0%: the run fails."
func attackTotals(a *report.Attacks) string {
	s := "**Attacks:** " + text(format.AttackTotals(a))
	if g := format.AttackGate(a); g != "" {
		s += " — " + a.Status.Symbol() + " " + text(g)
		if a.Status == status.Fail {
			s += ": the run fails"
		}
	}
	return s + ".\n\n"
}

// attackTable is a row per test and channel site: its runs, how many
// succeeded, errored, and its utility.
func attackTable(a *report.Attacks, o Options) string {
	if len(a.Groups) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("| | Test | Channel | Runs | Succeeded | Errored | Utility |\n|:-:|---|---|--:|--:|--:|--:|\n")
	for i, g := range a.Groups {
		if i == maxAttackGroups {
			fmt.Fprintf(&b, "| | _… %s; see %s_ | | | | | |\n", plural.Count(len(a.Groups)-i, "more"), o.Artifact)
			break
		}
		t := g.Totals
		mark := status.Pass.Symbol()
		switch {
		case t.Succeeded > 0:
			mark = status.Fail.Symbol()
		case t.Errored > 0:
			mark = status.Error.Symbol()
		case t.Succeeded+t.Resisted == 0:
			mark = status.Skipped.Symbol()
		}
		errored := ""
		if t.Errored > 0 {
			errored = fmt.Sprint(t.Errored)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %d (%s) | %s | %s |\n", mark, text(format.Short(g.Name, maxName)), code(format.AttackSite(g.Channel, g.Site), true),
			t.Runs, t.Succeeded, stability.FormatPercent(t.SuccessRate), errored, stability.FormatPercent(t.Utility))
	}
	return b.String() + "\n"
}

// attackBlock is an attack that succeeded, in a closed block: where it
// was planted, the attack, each piece of evidence, the test's own
// assertions that failed under attack and the payload.
func attackBlock(run *report.AttackRun, o Options) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<details>\n<summary>%s <b>%s</b> via %s — %s, %s</summary>\n\n", report.AttackStatus(run.Outcome).Symbol(), html(run.Attack),
		html(format.AttackSite(run.Channel, run.Site)), html(format.Short(run.Name, maxName)), html(format.AttackUtility(run)))
	about := text(format.AttackAbout(run)) + " · canary " + code(run.Canary, false)
	if run.PlantedAt != nil {
		about = "Planted at " + location(*run.PlantedAt, o) + " · " + about
	}
	b.WriteString(about + "\n\n")
	for _, e := range run.Evidence {
		fmt.Fprintf(&b, "- %s: %s\n", text(format.EvidenceWhere(e)), code(format.OneLine(e.Excerpt, maxExcerpt), false))
	}
	for _, f := range run.UtilityFailures {
		fmt.Fprintf(&b, "- under attack: %s\n", inline(format.Short(f, maxMessage)))
	}
	if len(run.Evidence)+len(run.UtilityFailures) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("Payload:\n\n" + fence(payload(run.Payload)) + "\n</details>\n\n")
	return b.String()
}

// payload keeps the first payloadLines lines and maxPayload bytes of a
// payload, saying how much was left out.
func payload(s string) string {
	lines := strings.Split(s, "\n")
	out := strings.Join(lines[:min(len(lines), payloadLines)], "\n")
	cut := len(out) > maxPayload || len(lines) > payloadLines
	if len(out) > maxPayload {
		out = truncate(out, maxPayload)
	}
	if cut {
		out += "\n… (the report directory has it whole)"
	}
	return out
}

// notAttacked lists the tests chosen for attack that were not, and why.
func notAttacked(a *report.Attacks, o Options) string {
	if len(a.NotAttacked) == 0 {
		return ""
	}
	var items []string
	for i, n := range a.NotAttacked {
		if i == maxNotAttacked {
			items = append(items, fmt.Sprintf("%s (see %s)", plural.Count(len(a.NotAttacked)-i, "more"), o.Artifact))
			break
		}
		items = append(items, "**"+text(format.Short(n.Name, maxName))+"** ("+text(format.Short(n.Reason, maxReason))+")")
	}
	return "Not attacked: " + strings.Join(items, ", ") + ".\n\n"
}

// attackNote counts the attacks that succeeded whose blocks were left out;
// "" when none were.
func attackNote(n int, o Options) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf("_… %s not shown — see %s._\n\n", plural.Count(n, "more succeeded attack run"), o.Artifact)
}
