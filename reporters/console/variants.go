package console

import (
	"strings"
	"unicode/utf8"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/format"
)

// Variants (docs/variants.md): after the summary, the comparison — each
// variant with what it overrides and its totals, a matrix of tests ×
// variants with the cells significantly worse marked and the differences
// under their row, then the verdict of each pair.

// maxVariantRows bounds the matrix's rows; the report directory has
// them all.
const maxVariantRows = 50

// maxNameWidth bounds the test names' column.
const maxNameWidth = 40

// variants prints the comparison of r's variants, if any.
func (p *printer) variants(r *report.Report) {
	v := r.Variants
	if v == nil || len(v.Variants) == 0 {
		return
	}
	p.line(0, "")
	p.line(0, "Variants:")
	for _, s := range v.Variants {
		style := "dim"
		if s.Error != "" {
			style = string(status.Error)
		}
		p.line(1, clean(format.VariantName(s))+": "+p.o.paint(style, clean(format.VariantTotals(s))))
	}
	p.matrix(v)
	said := map[string]bool{}
	for _, pv := range v.Pairs {
		if said[pv.Line] {
			continue // a variant that could not run, said once
		}
		said[pv.Line] = true
		style := "pass"
		if len(pv.Worse) > 0 || pv.MorePassing < 0 {
			style = "fail"
		}
		p.line(0, p.o.paint(style, clean(pv.Line)))
	}
}

// matrix prints the tests × variants table, its columns aligned, each row's
// significant differences under it.
func (p *printer) matrix(v *report.Variants) {
	rows := v.Rows
	if len(rows) > maxVariantRows {
		rows = rows[:maxVariantRows]
	}
	names := make([]string, len(rows))
	cells := make([][]string, len(rows))
	width := make([]int, len(v.Variants)+1)
	width[0] = len("test")
	head := []string{"test"}
	for i, s := range v.Variants {
		head = append(head, s.Name)
		width[i+1] = utf8.RuneCountInString(clean(s.Name))
	}
	for r, row := range rows {
		names[r] = format.Short(clean(row.Name), maxNameWidth)
		width[0] = max(width[0], utf8.RuneCountInString(names[r]))
		worse := format.WorseCells(row)
		cells[r] = make([]string, len(row.Cells))
		for i, c := range row.Cells {
			s := format.VariantCell(c)
			if worse[i] {
				s += " " + format.WorseMark
			}
			cells[r][i] = s
			width[i+1] = max(width[i+1], utf8.RuneCountInString(s))
		}
	}
	p.line(1, p.o.paint("dim", strings.TrimRight(padded(head, width), " ")))
	for r, row := range rows {
		parts := []string{fit(names[r], width[0])}
		for i, c := range row.Cells {
			s := fit(cells[r][i], width[i+1])
			if i == len(row.Cells)-1 {
				s = cells[r][i]
			}
			parts = append(parts, p.o.paint(cellStyle(c), s))
		}
		p.line(1, strings.Join(parts, "  "))
		if d := format.Differences(row, v.Significance); d != "" {
			p.line(2, p.o.paint("fail", format.WorseMark+" "+clean(d)))
		}
	}
	if n := len(v.Rows) - len(rows); n > 0 {
		p.line(1, p.o.paint("dim", "… "+plural.Count(n, "test")+" more in the report directory"))
	}
}

// cellStyle is a cell's colour: its status's, dim for a test not run.
func cellStyle(c report.ComparisonCell) string {
	if c.Status == "" {
		return "dim"
	}
	return c.Status
}

// padded is cells, each padded to its column's width, two spaces apart.
func padded(cells []string, width []int) string {
	parts := make([]string, len(cells))
	for i, c := range cells {
		parts[i] = fit(clean(c), width[i])
	}
	return strings.Join(parts, "  ")
}

// fit pads s with spaces to n characters.
func fit(s string, n int) string {
	return s + strings.Repeat(" ", max(0, n-utf8.RuneCountInString(s)))
}
