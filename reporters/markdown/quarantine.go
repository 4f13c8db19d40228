package markdown

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/internal/format"
)

// Quarantine (docs/history.md#quarantine) in the summary, the PR comment
// and the check run: the heading's verdict is the tests' not quarantined,
// the quarantined ones counted after it; a Quarantined section under the
// totals lists each quarantined test that failed, errored or wobbled with
// its reason and entry, names those stable in this run, and gives the
// advice about the quarantine list; a quarantined test's row and block are
// marked, and its block comes after the failures that fail the run.

// maxQuarantined bounds the quarantined tests and the pieces of advice
// the section lists; the report directory holds them all.
const maxQuarantined = 10

// quarantineHeading adds the quarantined tests to the heading's words:
// "…, 3 quarantined (1 failed, not failing the run)"; when every test is
// quarantined they are the words: "3 quarantined tests (…)".
func quarantineHeading(r *report.Report, what string) string {
	q := r.Totals.Quarantined
	switch {
	case q == nil:
		return what
	case r.Totals.Counted().Total == 0:
		return fmt.Sprintf("%s (%s)", plural.Count(q.Tests, "quarantined test"), format.QuarantineCounts(r))
	}
	return what + fmt.Sprintf(", %d quarantined (%s)", q.Tests, format.QuarantineCounts(r))
}

// quarantineSection is the Quarantined section, or "" when no test is
// quarantined and there is no advice. It ends with a blank line.
func quarantineSection(r *report.Report, o Options) string {
	var b strings.Builder
	if q := r.Totals.Quarantined; q != nil {
		fmt.Fprintf(&b, "**Quarantined:** %s (%s); they run and report, and never fail the run.\n\n",
			plural.Count(q.Tests, "test"), format.QuarantineCounts(r))
		var listed []string
		var stable []string
		for _, t := range r.QuarantinedTests() {
			switch {
			case t.Status.Failed() || t.Flaky || t.Inconclusive:
				listed = append(listed, quarantinedItem(t, o))
			case t.Quarantined.StableInRun:
				stable = append(stable, "**"+text(format.Short(t.Name, maxName))+"**")
			}
		}
		for i, item := range listed {
			if i == maxQuarantined {
				fmt.Fprintf(&b, "- _… %s; see %s._\n", plural.Count(len(listed)-i, "more"), o.Artifact)
				break
			}
			b.WriteString(item)
		}
		if len(listed) > 0 {
			b.WriteString("\n")
		}
		if len(stable) > 0 {
			if len(stable) > maxQuarantined {
				stable = append(stable[:maxQuarantined], plural.Count(len(stable)-maxQuarantined, "more"))
			}
			fmt.Fprintf(&b, "Stable in this run (every attempt passed): %s.\n\n", strings.Join(stable, ", "))
		}
	}
	for i, a := range r.QuarantineAdvice {
		if i == maxQuarantined {
			fmt.Fprintf(&b, "_… %s; see %s._\n\n", plural.Count(len(r.QuarantineAdvice)-i, "more suggestion"), o.Artifact)
			break
		}
		name := "**" + text(format.Short(format.TestName(r, a.Test), maxName)) + "**"
		words := "quarantine " + name
		if a.Action == report.AdviseRelease {
			words = "release " + name + " from quarantine"
		}
		fmt.Fprintf(&b, "Suggested: %s — %s.\n\n", words, text(format.Short(a.Reason, maxReason)))
	}
	return b.String()
}

// quarantinedItem is a quarantined test's line in the section: "- ✗
// **checkout** — the payment sandbox declines at random (until 2026-12-31,
// @payments, https://…/42, `ananke.config.yaml:12`)".
func quarantinedItem(t *report.Test, o Options) string {
	q := t.Quarantined
	var extras []string
	if q.Until != "" {
		extras = append(extras, "until "+q.Until)
	}
	if q.Owner != "" {
		extras = append(extras, text(format.Short(q.Owner, maxArg)))
	}
	if q.Issue != "" {
		extras = append(extras, issueLink(q.Issue))
	}
	if where := location(q.Source, o); where != "" {
		extras = append(extras, where)
	}
	what := text(format.Short(q.Reason, maxReason))
	if len(extras) > 0 {
		what += " (" + strings.Join(extras, ", ") + ")"
	}
	mark := t.Status.Symbol()
	if !t.Status.Failed() && (t.Flaky || t.Inconclusive) {
		mark = "⚠"
	}
	return fmt.Sprintf("- %s **%s** — %s\n", mark, text(format.Short(t.Name, maxName)), what)
}

// fitQuarantine is the Quarantined section when it fits in the budget
// beside used bytes, else "" (the heading still counts the quarantined
// tests).
func fitQuarantine(r *report.Report, o Options, used int) string {
	if s := quarantineSection(r, o); o.Budget <= 0 || used+len(s) <= o.Budget {
		return s
	}
	return ""
}

// issueLink is an entry's issue: a link named "issue" when it is a plain
// http(s) URL, else its text.
func issueLink(s string) string {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || strings.ContainsAny(s, " \t\n()<>[]\"'`\\") {
		return text(format.Short(s, maxArg))
	}
	return "[issue](" + s + ")"
}
