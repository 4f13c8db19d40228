package diff

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/internal/format"
	"github.com/ananke/action/reporters/markdown"
)

// MarkdownOptions shape the markdown rendering.
type MarkdownOptions struct {
	// Budget is the maximum size of the output in bytes (0: no limit).
	Budget int
	// LinkBase, when set, links tests and assertions to their lines:
	// LinkBase + file + "#L" + line, as in reporters/markdown.
	LinkBase string
	// Base is trusted markdown saying what the head was compared with,
	// e.g. "[run #41](https://…) on `main` (abc1234)"; shown under the
	// headline when set.
	Base string
	// CostGate, when set, is --fail-on-cost-increase: the cost changes
	// over it say so.
	CostGate *float64
}

// Markdown renders the change as GitHub-flavoured markdown, never longer
// than o.Budget bytes: the headline in bold, what was compared, the totals
// of both runs, then a list per non-empty category (new failures with
// their failing assertions under them). Names, messages and paths are
// escaped as reporters/markdown escapes them.
//
// The headline, comparison and totals come first; then tests are added
// whole, category by category in order, until the next would not fit: the
// category being filled ends with "… and N more", and the categories not
// reached are named, with their counts, in a last line. If the top and
// that line do not fit, the headline alone is kept, cut to the budget if
// need be: it counts every category.
func Markdown(c *Change, o MarkdownOptions) string {
	top := "**" + c.Headline() + "**\n\n"
	if b := strings.TrimSpace(o.Base); b != "" {
		top += "Compared with " + b + "\n\n"
	}
	top += "Tests: " + totalsLine(c) + "\n\n"
	for _, l := range []string{costLine(&c.Cost), ratesLine(&c.Rates)} {
		if l != "" {
			top += markdown.Text(l) + "\n\n"
		}
	}
	var p plan
	p.init(sections(c, o.CostGate), o)
	if o.Budget > 0 && len(top)+p.size() > o.Budget {
		return cut(top, o.Budget)
	}
	for p.next() {
		p.take()
		if o.Budget > 0 && len(top)+p.size() > o.Budget {
			p.untake()
			break
		}
	}
	return strings.TrimRight(top+p.render(), "\n") + "\n"
}

// plan keeps track of which items are shown: the first shown[i] of
// section i, filled in order; fixed is the bytes of what is shown.
type plan struct {
	secs  []section
	rows  [][]string // each item rendered
	shown []int
	cur   int // the section being filled
	fixed int
}

func (p *plan) init(secs []section, o MarkdownOptions) {
	p.secs, p.shown = secs, make([]int, len(secs))
	for _, s := range secs {
		var rows []string
		for _, it := range s.items {
			rows = append(rows, mdItem(it, o))
		}
		p.rows = append(p.rows, rows)
	}
}

// next reports whether an item is left, moving to the next section when
// the current one is full.
func (p *plan) next() bool {
	for p.cur < len(p.secs) && p.shown[p.cur] == len(p.secs[p.cur].items) {
		p.cur++
	}
	return p.cur < len(p.secs)
}

// cost is the bytes the next item adds: its row, and its section's title
// and closing blank line when it is the section's first.
func (p *plan) cost() int {
	n := len(p.rows[p.cur][p.shown[p.cur]])
	if p.shown[p.cur] == 0 {
		n += len(title(p.secs[p.cur])) + 1
	}
	return n
}

func (p *plan) take() {
	p.fixed += p.cost()
	p.shown[p.cur]++
}

func (p *plan) untake() {
	p.shown[p.cur]--
	p.fixed -= p.cost()
}

// size is the bytes render gives, trimmed as Markdown trims it: the
// shown sections, their "… and N more" lines and the note. Without the
// note the output ends with a section's blank line, which is trimmed.
func (p *plan) size() int {
	n := p.fixed
	for i := range p.secs {
		n += len(p.moreLine(i))
	}
	if note := p.notShown(); note != "" {
		return n + len(note)
	}
	return n - 1
}

// moreLine is "- … and N more" for a started section with items left out
// (by the budget or by MaxDurations); "" otherwise.
func (p *plan) moreLine(i int) string {
	if p.shown[i] == 0 {
		return ""
	}
	if n := len(p.secs[i].items) - p.shown[i] + p.secs[i].more; n > 0 {
		return fmt.Sprintf("- … and %d more\n", n)
	}
	return ""
}

// notShown names the sections with nothing shown: "_Not shown for lack of
// room: Removed (2), Slower (3)._"; "" when there are none.
func (p *plan) notShown() string {
	var names []string
	for i, s := range p.secs {
		if p.shown[i] == 0 {
			names = append(names, s.title)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return "_Not shown for lack of room: " + strings.Join(names, ", ") + "._\n"
}

// render writes the shown sections, then the note.
func (p *plan) render() string {
	var b strings.Builder
	for i, s := range p.secs {
		if p.shown[i] == 0 {
			continue
		}
		b.WriteString(title(s))
		for _, r := range p.rows[i][:p.shown[i]] {
			b.WriteString(r)
		}
		b.WriteString(p.moreLine(i))
		b.WriteString("\n")
	}
	b.WriteString(p.notShown())
	return b.String()
}

func title(s section) string { return "**" + s.title + "**\n\n" }

// mdItem is an item's list entry: name, transition, location and note,
// then its failures (or reason) as a nested list.
func mdItem(it item, o MarkdownOptions) string {
	var b strings.Builder
	b.WriteString("- " + markdown.Text(format.Short(it.Name, maxName)) + " · " + markdown.Text(it.lead))
	if at := testLink(it.Entry, o); at != "" {
		b.WriteString(" · " + at)
	}
	if it.note != "" {
		b.WriteString(" · " + markdown.Inline(format.Short(it.note, maxMessage)))
	}
	b.WriteString("\n")
	for _, f := range it.checks {
		b.WriteString("  - " + markdown.Code(f.ID, false))
		if at := link(f.Source, o); at != "" {
			b.WriteString(" at " + at)
		}
		b.WriteString(": " + markdown.Text(f.Message) + "\n")
	}
	if it.moreChecks > 0 {
		fmt.Fprintf(&b, "  - … and %s that fail more often\n", plural.Count(it.moreChecks, "more assertion"))
	}
	if !it.detail {
		return b.String()
	}
	for _, f := range it.Failures {
		b.WriteString("  - " + markdown.Code(f.ID, false))
		if at := link(f.Source, o); at != "" {
			b.WriteString(" at " + at)
		}
		b.WriteString(": " + markdown.Inline(format.Short(f.Message, maxMessage)) + "\n")
	}
	if it.MoreFailures > 0 {
		fmt.Fprintf(&b, "  - … and %d more failing %s\n", it.MoreFailures, plural.Noun(it.MoreFailures, "assertion"))
	}
	if len(it.Failures) == 0 && it.Reason != "" {
		b.WriteString("  - " + markdown.Inline(format.Short(it.Reason, maxMessage)) + "\n")
	}
	return b.String()
}

// testLink is where a test is declared, as reporters/markdown shows it:
// the file, with the line for a dataset's test.
func testLink(e Entry, o MarkdownOptions) string {
	l := report.Location{File: e.File}
	if e.Line > 1 {
		l.Line = e.Line
	}
	return link(l, o)
}

// link renders a position as `file:line`, linked to the line when
// LinkBase is set; "" without a file.
func link(l report.Location, o MarkdownOptions) string {
	if l.File == "" {
		return ""
	}
	s := l.File
	if l.Line > 0 {
		s = fmt.Sprintf("%s:%d", l.File, l.Line)
	}
	c := markdown.Code(s, false)
	if o.LinkBase == "" {
		return c
	}
	return "[" + c + "](" + markdown.Href(o.LinkBase, l.File, max(l.Line, 1)) + ")"
}

// cut shortens s to at most n bytes on a rune boundary, ending with a
// newline when there is room for one.
func cut(s string, n int) string {
	s, _, _ = strings.Cut(s, "\n")
	switch {
	case len(s)+1 <= n:
		return s + "\n"
	case len(s) <= n:
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
