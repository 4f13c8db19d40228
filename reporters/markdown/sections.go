package markdown

import (
	"fmt"
	"strings"

	"github.com/ananke/action/reporters/internal/format"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
)

// Lengths, in runes, at which untrusted text is shortened; they bound the
// size of one test's block so that trimming loses whole tests, not halves.
const (
	maxName        = 120
	maxUser        = 70
	maxAttachments = 200
	maxMessage     = 500
	maxValue       = 300
	maxReason      = 500
	maxArg         = 80
	maxExcerpt     = 200
	maxDetail      = 4000 // bytes of an errored test's detail
	detailLines    = 40
)

// heading is the first line: the verdict in words, e.g.
// "### ✗ Ananke: 1 failed, 1 errored of 4 tests, 1 flaky, 1 with
// warnings". The symbol is
// the run's status as report.Build decided it: under fail-on-flaky a run
// whose tests all passed fails, and the heading says which tests failed
// it. A failed or errored test shows all the same, as in the check's
// conclusion, so a report without a status never reads as a pass.
// Warnings and checks not made never change it: they are counted after
// the verdict. A failed
// before_all or after_all hook is named first, as it errors the run
// whatever the tests did: "### ! Ananke: after_all[0] failed; all 3 tests
// passed". Quarantined tests are counted apart, after the verdict of the
// others, which alone decide it: "### ✓ Ananke: all 3 tests passed, 1
// quarantined (1 failed, not failing the run)". With the base branch's
// history, the failures are counted by its verdict: "2 failed of 6 tests
// (1 new failure, 1 known flaky on main)". An attacks' gate that failed or
// errored the run leads, after a failed hook and an exceeded budget: "3 of
// 8 attack runs succeeded (37.5%), above the allowed 0%; all 2 tests
// passed".
func heading(r *report.Report, title string) string {
	t, q := r.Totals.Counted(), r.Totals.Quarantine()
	var sym string
	switch {
	case r.Status == status.Fail || t.Failed > 0:
		sym = status.Fail.Symbol()
	case r.Status == status.Error || t.Errored > 0:
		sym = status.Error.Symbol()
	case t.Passed > 0 || t.Total == 0 && q.Tests > q.Skipped:
		sym = status.Pass.Symbol()
	default: // nothing ran, or everything was skipped
		sym = status.Skipped.Symbol()
	}
	what := blameHeading(r, outcome(t))
	over := r.Budget != nil && r.Budget.Exceeded
	switch {
	case r.Status == status.Fail && t.Failed == 0 && t.Flaky > 0 && !over && (r.FailOnFlaky || !inconclusiveFailed(r) && !attacksFailed(r)):
		what = plural.Count(t.Flaky, "flaky test") + " failed the run (fail-on-flaky); " + what
	case t.Flaky > 0:
		what += fmt.Sprintf(", %d flaky", t.Flaky)
	}
	if !over {
		what = inconclusiveHeading(r, what)
	} else if n := t.Inconclusive(); n > 0 {
		what += fmt.Sprintf(", %d inconclusive", n)
	}
	what = quarantineHeading(r, what)
	if t.Warned > 0 {
		what += fmt.Sprintf(", %d with warnings", t.Warned)
	}
	if t.NotMade > 0 {
		what += ", " + plural.Count(t.NotMade, "check") + " not made"
	}
	what = attacksHeading(r, what)
	if over {
		// First: it is why a run whose tests passed failed.
		what = "run budget exceeded; " + what
	}
	if h := format.HooksFailed(r.FailedHooks()); h != "" {
		// First: it is why a run whose tests passed is an error.
		what = text(h) + "; " + what
	}
	return fmt.Sprintf("### %s %s: %s\n\n", sym, text(title), what)
}

// outcome counts the tests in words: "1 failed, 1 errored of 4 tests",
// "all 6 tests passed", "3 of 4 tests passed, 1 skipped".
func outcome(t report.Totals) string {
	var parts []string
	if t.Failed > 0 {
		parts = append(parts, fmt.Sprintf("%d failed", t.Failed))
	}
	if t.Errored > 0 {
		parts = append(parts, fmt.Sprintf("%d errored", t.Errored))
	}
	switch {
	case len(parts) > 0:
		return strings.Join(parts, ", ") + " of " + plural.Count(t.Total, "test")
	case t.Passed > 0 && t.Skipped > 0:
		return fmt.Sprintf("%d of %s passed, %d skipped", t.Passed, plural.Count(t.Total, "test"), t.Skipped)
	case t.Passed == 1 && t.Total == 1:
		return "1 test passed"
	case t.Passed > 0:
		return fmt.Sprintf("all %s passed", plural.Count(t.Total, "test"))
	case t.Total == 0:
		return "no tests ran"
	}
	return plural.Count(t.Total, "test") + " skipped"
}

// totals is a one-row table of the counts, pass rate and run time, and
// what the agent used when it reported usage. Flaky is always there: a run
// without flaky tests says so.
func totals(r *report.Report) string {
	t := r.Totals
	out := "| Total | Passed | Failed | Errored | Skipped | Flaky | Pass rate | Duration |\n" +
		"|--:|--:|--:|--:|--:|--:|--:|--:|\n" +
		fmt.Sprintf("| %d | %d | %d | %d | %d | %d | %.1f%% | %s |\n\n",
			t.Total, t.Passed, t.Failed, t.Errored, t.Skipped, t.Flaky, t.PassRate, format.Duration(r.DurationMs))
	if format.ShowsUsage(r) {
		out = totalCost(out, r)
	}
	return out + adaptiveTotals(r)
}

// The table of tests starts with one of these heads; the blank line after
// the last row is counted with it. The wide one, with the runs and the
// flaky mark, is used only when some test ran more than once, so a suite
// that never repeats keeps its narrow table.
const (
	tableHead = "| | Test | File | Duration | Failed assertions |\n|:-:|---|---|--:|--:|\n"
	wideHead  = "| | Test | File | Duration | Failed assertions | Runs | Flaky |\n|:-:|---|---|--:|--:|--:|:-:|\n"
)

// repeats reports whether some test ran more than once: then the table
// needs the Runs and Flaky columns.
func repeats(r *report.Report) bool {
	for i := range r.Tests {
		if r.Tests[i].Repeated() {
			return true
		}
	}
	return false
}

// thead is the table's head, wide or not, with a Cost column when the
// agent reported usage (usage.go).
func thead(wide, cost bool) string {
	head := tableHead
	if wide {
		head = wideHead
	}
	if cost {
		head = costHead(head)
	}
	return head
}

// row is a test's line in the table; wide adds its runs and flaky mark.
// A test that did not fail or error says what checks it could not make
// and what warnings it has, failing warnings before protocol ones: nothing
// else in its row would show them.
func row(t *report.Test, o Options, wide bool) string {
	name := text(format.Short(t.Name, maxName))
	var warns []string
	if n := len(t.NotMade()); n > 0 {
		warns = append(warns, plural.Count(n, "check")+" not made")
	}
	if n := len(t.Warned()); n > 0 {
		warns = append(warns, plural.Count(n, "warning"))
	}
	if n := len(t.Warnings); n > 0 {
		warns = append(warns, plural.Count(n, "protocol warning"))
	}
	if t.Variant != "" {
		name += " · " + text(t.Variant) // docs/variants.md
	}
	if t.Quarantined != nil {
		name += " (quarantined)"
	}
	switch {
	case t.Status == status.Skipped && t.Reason != "":
		name += " — skipped: " + text(format.Short(t.Reason, maxName))
	case !bad(t) && len(warns) > 0:
		name += " (⚠ " + strings.Join(warns, ", ") + ")"
	}
	failed := ""
	if n := len(t.Failed()); n > 0 {
		failed = fmt.Sprint(n)
	}
	file := code(t.File, true)
	if t.Line > 1 && t.File != "" {
		// A dataset's tests share its file: each is at its own line.
		file = code(fmt.Sprintf("%s:%d", t.File, t.Line), true)
	}
	if o.LinkBase != "" && t.File != "" {
		file = "[" + file + "](" + href(o.LinkBase, t.File, format.TestLocation(t).Line) + ")"
	}
	line := fmt.Sprintf("| %s | %s | %s | %s | %s |", t.Status.Symbol(), name, file, format.Duration(t.DurationMs), failed)
	if wide {
		flaky := ""
		if t.Flaky {
			flaky = "⚠ flaky"
		}
		line += fmt.Sprintf(" %s | %s |", runsCell(t), flaky)
	}
	return line + "\n"
}

// runsCell is a test's passed runs, runs and pass rate with its interval,
// "2/3 (66.7%, 95% CI 21–94%)";
// "-" for a test that ran once and "" for one that never ran.
func runsCell(t *report.Test) string {
	switch {
	case t.Repeated():
		return passedRuns(t) + adaptiveRuns(t)
	case len(t.Attempts) == 0:
		return ""
	}
	return "-"
}

// passedRuns is "2/3 (66.7%, 95% CI 21–94%)".
func passedRuns(t *report.Test) string {
	return fmt.Sprintf("%d/%d (%s)", t.PassedRuns, t.Runs, format.Rate(t.PassRate, t.PassRateCI))
}

// location renders a position as `file:line`, linked to the line when
// LinkBase is set. Columns are left out: a browser cannot use them.
func location(l report.Location, o Options) string {
	s := l.File
	if l.Line > 0 {
		s = fmt.Sprintf("%s:%d", l.File, l.Line)
	}
	c := code(s, false)
	if c == "" || o.LinkBase == "" || l.File == "" {
		return c
	}
	return "[" + c + "](" + href(o.LinkBase, l.File, max(l.Line, 1)) + ")"
}

// href is base + file + "#L" + line, the file percent-encoded so that a
// space or parenthesis in a path cannot end the link destination.
func href(base, file string, line int) string {
	var b strings.Builder
	b.WriteString(base)
	for i := 0; i < len(file); i++ {
		c := file[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~/", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	fmt.Fprintf(&b, "#L%d", line)
	return b.String()
}

// runBudget is a line for each bound of the config's budget: the run
// exceeded or could not check (usage or cost unknown), or "" when it
// kept to every bound or has none. It ends with a blank line.
func runBudget(r *report.Report) string {
	if r.Budget == nil {
		return ""
	}
	var b strings.Builder
	for _, l := range r.Budget.Limits {
		switch l.Status {
		case status.Fail:
			b.WriteString(status.Fail.Symbol() + " " + text(l.Message) + "\n\n")
		case status.Skip:
			b.WriteString(status.Warn.Symbol() + " " + text(l.Message) + "\n\n")
		}
	}
	return b.String()
}
