package markdown_test

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/status"
)

// many returns a report of nFail copies of the fixture's failing test and
// nPass copies of its passing one, interleaved (a passing test after every
// tenth failing one), so that ordering is exercised.
func many(nFail, nPass int) *report.Report {
	fix := reporttest.Report()
	fail, pass := fix.Tests[0], fix.Tests[1]
	r := *fix
	r.Tests = nil
	for i, p := 0, 0; i < nFail || p < nPass; i++ {
		if i < nFail {
			t := fail
			t.ID, t.Name = fmt.Sprintf("tests/checkout-%03d", i), fmt.Sprintf("checkout %03d declines the card", i)
			r.Tests = append(r.Tests, t)
		}
		if (i%10 == 9 || i >= nFail) && p < nPass {
			t := pass
			t.ID, t.Name = fmt.Sprintf("tests/weather-%03d", p), fmt.Sprintf("weather %03d in Paris", p)
			r.Tests = append(r.Tests, t)
			p++
		}
	}
	r.Totals = report.Totals{Total: nFail + nPass, Passed: nPass, Failed: nFail}
	r.Status = status.Pass
	if nFail > 0 {
		r.Status = status.Fail
	}
	if r.Totals.Total > 0 {
		r.Totals.PassRate = float64(nPass*1000/r.Totals.Total) / 10
	}
	return &r
}

// calm removes a test's failing warnings, for the tests that need a
// passing test with nothing to show.
func calm(t *report.Test) {
	var kept []report.Assertion
	for _, a := range t.Assertions {
		if a.Status != status.Warn && a.Status != status.Error {
			kept = append(kept, a)
		}
	}
	t.Assertions = kept
}

// outsideCode returns out without fenced code blocks and code spans: what
// GitHub renders as markdown and HTML, where mentions and links are live.
func outsideCode(out string) string {
	var b strings.Builder
	open := ""
	for _, line := range strings.Split(out, "\n") {
		switch {
		case open != "":
			if closes(line, open) {
				open = ""
			}
		case opens(line) != "":
			open = opens(line)
		default:
			b.WriteString(stripSpans(line) + "\n")
		}
	}
	return b.String()
}

// stripSpans removes code spans from one line, as CommonMark finds them:
// a run of n backticks, not backslash-escaped, up to the next run of
// exactly n.
func stripSpans(line string) string {
	var b strings.Builder
	for i := 0; i < len(line); {
		switch c := line[i]; {
		case c == '\\' && i+1 < len(line):
			b.WriteString(line[i : i+2])
			i += 2
		case c == '`':
			n := runAt(line, i)
			end := closing(line, i+n, n)
			if end < 0 {
				b.WriteString(line[i : i+n])
				i += n
				continue
			}
			b.WriteString("<code/>")
			i = end + n
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

func runAt(s string, i int) int {
	n := 0
	for i+n < len(s) && s[i+n] == '`' {
		n++
	}
	return n
}

func closing(s string, from, n int) int {
	for i := from; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		if m := runAt(s, i); m == n {
			return i
		} else {
			i += m
		}
	}
	return -1
}

// tableRows returns the rows of the table of tests.
func tableRows(out string) []string {
	var rows []string
	in := false
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "| | Test |"):
			in = true
		case in && strings.HasPrefix(line, "|:-:|"):
		case in && strings.HasPrefix(line, "| "):
			rows = append(rows, line)
		default:
			in = false
		}
	}
	return rows
}

// wantCells is the number of cells of each row of r's table: 7 with the
// Runs and Flaky columns, which only a report with a repeated test has.
func wantCells(r *report.Report) int {
	n := 5
	for i := range r.Tests {
		if r.Tests[i].Repeated() {
			n = 7
			break
		}
	}
	if r.Totals.Usage != nil { // the Cost column
		n++
	}
	return n
}

// cells counts the pipes that split a table row into cells: those not
// escaped by a backslash (GFM honours "\|" even inside code spans).
func cells(row string) int {
	n := 0
	for i := 0; i < len(row); i++ {
		if row[i] == '|' && (i == 0 || row[i-1] != '\\') {
			n++
		}
	}
	return n - 1
}
