package format

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
)

// Variants (docs/variants.md): the comparison of a run against several
// variants, report.Variants, in the words every text output shares.

// WorseMark marks a cell whose pass rate is significantly lower than
// another variant's for the same test.
const WorseMark = "▼"

// VariantCell is one test under one variant in a matrix: its status, its
// passing runs, their interval when it ran more than once, its mean cost
// per attempt and its median turn — "✓ 5/5 (57–100%) $0.002 1.2s"; "!
// error" for a test that errored, "—" for one the variant did not run.
func VariantCell(c report.ComparisonCell) string {
	st := status.Status(c.Status)
	switch {
	case c.Status == "":
		return "—"
	case st == status.Error || st == status.Skipped:
		return st.Symbol() + " " + c.Status
	}
	parts := []string{st.Symbol(), fmt.Sprintf("%d/%d", c.Passed, c.Runs)}
	if c.Runs > 1 {
		iv := report.Interval{Lo: c.Low, Hi: c.High}
		parts = append(parts, "("+iv.Range()+")")
	}
	if c.CostUSD != nil {
		parts = append(parts, cost.FormatUSD(*c.CostUSD))
	}
	if c.MedianTurnMs != nil {
		parts = append(parts, Duration(*c.MedianTurnMs))
	}
	return strings.Join(parts, " ")
}

// WorseCells are the positions of a row's cells whose pass rate is
// significantly lower than another variant's.
func WorseCells(row report.ComparisonRow) map[int]bool {
	out := map[int]bool{}
	for _, d := range row.Differences {
		worse := d.A
		if d.Better == d.A {
			worse = d.B
		}
		for i, c := range row.Cells {
			if c.Variant == worse {
				out[i] = true
			}
		}
	}
	return out
}

// Differences says a row's significant differences: "baseline passes
// more often than careful (p < 0.001)", joined by "; ".
func Differences(row report.ComparisonRow, alpha float64) string {
	var parts []string
	for _, d := range row.Differences {
		worse := d.A
		if d.Better == d.A {
			worse = d.B
		}
		parts = append(parts, fmt.Sprintf("%s passes more often than %s (%s)", d.Better, worse, PValue(d.P, alpha)))
	}
	return strings.Join(parts, "; ")
}

// VariantName is a variant with what it overrides: "careful
// (server.env.MODEL_BEHAVIOUR)".
func VariantName(v report.VariantSummary) string {
	if v.Overrides == "" {
		return v.Name
	}
	return v.Name + " (" + v.Overrides + ")"
}

// VariantTotals is a variant's run in one line: "3 passed, 1 failed of
// 4 (75%) · 10.4k tokens · $0.026 · median turn 1.2s", or why it could not
// run.
func VariantTotals(v report.VariantSummary) string {
	if v.Error != "" {
		return "could not run: " + v.Error
	}
	t := v.Totals
	parts := []string{fmt.Sprintf("%d passed", t.Passed)}
	if t.Failed > 0 {
		parts = append(parts, fmt.Sprintf("%d failed", t.Failed))
	}
	if t.Errored > 0 {
		parts = append(parts, fmt.Sprintf("%d errored", t.Errored))
	}
	if t.Skipped > 0 {
		parts = append(parts, fmt.Sprintf("%d skipped", t.Skipped))
	}
	s := fmt.Sprintf("%s of %d (%s)", strings.Join(parts, ", "), t.Total, stability.FormatPercent(t.PassRate))
	if v.Usage != nil {
		s += " · " + v.Usage.Summary()
	}
	if v.MedianTurnMs != nil {
		s += " · median turn " + Duration(*v.MedianTurnMs)
	}
	return s
}
