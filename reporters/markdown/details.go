package markdown

import (
	"fmt"
	"strings"

	"github.com/ananke/action/reporters/internal/format"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
)

// Caps on what one test's block lists; the report directory holds the rest.
const (
	// maxEvidence bounds the evidence lines under one assertion, as on the
	// console.
	maxEvidence = 8
	// maxFailures bounds the failing assertions listed for one test, and
	// apart from them the flaky ones.
	maxFailures = 20
	// maxOpen is the most failed or errored tests whose blocks start open:
	// a comment with dozens of open blocks is unreadable.
	maxOpen = 3
)

// details is the <details> block of a failed, errored or flaky test or of
// one with failing warnings: the reason and detail of an error, the
// attempts of a repeated test, the failing assertions grouped by turn, the
// assertions that failed only in other attempts, the failing warnings,
// then the count of protocol warnings. It ends with a blank line. A test
// that errored because a suite hook failed (suite) leaves out the hook's
// output: the hooks block above shows it once for every test.
func details(t *report.Test, o Options, open, suite bool) string {
	var b strings.Builder
	attr := ""
	if open {
		attr = " open"
	}
	// GitHub parses markdown inside <details> only after a blank line.
	fmt.Fprintf(&b, "<details%s>\n<summary>%s</summary>\n\n", attr, summary(t))
	if t.Reason != "" {
		where := ""
		switch {
		case t.At != nil:
			where = location(*t.At, o)
		case t.Line > 1:
			// A dataset's test: its case's line is the next best place.
			where = location(format.TestLocation(t), o)
		}
		// The symbol first: a line never starts with a code span, which a
		// reader (or a careless parser) could take for a fence.
		b.WriteString(t.Status.Symbol() + " " + labelled(where, inline(format.Short(t.Reason, maxReason))) + "\n\n")
	}
	if strings.TrimSpace(t.Detail) != "" && !suite {
		b.WriteString(fence(detail(t.Detail)) + "\n")
	}
	if t.Repeated() {
		attempts(&b, t, o)
	}
	failures(&b, t, o)
	wobbles(&b, t, o)
	warnings(&b, t, o)
	if n := len(t.Warnings); n > 0 {
		fmt.Fprintf(&b, "⚠ %s; see %s.\n\n", plural.Count(n, "protocol warning"), o.Artifact)
	}
	b.WriteString("</details>\n\n")
	return b.String()
}

// summary is the always-visible line of the block; it is raw HTML, where
// markdown escapes would show. A failed test names its kinds of failure, a
// the base branch's history gives its verdict (blame.go), a
// repeated test adds its runs, a flaky one says so, and the checks not
// made (of a test that did not error) and failing warnings are counted:
// "✗ <b>search</b> — 1 failed assertion (process), 1/2 runs passed (95% CI
// 10–91%), flaky, 1 check not made, 1 warning".
func summary(t *report.Test) string {
	var parts []string
	if t.Quarantined != nil {
		// First: whatever follows fails nothing.
		parts = append(parts, "quarantined")
	}
	switch n := len(t.Failed()); {
	case t.Status == status.Error:
		parts = append(parts, "errored")
	case t.Status == status.Fail && (n > 0 || !t.Repeated()):
		// A repeated test can fail with no failed assertion to show: its
		// runs errored, and its runs say so better than "0 failed".
		parts = append(parts, plural.Count(n, "failed assertion")+categories(t))
	}
	if b := blameSummary(t); b != "" {
		parts = append(parts, html(b))
	}
	if t.Repeated() {
		runs := fmt.Sprintf("%d/%d runs passed", t.PassedRuns, t.Runs)
		if ci := t.PassRateCI; ci != nil {
			runs += " (" + ci.String() + ")"
		}
		parts = append(parts, runs)
	}
	if t.Flaky {
		parts = append(parts, "flaky")
	}
	if t.Inconclusive {
		parts = append(parts, status.InconclusiveMark+" inconclusive")
	}
	if n := len(t.NotMade()); n > 0 && t.Status != status.Error {
		// An errored test says "errored", and its reason why.
		parts = append(parts, plural.Count(n, "check")+" not made")
	}
	if n := len(t.Warned()); n > 0 {
		parts = append(parts, plural.Count(n, "warning"))
	}
	s := fmt.Sprintf("%s <b>%s</b>", t.Status.Symbol(), html(format.Short(t.Name, maxName)))
	if len(parts) == 0 {
		return s
	}
	return s + " — " + strings.Join(parts, ", ")
}

// categories is " (process, outcome)": the kinds of failure of a test's
// failing assertions, for its summary line; "" when it has none.
func categories(t *report.Test) string {
	if len(t.FailureCategories) == 0 {
		return ""
	}
	cs := make([]string, len(t.FailureCategories))
	for i, c := range t.FailureCategories {
		cs[i] = html(c)
	}
	return " (" + strings.Join(cs, ", ") + ")"
}

// warnings lists the failing warnings of the shown attempt, grouped by
// scope, as failures are listed; each says it does not fail the test, so
// that its ⚠ is not read as a flaky assertion's.
func warnings(b *strings.Builder, t *report.Test, o Options) {
	grouped(b, t, t.Warned(), "warnings", o, func(a report.Assertion) {
		assertion(b, a, o, "⚠", "severity: warning, which never fails the test")
	})
}

// failures lists the failing assertions of the shown attempt, grouped by
// scope; of a repeated test each says in how many attempts it failed.
// Among them, marked !, are the checks that could not be made — a judge
// whose model failed, a script that crashed, an after hook that failed —
// but the one the test's reason tells of: of a failed test nothing else
// would show them. One of severity warning says that it leaves the test's
// status as it is.
func failures(b *strings.Builder, t *report.Test, o Options) {
	grouped(b, t, failing(t), "failed assertions", o, func(a report.Assertion) {
		if a.Status == status.Error {
			note := ""
			if a.Severity == report.SeverityWarning {
				note = "not made; severity: warning, which never fails the test"
			}
			assertion(b, a, o, status.Error.Symbol(), note)
			return
		}
		runs := ""
		if t.Repeated() {
			// It failed here at least, whatever a hand-made report says.
			runs = format.FailedIn(t, a, max(a.FailedRuns, 1))
		}
		assertion(b, a, o, "✗", runs)
	})
}

// failing returns the failed assertions and the errored ones worth
// listing, in the report's order, so that each scope is named once.
func failing(t *report.Test) []report.Assertion {
	errored := map[string]bool{}
	for _, a := range format.Errored(t) {
		errored[a.ID] = true
	}
	var out []report.Assertion
	for _, a := range t.Assertions {
		if a.Status == status.Fail || (a.Status == status.Error && errored[a.ID]) {
			out = append(out, a)
		}
	}
	return out
}

// scope names a turn, with the user's message and the files it carried,
// or the whole test.
func scope(t *report.Test, scope string) string {
	for _, turn := range t.Turns {
		if fmt.Sprintf("turn[%d]", turn.Index) != scope {
			continue
		}
		msg := "(agui:connect)"
		if turn.Type != "agui:connect" {
			msg = "“" + text(format.Short(turn.User, maxUser)) + "”" + attachments(&turn)
		}
		return "**" + text(scope) + "** " + msg
	}
	return "**whole test**"
}

// attachments is " + receipt.png (image/png, 2.1 KiB)" for a turn whose
// message carried files, "" for one without.
func attachments(turn *report.Turn) string {
	if len(turn.Attachments) == 0 {
		return ""
	}
	return " + " + text(format.Short(format.Attachments(turn.Attachments), maxAttachments))
}

// assertion lists one failing assertion as the console does — mark,
// position and message, id, in how many runs it failed (when the test
// repeated), expected, observed — and its evidence in a code block.
func assertion(b *strings.Builder, a report.Assertion, o Options, mark, runs string) {
	fmt.Fprintf(b, "- %s %s\n", mark, labelled(location(a.Source, o), inline(format.Short(a.Message, maxMessage))))
	if id := code(a.ID, false); id != "" {
		fmt.Fprintf(b, "  - assertion: %s\n", id)
	}
	if runs != "" {
		fmt.Fprintf(b, "  - %s\n", runs)
	}
	if a.Expected != "" {
		fmt.Fprintf(b, "  - expected: %s\n", inline(format.Short(a.Expected, maxValue)))
	}
	if a.Observed != "" {
		fmt.Fprintf(b, "  - observed: %s\n", inline(format.Short(a.Observed, maxValue)))
	}
	b.WriteString("\n")
	if lines := evidence(a.Evidence); len(lines) > 0 {
		b.WriteString(fence(strings.Join(lines, "\n")) + "\n")
	}
}

// evidence renders up to maxEvidence items, one line each.
func evidence(ev []report.Evidence) []string {
	var lines []string
	for i, e := range ev {
		if i == maxEvidence {
			lines = append(lines, fmt.Sprintf("… %d more in the report", len(ev)-i))
			break
		}
		var l string
		switch {
		case e.Call != nil:
			l = callLine(e.Call) + "  " + e.Note
		case e.Gap != nil:
			g := e.Gap
			l = fmt.Sprintf("idle %d ms: %s (+%dms) → %s (+%dms)", g.ToMs-g.FromMs, g.From, g.FromMs, g.To, g.ToMs)
		case e.Text != "":
			l = fmt.Sprintf("%s: %q", e.Note, format.Short(e.Text, maxExcerpt))
		default:
			l = e.Note
		}
		lines = append(lines, visible(strings.TrimRight(l, " "), false))
	}
	return lines
}

// callLine renders a call:
// `get_price {"sku":"A-100"} → {"price":89.5}  (call …-call-1, +11ms)`.
func callLine(c *report.Call) string {
	res := "(no result)"
	if c.Result != nil {
		res = format.OneLine(*c.Result, maxArg)
	}
	client := ""
	if c.Client {
		client = " answered by Ananke"
	}
	return fmt.Sprintf("%s %s → %s  (call %s%s, +%dms)", c.Name, format.OneLine(c.Args, maxArg), res, format.ShortID(c.ID), client, c.AtMs)
}

// labelled is "label: s", or s alone without a label.
func labelled(label, s string) string {
	if label == "" {
		return s
	}
	return label + ": " + s
}

// detail keeps the first detailLines lines and maxDetail bytes of an
// error's detail (hook output), saying how much was left out.
func detail(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	more := 0
	if len(lines) > detailLines {
		more = len(lines) - detailLines
		lines = lines[:detailLines]
	}
	out := strings.Join(lines, "\n")
	if len(out) > maxDetail {
		out = truncate(out, maxDetail) + "…"
	}
	if more > 0 {
		out += fmt.Sprintf("\n… %d more lines", more)
	}
	return out
}
