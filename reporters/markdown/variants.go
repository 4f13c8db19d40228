package markdown

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/reporters/internal/format"
)

// Variants (docs/variants.md): the comparison of the variants the suite
// ran against, under the totals — the verdict of each pair first, then
// each variant's totals, then the matrix of tests × variants with the
// significantly worse cells marked, as many rows as the budget holds, the
// rest folded into a note pointing at the report.

// fitVariants is the comparison section that fits in the budget beside
// used bytes: the pair verdicts and the variants' lines when they fit,
// then the matrix's rows while they fit beside the note saying how many
// are left out.
func fitVariants(r *report.Report, o Options, used int) string {
	v := r.Variants
	if v == nil || len(v.Variants) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("### Variants\n\n")
	said := map[string]bool{}
	for _, p := range v.Pairs {
		if !said[p.Line] { // a variant that could not run, said once
			said[p.Line] = true
			b.WriteString("- " + text(p.Line) + "\n")
		}
	}
	b.WriteString("\n")
	for _, s := range v.Variants {
		b.WriteString("- **" + text(s.Name) + "**")
		if s.Overrides != "" {
			b.WriteString(" (" + code(s.Overrides, false) + ")")
		}
		b.WriteString(": " + text(format.VariantTotals(s)) + "\n")
	}
	b.WriteString("\n")
	top := b.String()
	if o.Budget > 0 && used+len(top) > o.Budget {
		return ""
	}
	head, tail := matrixHead(v), legend(v)
	fits := func(size int) bool { return o.Budget <= 0 || used+size <= o.Budget }
	size := len(top) + len(head) + 1 + len(tail)
	var rows []string
	for i, row := range v.Rows {
		line := matrixRow(row, v.Significance)
		if !fits(size + len(line) + len(foldNote(len(v.Rows)-i-1, o))) {
			break
		}
		rows = append(rows, line)
		size += len(line)
	}
	if len(rows) == 0 {
		if n := foldNote(len(v.Rows), o); fits(len(top) + len(n)) {
			return top + n
		}
		return top
	}
	return top + head + strings.Join(rows, "") + "\n" + foldNote(len(v.Rows)-len(rows), o) + tail
}

// matrixHead is the matrix's heading: a column per variant, and the
// significant differences last.
func matrixHead(v *report.Variants) string {
	var b strings.Builder
	b.WriteString("| Test |")
	for _, s := range v.Variants {
		b.WriteString(" " + text(s.Name) + " |")
	}
	b.WriteString(" Significant |\n|---|")
	b.WriteString(strings.Repeat("---|", len(v.Variants)+1))
	b.WriteString("\n")
	return b.String()
}

// matrixRow is one test across the variants: a cell significantly worse
// than another variant's is marked and bold.
func matrixRow(row report.ComparisonRow, alpha float64) string {
	var b strings.Builder
	b.WriteString("| " + text(format.Short(row.Name, maxName)) + " |")
	worse := format.WorseCells(row)
	for i, c := range row.Cells {
		s := text(format.VariantCell(c))
		if worse[i] {
			s = "**" + s + " " + format.WorseMark + "**"
		}
		b.WriteString(" " + s + " |")
	}
	b.WriteString(" " + text(format.Differences(row, alpha)) + " |\n")
	return b.String()
}

// foldNote says how many rows of the matrix were left out; "" for none.
func foldNote(n int, o Options) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("_… %s more in %s._\n\n", plural.Count(n, "test"), o.Artifact)
}

// legend says what the mark and the cells mean, under the matrix.
func legend(v *report.Variants) string {
	return fmt.Sprintf("_%s significantly lower pass rate at level %s (Fisher's exact test, two-sided); a cell is status, passing runs (interval), mean cost per attempt, median turn._\n\n",
		format.WorseMark, stability.FormatPercent(v.Significance*100))
}
