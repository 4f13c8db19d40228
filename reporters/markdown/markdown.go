package markdown

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/format"
)

// Options shape the rendering.
type Options struct {
	// Budget is the maximum size of the output in bytes (0: no limit).
	Budget int
	// Title heads the output (default "Ananke").
	Title string
	// LinkBase, when set, turns file positions into links:
	// LinkBase + file + "#L" + line, e.g. "https://github.com/o/r/blob/<sha>/".
	LinkBase string
	// Artifact names where the full report is, for the trimming note, e.g.
	// "the `ananke-report` artifact" (default "the report directory").
	Artifact string
	// Marker is put first, verbatim, e.g. "<!-- ananke:report:ananke -->"
	// (a hidden marker for finding a sticky comment); it counts in Budget.
	Marker string
	// Lead is trusted markdown put right under the heading, before the
	// totals, verbatim (e.g. what changed since the base run, from
	// reporters/diff); it counts in Budget and is left out when the budget
	// cannot hold it beside the heading and the totals.
	Lead string
	// Footer is trusted markdown put last, verbatim (e.g. links to the
	// artifact and the workflow run); it counts in Budget and is left out
	// when the budget is too small to hold more than it.
	Footer string
}

// minBodyWithFooter is the least budget the rest must keep for a footer to
// be worth its room.
const minBodyWithFooter = 512

func (o Options) withDefaults() Options {
	if o.Title == "" {
		o.Title = "Ananke"
	}
	if o.Artifact == "" {
		o.Artifact = "the report directory"
	}
	return o
}

// unit is what trimming keeps or drops whole: a test's table row and, for
// a failed, errored or flaky test or one with failing warnings, its
// <details> block.
type unit struct {
	test    *report.Test
	open    bool // the block starts open
	suite   bool // the test errored because a suite hook failed
	row     string
	details string
}

// render fills in the row and block; Render calls it only for the units it
// considers, so a huge run costs only what fits.
func (u *unit) render(o Options, wide, cost bool) {
	u.row = row(u.test, o, wide)
	if cost {
		u.row = withCost(u.row, u.test)
	}
	if bad(u.test) || u.test.Flaky || warned(u.test) || notMade(u.test) {
		u.details = details(u.test, o, u.open, u.suite)
	}
}

// bad reports a failed or errored test: those come first and their blocks
// may start open.
func bad(t *report.Test) bool { return t.Status.Failed() }

// warned reports a test whose shown attempt has failing warnings.
func warned(t *report.Test) bool { return len(t.Warned()) > 0 }

// notMade reports a test whose shown attempt has checks that could not be
// made.
func notMade(t *report.Test) bool { return len(t.NotMade()) > 0 }

// Render returns the report as markdown, never longer than opts.Budget bytes.
//
// The heading and totals always come first — with the lead between them
// when the budget holds all three — then the failed suite hooks
// (without their stderr, or not at all, when the budget is too small: the
// heading names them all the same), the comparison of the variants
// (variants.go: as much of it as fits), the History section (blame.go), the
// Quarantined section and the Attacks section (attacks.go: as much of it
// as fits), each when it fits. Then tests are added whole, in
// priority order — failed and errored tests (row and block) in the
// report's order, then flaky tests that passed (row and closed block),
// then tests that passed with failing warnings or checks not made (row and
// closed block),
// then the other tests' rows — until the next one would not fit beside the
// note saying how many were left out. If even the heading and totals do not
// fit, they are cut on a rune boundary.
func Render(r *report.Report, opts Options) string {
	o := opts.withDefaults()
	footer := ""
	if f := strings.TrimSpace(o.Footer); f != "" {
		footer = "\n" + f + "\n"
	}
	if o.Budget > 0 && footer != "" {
		if o.Budget-len(footer) < minBodyWithFooter {
			footer = ""
		} else {
			o.Budget -= len(footer)
		}
	}
	return render(r, o) + footer
}

// render is Render without the footer.
func render(r *report.Report, o Options) string {
	var top strings.Builder
	if o.Marker != "" {
		top.WriteString(o.Marker + "\n")
	}
	top.WriteString(heading(r, o.Title))
	tot := totals(r)
	// Pieces end with a blank line; the output ends with one newline, so
	// without a note the last blank line is dropped: it costs nothing.
	const lastBlank = 1
	if l := strings.TrimSpace(o.Lead); l != "" {
		// The totals matter more than the lead: it goes first when both
		// do not fit.
		if lead := l + "\n\n"; o.Budget <= 0 || top.Len()+len(lead)+len(tot)-lastBlank <= o.Budget {
			top.WriteString(lead)
		}
	}
	top.WriteString(tot)
	out := top.String()
	if o.Budget > 0 && len(out)-lastBlank > o.Budget {
		return truncate(out, o.Budget)
	}
	out += runBudget(r)
	out += fitHooks(r, o, len(out))
	out += fitVariants(r, o, len(out))
	out += fitBlame(r, o, len(out))
	out += fitQuarantine(r, o, len(out))
	out += fitAttacks(r, o, len(out))
	units, wide, cost := plan(r), repeats(r), format.ShowsUsage(r)
	left := leftOut(units)
	used := len(out)
	n := 0
	for ; n < len(units); n++ {
		units[n].render(o, wide, cost)
		add := len(units[n].row) + len(units[n].details)
		if n == 0 {
			add += len(thead(wide, cost)) + 1
		}
		need := used + add + len(note(left[n+1], o))
		if n == len(units)-1 {
			need -= lastBlank
		}
		if o.Budget > 0 && need > o.Budget {
			break
		}
		used += add
	}
	return assemble(out, thead(wide, cost), units[:n], note(left[n], o), o.Budget)
}

// tally counts the tests left out from some unit on.
type tally struct{ tests, failed, errored int }

// leftOut returns, for each n, the tests left out if units[n:] are: the
// note's counts, each computed once.
func leftOut(units []unit) []tally {
	left := make([]tally, len(units)+1)
	for i := len(units) - 1; i >= 0; i-- {
		c := left[i+1]
		c.tests++
		switch units[i].test.Status {
		case status.Fail:
			c.failed++
		case status.Error:
			c.errored++
		}
		left[i] = c
	}
	return left
}

// plan orders the tests: failed and errored first — those quarantined
// after the others, their blocks closed: they fail nothing — then the
// flaky ones that passed, then those that passed with warnings or with checks not
// made, then the others, each
// group in the report's order. A flaky pass matters less than a failure
// but more than a steady pass: it is what fails next time. A warning is
// what the test's author chose not to fail on: worth a look, after those.
func plan(r *report.Report) []unit {
	var failing, spared, flaky, warning, rest []unit
	for i := range r.Tests {
		t := &r.Tests[i]
		switch {
		case bad(t) && t.Quarantined != nil:
			spared = append(spared, unit{test: t})
		case bad(t):
			failing = append(failing, unit{test: t})
		case t.Flaky:
			flaky = append(flaky, unit{test: t})
		case warned(t) || notMade(t):
			warning = append(warning, unit{test: t})
		default:
			rest = append(rest, unit{test: t})
		}
	}
	for i := range failing {
		failing[i].open = len(failing) <= maxOpen
		failing[i].suite = hookError(r, failing[i].test)
	}
	for i := range spared {
		spared[i].suite = hookError(r, spared[i].test)
	}
	return slices.Concat(failing, spared, flaky, warning, rest)
}

// assemble puts the kept units in display order: the table, the blocks,
// then the note.
func assemble(top, head string, kept []unit, note string, budget int) string {
	var b strings.Builder
	b.WriteString(top)
	if len(kept) > 0 {
		b.WriteString(head)
		for _, u := range kept {
			b.WriteString(u.row)
		}
		b.WriteString("\n")
		for _, u := range kept {
			b.WriteString(u.details)
		}
	}
	if budget <= 0 || b.Len()+len(note) <= budget {
		b.WriteString(note)
	}
	// One newline at the end; trimming blank lines only makes it shorter.
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// note says how many tests were left out, and where to find them; "" when
// none were. Fewer tests never make it longer, so the room kept for it
// while adding tests is enough for the final one.
func note(left tally, o Options) string {
	if left.tests == 0 {
		return ""
	}
	var parts []string
	if left.failed > 0 {
		parts = append(parts, fmt.Sprintf("%d failed", left.failed))
	}
	if left.errored > 0 {
		parts = append(parts, fmt.Sprintf("%d errored", left.errored))
	}
	which := ""
	if len(parts) > 0 {
		which = " (" + strings.Join(parts, ", ") + ")"
	}
	return fmt.Sprintf("_… %s not shown%s — see %s._\n", plural.Count(left.tests, "more test"), which, o.Artifact)
}
