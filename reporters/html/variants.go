package html

import (
	"slices"
	"strconv"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/format"
)

// Variants (docs/variants.md) on the page, when the suite ran against
// several: the run's header gives the pair verdicts and links the
// comparison view (#variants), which has each variant's totals, cost,
// median turn latency and error, the pair verdicts, and a matrix of tests
// × variants — each cell the test's status, passed runs, pass rate with
// its interval, cost and latency, linking to the test under that variant
// — sortable by test, by a variant's pass rate or by the largest
// difference, and filtered to the tests that differ or differ
// significantly. The page shows the report's comparison; it computes no
// statistic of its own.

// variants is the report's comparison as the page shows it.
type variants struct {
	Variants []variantHead `json:"variants"`
	Rows     []variantRow  `json:"rows"`
	Pairs    []variantPair `json:"pairs"`
	// Significance is the level a difference is marked at, "0.05".
	Significance string `json:"significance"`
}

// variantHead is one variant's run as a whole: Usage in words ("5.2k
// tokens · $0.00094"; absent when no test reported usage).
type variantHead struct {
	Name         string        `json:"name"`
	Overrides    string        `json:"overrides,omitempty"`
	Totals       variantTotals `json:"totals"`
	Usage        string        `json:"usage,omitempty"`
	MedianTurnMs *int64        `json:"median_turn_ms,omitempty"`
	Error        string        `json:"error,omitempty"`
}

type variantTotals struct {
	Total    int     `json:"total"`
	Passed   int     `json:"passed"`
	Failed   int     `json:"failed"`
	Errored  int     `json:"errored"`
	Skipped  int     `json:"skipped"`
	Flaky    int     `json:"flaky"`
	PassRate float64 `json:"pass_rate"`
}

// variantRow is one test across the variants. Spread is the largest
// difference of its pass rates, in points, over the cells that were
// judged (an errored or skipped cell's agent was not);
// Differ says its cells differ in status or pass rate.
type variantRow struct {
	Test        string        `json:"test"`
	Name        string        `json:"name"`
	Source      string        `json:"source"` // file:line
	Cells       []variantCell `json:"cells"`
	Differences []variantDiff `json:"differences,omitempty"`
	Spread      float64       `json:"spread"`
	Differ      bool          `json:"differ,omitempty"`
}

// variantCell is one test under one variant: Interval its pass rate's
// ("57–100%"; absent when the agent was not judged: errored, skipped), Cost the mean cost per attempt ("$0.002") or, unknown,
// its tokens ("1.2k tokens"); Better and Worse mark a pass rate
// significantly above or below another variant's.
type variantCell struct {
	Variant      string        `json:"variant"`
	ID           string        `json:"id"`
	Status       status.Status `json:"status"`
	Runs         int           `json:"runs"`
	Passed       int           `json:"passed"`
	PassRate     float64       `json:"pass_rate"`
	Rate         string        `json:"rate"`
	Interval     string        `json:"interval,omitempty"`
	Cost         string        `json:"cost,omitempty"`
	MedianTurnMs *int64        `json:"median_turn_ms,omitempty"`
	Better       bool          `json:"better,omitempty"`
	Worse        bool          `json:"worse,omitempty"`
}

// variantDiff is a significant difference of one test's pass rates, in
// words: "careful passes more often than baseline (p = 0.008)".
type variantDiff struct {
	Better string `json:"better"`
	Worse  string `json:"worse"`
	Text   string `json:"text"`
}

// variantPair is a pair's verdict: Line as the report says it, Better and
// Worse how many tests are significantly better and worse under B.
type variantPair struct {
	A      string `json:"a"`
	B      string `json:"b"`
	Line   string `json:"line"`
	Better int    `json:"better,omitempty"`
	Worse  int    `json:"worse,omitempty"`
}

// variantsOf is the report's comparison for the page; nil without
// variants.
func variantsOf(r *report.Report) *variants {
	v := r.Variants
	if v == nil {
		return nil
	}
	out := &variants{Variants: make([]variantHead, 0, len(v.Variants)), Rows: make([]variantRow, 0, len(v.Rows)),
		Pairs: make([]variantPair, 0, len(v.Pairs)), Significance: strconv.FormatFloat(v.Significance, 'g', -1, 64)}
	for _, s := range v.Variants {
		t := s.Totals
		out.Variants = append(out.Variants, variantHead{Name: s.Name, Overrides: s.Overrides, MedianTurnMs: s.MedianTurnMs, Error: s.Error,
			Usage: usageText(s.Usage), Totals: variantTotals{Total: t.Total, Passed: t.Passed, Failed: t.Failed, Errored: t.Errored,
				Skipped: t.Skipped, Flaky: t.Flaky, PassRate: t.PassRate}})
	}
	for i := range v.Rows {
		out.Rows = append(out.Rows, variantRowOf(&v.Rows[i], v.Significance))
	}
	for _, p := range v.Pairs {
		out.Pairs = append(out.Pairs, variantPair{A: p.A, B: p.B, Line: p.Line, Better: len(p.Better), Worse: len(p.Worse)})
	}
	return out
}

func variantRowOf(rr *report.ComparisonRow, alpha float64) variantRow {
	src := rr.File
	if rr.Line > 0 {
		src += ":" + strconv.Itoa(rr.Line)
	}
	row := variantRow{Test: rr.Test, Name: rr.Name, Source: src, Cells: make([]variantCell, 0, len(rr.Cells))}
	better, worse := map[string]bool{}, map[string]bool{}
	for _, d := range rr.Differences {
		lost := d.A
		if d.Better == d.A {
			lost = d.B
		}
		better[d.Better], worse[lost] = true, true
		row.Differences = append(row.Differences, variantDiff{Better: d.Better, Worse: lost,
			Text: d.Better + " passes more often than " + lost + " (" + format.PValue(d.P, alpha) + ")"})
	}
	var ran []variantCell
	for _, c := range rr.Cells {
		cell := variantCell{Variant: c.Variant, ID: c.ID, Status: status.Status(c.Status), Runs: c.Runs, Passed: c.Passed, PassRate: c.PassRate,
			Rate: format.Rate(c.PassRate, nil), MedianTurnMs: c.MedianTurnMs, Better: better[c.Variant], Worse: worse[c.Variant]}
		if c.Runs > 0 && cell.Status != status.Error && cell.Status != status.Skipped {
			iv := report.Interval{Lo: c.Low, Hi: c.High}
			cell.Interval = iv.Range()
			ran = append(ran, cell)
		}
		switch {
		case c.CostUSD != nil:
			cell.Cost = cost.FormatUSD(*c.CostUSD)
		case c.Tokens != nil:
			cell.Cost = cost.FormatTokens(int64(*c.Tokens+0.5)) + " tokens"
		}
		row.Cells = append(row.Cells, cell)
	}
	for i, a := range ran {
		for _, b := range ran[i+1:] {
			row.Spread = max(row.Spread, a.PassRate-b.PassRate, b.PassRate-a.PassRate)
		}
	}
	row.Differ = slices.ContainsFunc(row.Cells, func(c variantCell) bool {
		return c.Status != row.Cells[0].Status || c.PassRate != row.Cells[0].PassRate
	})
	return row
}

// usageText is a spend in words, "" for none.
func usageText(s *cost.Spend) string {
	if s == nil {
		return ""
	}
	return s.Summary()
}
