package markdown

import (
	"fmt"
	"strings"

	"github.com/ananke/action/reporters/internal/format"

	"github.com/ananke/action/internal/report"
)

// Lengths, in runes, at which untrusted text is shortened; they bound the
// size of one test's block so that trimming loses whole tests, not halves.
const (
	maxName     = 120
	maxUser     = 70
	maxMessage  = 500
	maxValue    = 300
	maxReason   = 500
	maxArg      = 80
	maxExcerpt  = 200
	maxDetail   = 4000 // bytes of an errored test's detail
	detailLines = 40
)

// heading is the first line: the verdict in words, e.g.
// "### ✗ Ananke: 1 failed, 1 errored of 4 tests".
func heading(t report.Totals, title string) string {
	var sym, what string
	switch {
	case t.Failed > 0 || t.Errored > 0:
		sym = "✗"
		if t.Failed == 0 {
			sym = "!"
		}
		var parts []string
		if t.Failed > 0 {
			parts = append(parts, fmt.Sprintf("%d failed", t.Failed))
		}
		if t.Errored > 0 {
			parts = append(parts, fmt.Sprintf("%d errored", t.Errored))
		}
		what = strings.Join(parts, ", ") + " of " + count(t.Total, "test")
	case t.Passed > 0 && t.Skipped > 0:
		sym, what = "✓", fmt.Sprintf("%d of %s passed, %d skipped", t.Passed, count(t.Total, "test"), t.Skipped)
	case t.Passed == 1 && t.Total == 1:
		sym, what = "✓", "1 test passed"
	case t.Passed > 0:
		sym, what = "✓", fmt.Sprintf("all %s passed", count(t.Total, "test"))
	case t.Total == 0:
		sym, what = "-", "no tests ran"
	default:
		sym, what = "-", count(t.Total, "test")+" skipped"
	}
	return fmt.Sprintf("### %s %s: %s\n\n", sym, text(title), what)
}

// totals is a one-row table of the counts, pass rate and run time.
func totals(r *report.Report) string {
	t := r.Totals
	return "| Total | Passed | Failed | Errored | Skipped | Pass rate | Duration |\n" +
		"|--:|--:|--:|--:|--:|--:|--:|\n" +
		fmt.Sprintf("| %d | %d | %d | %d | %d | %.1f%% | %s |\n\n",
			t.Total, t.Passed, t.Failed, t.Errored, t.Skipped, t.PassRate, format.Duration(r.DurationMs))
}

// tableHead starts the table of tests; the blank line after the last row
// is counted with it.
const tableHead = "| | Test | File | Duration | Failed assertions |\n|:-:|---|---|--:|--:|\n"

// row is a test's line in the table.
func row(t *report.Test, o Options) string {
	name := text(format.Short(t.Name, maxName))
	switch {
	case t.Status == report.StatusSkipped && t.Reason != "":
		name += " — skipped: " + text(format.Short(t.Reason, maxName))
	case t.Status != report.StatusFail && t.Status != report.StatusError && len(t.Warnings) > 0:
		name += " (⚠ " + count(len(t.Warnings), "protocol warning") + ")"
	}
	failed := ""
	if n := len(t.Failed()); n > 0 {
		failed = fmt.Sprint(n)
	}
	file := code(t.File, true)
	if o.LinkBase != "" && t.File != "" {
		file = "[" + file + "](" + href(o.LinkBase, t.File, 1) + ")"
	}
	return fmt.Sprintf("| %s | %s | %s | %s | %s |\n", symbol(t.Status), name, file, format.Duration(t.DurationMs), failed)
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

func symbol(status string) string {
	switch status {
	case report.StatusPass:
		return "✓"
	case report.StatusFail:
		return "✗"
	case report.StatusError:
		return "!"
	}
	return "-"
}

// count is "1 test", "2 tests".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
