package markdown

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/internal/format"
)

// Blame (docs/history.md#blame-in-the-pull-request) in the summary, the PR
// comment and the check run, when the report was read against the base
// branch's history (history.Attach): the heading counts the failing tests
// by verdict, a History section under the totals gives each failing
// test's verdict — new failure, known flaky, already failing — with its
// recent runs, and each failing test's block says its verdict.

// maxBlamed bounds the tests the History section lists; trendRuns the
// runs its trend shows, the newest.
const (
	maxBlamed = 20
	trendRuns = 20
)

// blameHeading adds the verdicts to the heading's words: "2 failed of 6
// tests (1 new failure, 1 known flaky on main)".
func blameHeading(r *report.Report, what string) string {
	if c := format.BlameCounts(r); c != "" {
		return what + " (" + text(c) + ")"
	}
	return what
}

// blameSection is the History section: a line counting the failing tests
// by verdict and a table of them — those that count as new first, the
// quarantined ones last — with the verdict in words and the newest runs
// as marks; "" when the report has no history or no test failed. It ends
// with a blank line.
func blameSection(r *report.Report, o Options) string {
	h := r.History
	if h == nil {
		return ""
	}
	var fresh, old, spared []*report.Test
	for i := range r.Tests {
		t := &r.Tests[i]
		switch {
		case !t.Status.Failed() || t.History == nil:
		case t.Quarantined != nil:
			spared = append(spared, t)
		case t.CountsAsNew():
			fresh = append(fresh, t)
		default:
			old = append(old, t)
		}
	}
	tests := slices.Concat(fresh, old, spared)
	if len(tests) == 0 {
		return ""
	}
	var b strings.Builder
	base := code(h.Base, false)
	fmt.Fprintf(&b, "**History:** the failing tests against the last %s on %s", plural.Count(h.Runs, "run"), base)
	if c := format.BlameCounts(r); c != "" {
		b.WriteString(": " + text(c))
	}
	b.WriteString(".\n\n")
	fmt.Fprintf(&b, "| | Test | On %s | Last %d runs, oldest first |\n|:-:|---|---|---|\n", base, min(h.Runs, trendRuns))
	for i, t := range tests {
		if i == maxBlamed {
			fmt.Fprintf(&b, "| | _… %s; see %s_ | | |\n", plural.Count(len(tests)-i, "more"), o.Artifact)
			break
		}
		name := text(format.Short(t.Name, maxName))
		if t.Quarantined != nil {
			name += " (quarantined)"
		}
		says := text(format.Blame(h, t.History))
		if t.CountsAsNew() && t.Quarantined == nil {
			says = "**" + says + "**"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", t.Status.Symbol(), name, says, text(trend(t.History.Sequence)))
	}
	b.WriteString("\nRuns: " + text(format.TrendLegend) + ".\n\n")
	return b.String()
}

// trend is the newest trendRuns runs of a sequence as marks, "…" first
// when older ones are left out.
func trend(seq string) string {
	if len(seq) > trendRuns {
		return "…" + format.Trend(seq[len(seq)-trendRuns:])
	}
	return format.Trend(seq)
}

// fitBlame is the History section when it fits in the budget beside used
// bytes, else "" (the heading still counts the verdicts, and each failing
// test's block says its own).
func fitBlame(r *report.Report, o Options, used int) string {
	if s := blameSection(r, o); o.Budget <= 0 || used+len(s) <= o.Budget {
		return s
	}
	return ""
}

// blameSummary is a failing test's verdict for its block's summary line:
// "known flaky on main (fails 4 of the last 20)"; "" without one.
func blameSummary(t *report.Test) string {
	if t.History == nil || !t.Status.Failed() {
		return ""
	}
	return t.History.Says
}
