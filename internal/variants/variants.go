// Package variants compares the variants a suite ran against
// (docs/variants.md): from a report whose tests carry their variant, a
// matrix of tests × variants — each test's pass rate with its interval,
// its cost and tokens per attempt, its median turn — with the differences
// of pass rates that chance hardly explains marked, and a verdict in one
// line per pair of variants. It decides nothing about the run's status.
package variants

import (
	"strings"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/stats"
	"github.com/ananke/action/internal/status"
)

// DefaultSignificance is the level Compare judges differences at when
// given none: the level `ananke diff` judges regressions at.
const DefaultSignificance = 0.05

// Compare compares the variants names, in that order, over r's tests that
// ran under them (report.Test.Variant): one row per test of the suite in
// r's order, one cell per variant, a difference per pair of variants whose
// pass rates of the test differ at the level significance (Fisher's exact
// test, two-sided: stats.FisherTwoSided), and a verdict per pair. Tests of
// other variants, or of none, are left out. What each variant overrides
// is kept from r.Variants when it already compares them (a merged
// report's). nil without names.
func Compare(r *report.Report, names []string, significance float64) *report.Variants {
	if len(names) == 0 {
		return nil
	}
	if significance <= 0 {
		significance = DefaultSignificance
	}
	level := r.Confidence
	if level <= 0 {
		level = 95
	}
	index := map[string]int{}
	for i, n := range names {
		index[n] = i
	}
	groups := make([][]report.Test, len(names))
	var rows []*row
	byBase := map[string]*row{}
	for i := range r.Tests {
		t := &r.Tests[i]
		v, ok := index[t.Variant]
		if !ok || t.Variant == "" {
			continue
		}
		groups[v] = append(groups[v], *t)
		base := strings.TrimSuffix(t.ID, "@"+t.Variant)
		rw := byBase[base]
		if rw == nil {
			rw = &row{tests: make([]*report.Test, len(names))}
			rw.ComparisonRow = report.ComparisonRow{Test: base, Name: t.Name, File: t.File, Line: t.Line}
			byBase[base] = rw
			rows = append(rows, rw)
		}
		if rw.tests[v] == nil {
			rw.tests[v] = t
		}
	}
	out := &report.Variants{Significance: significance, Variants: make([]report.VariantSummary, len(names)),
		Rows: make([]report.ComparisonRow, 0, len(rows)), Pairs: []report.PairVerdict{}}
	for i, n := range names {
		out.Variants[i] = summary(n, groups[i])
		out.Variants[i].Overrides = overrides(r.Variants, n)
	}
	for _, rw := range rows {
		rw.Cells = make([]report.ComparisonCell, len(names))
		for i, n := range names {
			rw.Cells[i] = cell(n, rw.tests[i], level)
		}
		rw.Differences = differences(rw.Cells, significance)
		out.Rows = append(out.Rows, rw.ComparisonRow)
	}
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			out.Pairs = append(out.Pairs, pair(out, i, j))
		}
	}
	return out
}

// row is a comparison row being built, with its tests under each variant
// (nil: the variant did not run it).
type row struct {
	report.ComparisonRow
	tests []*report.Test
}

// overrides is what variant name overrides, as an earlier comparison
// said.
func overrides(prev *report.Variants, name string) string {
	if prev == nil {
		return ""
	}
	for _, v := range prev.Variants {
		if v.Name == name {
			return v.Overrides
		}
	}
	return ""
}

// summary is one variant's run as a whole: its tests' totals and usage,
// the median of their turns, and why it could not run when every test
// errored for one reason.
func summary(name string, tests []report.Test) report.VariantSummary {
	s := report.VariantSummary{Name: name, Totals: report.TotalsOf(tests)}
	s.Usage = s.Totals.Usage
	var turns []int64
	for _, t := range tests {
		for _, tu := range t.Turns {
			turns = append(turns, tu.DurationMs)
		}
	}
	if len(turns) > 0 {
		m := stats.Median(turns)
		s.MedianTurnMs = &m
	}
	s.Error = commonError(tests)
	return s
}

// commonError is the reason every one of tests errored with, when it is
// one reason: the variant's agent did not start. "" otherwise.
func commonError(tests []report.Test) string {
	if len(tests) == 0 {
		return ""
	}
	reason := tests[0].Reason
	for _, t := range tests {
		if t.Status != status.Error || t.Reason != reason {
			return ""
		}
	}
	return reason
}

// cell is test t under variant name; t nil is a test the variant did not
// run: no status, no runs, the whole of [0, 100] for its rate.
func cell(name string, t *report.Test, level float64) report.ComparisonCell {
	if t == nil {
		return report.ComparisonCell{Variant: name, High: 100}
	}
	c := report.ComparisonCell{Variant: name, ID: t.ID, Status: string(t.Status), Runs: t.Runs, Passed: min(max(t.PassedRuns, 0), max(t.Runs, 0))}
	c.PassRate, c.Low, c.High = 0, 0, 100
	if c.Runs > 0 {
		c.PassRate = round1(float64(c.Passed) * 100 / float64(c.Runs))
		iv := report.RateInterval(c.Passed, c.Runs, level)
		c.Low, c.High = iv.Lo, iv.Hi
	}
	if p := t.PerAttempt; p != nil {
		c.CostUSD, c.Tokens = p.MeanCostUSD, p.MeanTokens
	}
	if len(t.Turns) > 0 {
		ds := make([]int64, len(t.Turns))
		for i, tu := range t.Turns {
			ds[i] = tu.DurationMs
		}
		m := stats.Median(ds)
		c.MedianTurnMs = &m
	}
	return c
}

// differences are the pairs of cells, in the variants' order, whose pass
// rates differ significantly: both judged the test's runs (neither skipped
// nor errored it).
func differences(cells []report.ComparisonCell, alpha float64) []report.PairDifference {
	out := []report.PairDifference{}
	for i, a := range cells {
		for _, b := range cells[i+1:] {
			if !judged(a) || !judged(b) {
				continue
			}
			p := stats.FisherTwoSided(a.Passed, a.Runs, b.Passed, b.Runs)
			if !stats.Significant(p, alpha) {
				continue
			}
			better := a.Variant
			if b.Passed*a.Runs > a.Passed*b.Runs {
				better = b.Variant
			}
			out = append(out, report.PairDifference{A: a.Variant, B: b.Variant, P: p, Better: better})
		}
	}
	return out
}

// judged reports a cell whose runs were judged: the test neither errored
// nor was skipped, so its pass rate says something of the variant.
func judged(c report.ComparisonCell) bool {
	return c.Runs > 0 && c.Status != string(status.Error) && c.Status != string(status.Skipped)
}
