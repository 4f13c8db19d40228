package diff

import (
	"bufio"
	"fmt"
	"io"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/textsafe"
	"github.com/ananke/action/reporters/internal/format"
)

// TextOptions shape the terminal rendering.
type TextOptions struct {
	// Base says what the head was compared with, e.g. "main (run 41)";
	// shown under the headline when set.
	Base string
	// CostGate, when set, is --fail-on-cost-increase: the cost changes
	// over it say so.
	CostGate *float64
}

// Lengths, in runes, at which the terminal rendering shortens untrusted
// text, so that each test and each failure stays on one line.
const (
	maxName    = 120
	maxMessage = 300
)

// WriteText writes the change as plain text for a terminal: the headline,
// the totals of both runs, then a section per non-empty category with a
// line per test — its status transition (or duration change, or pass
// rates), name and file:line — and, for new failures, its failing
// assertions indented under it at their file:line:col (for regressed
// tests, the assertions that fail more often). Untrusted text is shown with control
// characters escaped, never as colour or cursor movement.
func WriteText(w io.Writer, c *Change, o TextOptions) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, c.Headline())
	if o.Base != "" {
		fmt.Fprintln(bw, "Compared with "+clean(o.Base, maxName))
	}
	fmt.Fprintln(bw, "Tests: "+totalsLine(c))
	for _, l := range []string{costLine(&c.Cost), ratesLine(&c.Rates)} {
		if l != "" {
			fmt.Fprintln(bw, l)
		}
	}
	for _, s := range sections(c, o.CostGate) {
		fmt.Fprintf(bw, "\n%s:\n", s.title)
		width := 0
		for _, it := range s.items {
			width = max(width, len([]rune(it.lead)))
		}
		for _, it := range s.items {
			textItem(bw, it, width)
		}
		if s.more > 0 {
			fmt.Fprintf(bw, "  … and %d more\n", s.more)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write change: %w", err)
	}
	return nil
}

// textItem writes an item's line, then its failures or reason.
func textItem(w io.Writer, it item, width int) {
	note := ""
	if it.note != "" {
		note = "  (" + clean(it.note, maxMessage) + ")"
	}
	fmt.Fprintf(w, "  %-*s  %s  %s%s\n", width, it.lead, clean(it.Name, maxName), clean(it.place(), maxName), note)
	for _, f := range it.checks {
		fmt.Fprintf(w, "      %s: %s: %s\n", clean(f.Source.String(), maxName), clean(f.ID, maxName), f.Message)
	}
	if it.moreChecks > 0 {
		fmt.Fprintf(w, "      … and %s that fail more often\n", plural.Count(it.moreChecks, "more assertion"))
	}
	if !it.detail {
		return
	}
	for _, f := range it.Failures {
		fmt.Fprintf(w, "      %s: %s: %s\n", clean(f.Source.String(), maxName), clean(f.ID, maxName), clean(f.Message, maxMessage))
	}
	if it.MoreFailures > 0 {
		fmt.Fprintf(w, "      … and %d more failing %s\n", it.MoreFailures, plural.Noun(it.MoreFailures, "assertion"))
	}
	if len(it.Failures) == 0 && it.Reason != "" {
		fmt.Fprintf(w, "      %s\n", clean(it.Reason, maxMessage))
	}
}

// clean shows untrusted text on one line with control characters escaped,
// shortened to n runes.
func clean(s string, n int) string { return format.Short(textsafe.Visible(s, false), n) }
