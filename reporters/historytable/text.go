package historytable

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/history"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/textsafe"
	"github.com/ananke/action/reporters/internal/format"
)

// maxName is where a test's name and place are shortened, in runes.
const maxName = 120

// Legend says what the marks of a sequence mean.
const Legend = "Runs: " + format.TrendLegend + "."

// Marks is a sequence (history.Facts.Sequence) as marks, one a run
// (format.Trend).
func Marks(seq string) string { return format.Trend(seq) }

// Headline is the table's first line: "20 runs, run #22 (2026-03-01) to
// run #41 (2026-03-20); 6 tests", or "no runs".
func (t *Table) Headline() string {
	if len(t.Runs) == 0 {
		return "no runs"
	}
	first, last := &t.Runs[0], &t.Runs[len(t.Runs)-1]
	span := runLabel(first)
	if len(t.Runs) > 1 {
		span += " to " + runLabel(last)
	}
	return fmt.Sprintf("%s, %s; %s", plural.Count(len(t.Runs), "run"), span, plural.Count(t.Tests, "test"))
}

func runLabel(r *history.Run) string {
	return fmt.Sprintf("%s (%s)", r.Name(), r.StartedAt.UTC().Format("2006-01-02"))
}

// column is a section's column: its heading and its cell for a test.
type column struct {
	head string
	cell func(f *history.Facts) string
}

// sections are the table's sections with their titles and columns, in
// the order printed; empty ones are left out.
func (t *Table) sections() []struct {
	title string
	sec   Section
	cols  []column
} {
	type s = struct {
		title string
		sec   Section
		cols  []column
	}
	seq := column{"runs, oldest first", func(f *history.Facts) string { return Marks(f.Sequence) }}
	out := []s{
		{"Flakiest", t.Flakiest, []column{
			{"flake rate", func(f *history.Facts) string {
				return fmt.Sprintf("%s (%d/%d)", stability.FormatPercent(pct(f.FlakeRate)), f.Flakes, f.Judged)
			}},
			{"failed", func(f *history.Facts) string { return fmt.Sprintf("%d/%d", f.Failed, f.Judged) }},
			{"pass rate", func(f *history.Facts) string { return t.passRate(f) }},
			seq,
		}},
		{"Failing in the newest runs", t.Failing, []column{
			{"since", func(f *history.Facts) string { return f.Since.Name() }},
			{"failed", func(f *history.Facts) string {
				if f.Streak == 1 {
					return "the last run"
				}
				return fmt.Sprintf("the last %d runs", f.Streak)
			}},
			seq,
		}},
		{"Slowest, by median duration", t.Slowest, []column{
			{"median", func(f *history.Facts) string { return format.Duration(f.MedianMs) }},
			{"last", func(f *history.Facts) string { return format.Duration(f.LastMs) }},
		}},
	}
	if t.ByCost {
		out = append(out, s{"Most expensive, by mean cost per attempt", t.Expensive, []column{
			{"cost", func(f *history.Facts) string { return cost.FormatUSD(*f.MeanCostUSD) }},
			{"last", func(f *history.Facts) string { return usd(f.LastCostUSD) }},
			{"tokens", func(f *history.Facts) string { return tokens(f.MeanTokens) }},
		}})
	} else {
		out = append(out, s{"Most expensive, by mean tokens per attempt", t.Expensive, []column{
			{"tokens", func(f *history.Facts) string { return tokens(f.MeanTokens) }},
			{"last", func(f *history.Facts) string { return tokens(f.LastTokens) }},
		}})
	}
	kept := out[:0]
	for _, x := range out {
		if len(x.sec.Facts) > 0 {
			kept = append(kept, x)
		}
	}
	return kept
}

// passRate is "80% (58–92%)": the pass rate over the test's runs with its
// interval; "-" when it never ran.
func (t *Table) passRate(f *history.Facts) string {
	ci := report.RateInterval(f.PassedRuns, f.Runs, t.Level*100)
	if ci == nil {
		return "-"
	}
	return stability.FormatPercent(pct(f.PassRate)) + " (" + ci.Range() + ")"
}

// pct is a fraction in percent, one decimal.
func pct(f float64) float64 { return float64(int64(f*1000+0.5)) / 10 }

func usd(v *float64) string {
	if v == nil {
		return "unknown"
	}
	return cost.FormatUSD(*v)
}

func tokens(v *float64) string {
	if v == nil {
		return "unknown"
	}
	return cost.FormatTokens(int64(*v + 0.5))
}

// clean shows untrusted text on one line, control characters escaped,
// shortened.
func clean(s string) string { return format.Short(textsafe.Visible(s, false), maxName) }

// place is "file:line", or the file alone at line 1.
func place(t *history.Test) string {
	if t.Line > 1 {
		return fmt.Sprintf("%s:%d", t.File, t.Line)
	}
	return t.File
}

// WriteText writes the table for a terminal: the headline, then each
// non-empty section with aligned columns and the test's name and place,
// then the legend of the sequences when one was shown.
func WriteText(w io.Writer, t *Table) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "History: "+t.Headline())
	secs := t.sections()
	if len(secs) == 0 && len(t.Runs) > 0 {
		fmt.Fprintln(bw, "\nNo test was flaky or failing, and no duration or usage is known.")
	}
	legend := false
	for _, s := range secs {
		fmt.Fprintf(bw, "\n%s (%d):\n", s.title, len(s.sec.Facts)+s.sec.More)
		rows := [][]string{}
		head := []string{}
		for _, c := range s.cols {
			head = append(head, c.head)
			legend = legend || c.head == "runs, oldest first"
		}
		rows = append(rows, append(head, "test"))
		for i := range s.sec.Facts {
			f := &s.sec.Facts[i]
			row := []string{}
			for _, c := range s.cols {
				row = append(row, c.cell(f))
			}
			rows = append(rows, append(row, strings.TrimSpace(clean(f.Test.Name)+"  "+clean(place(f.Test)))))
		}
		writeRows(bw, rows)
		if s.sec.More > 0 {
			fmt.Fprintf(bw, "  … and %d more\n", s.sec.More)
		}
	}
	if legend {
		fmt.Fprintln(bw, "\n"+Legend)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write history: %w", err)
	}
	return nil
}

// writeRows writes rows with their columns aligned, two spaces apart, the
// last column unpadded.
func writeRows(w io.Writer, rows [][]string) {
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r[:len(r)-1] {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		b.WriteString("  ")
		for i, c := range r[:len(r)-1] {
			b.WriteString(c)
			b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)+2))
		}
		b.WriteString(r[len(r)-1])
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}
