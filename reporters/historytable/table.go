// Package historytable writes what `ananke history` prints: a history's
// flakiest tests, the tests failing in its newest runs, the slowest and
// the most expensive (docs/history.md), as text for a terminal, markdown
// or JSON. It reads internal/history's facts and decides nothing else.
package historytable

import (
	"cmp"
	"slices"

	"github.com/ananke/action/internal/history"
)

// DefaultTop is how many tests a section lists unless told otherwise.
const DefaultTop = 10

// Options shape the table.
type Options struct {
	// Top is how many tests each section lists at most; the rest are
	// counted. 0 lists them all.
	Top int
	// Level is the confidence level of the pass rates' intervals, as a
	// fraction (0.95 when 0).
	Level float64
}

// Table is the history's sections, each sorted and cut to Options.Top.
type Table struct {
	// Runs are the history's runs, oldest first; Tests counts its tests.
	Runs  []history.Run
	Tests int
	Level float64
	// Flakiest are the tests with flakes, the highest flake rate first;
	// Failing those failing in the newest runs that judged them, the
	// longest streak first; Slowest the tests by median duration, longest
	// first; Expensive by mean cost per attempt where some test's cost is
	// known (ByCost), else by mean tokens, highest first — empty when no
	// usage is known.
	Flakiest, Failing, Slowest, Expensive Section
	ByCost                                bool
}

// Section is a list of tests, cut: More counts those left out.
type Section struct {
	Facts []history.Facts
	More  int
}

// Build sorts the history's tests into the table's sections. Ties keep the
// history's order (the newest run's).
func Build(h *history.History, o Options) *Table {
	if o.Level == 0 {
		o.Level = 0.95
	}
	all := h.Facts(o.Level)
	t := &Table{Runs: h.Runs, Tests: len(h.Tests), Level: o.Level}
	pick := func(keep func(f *history.Facts) bool, order func(a, b *history.Facts) int) Section {
		var s []history.Facts
		for i := range all {
			if keep(&all[i]) {
				s = append(s, all[i])
			}
		}
		slices.SortStableFunc(s, func(a, b history.Facts) int { return order(&a, &b) })
		if o.Top > 0 && len(s) > o.Top {
			return Section{s[:o.Top], len(s) - o.Top}
		}
		return Section{Facts: s}
	}
	t.Flakiest = pick(func(f *history.Facts) bool { return f.Flakes > 0 }, func(a, b *history.Facts) int {
		return cmp.Or(cmp.Compare(b.FlakeRate, a.FlakeRate), cmp.Compare(b.Flakes, a.Flakes), cmp.Compare(b.Failed, a.Failed))
	})
	t.Failing = pick(func(f *history.Facts) bool { return f.Streak > 0 }, func(a, b *history.Facts) int {
		return cmp.Compare(b.Streak, a.Streak)
	})
	t.Slowest = pick(func(f *history.Facts) bool { return f.MedianMs > 0 }, func(a, b *history.Facts) int {
		return cmp.Or(cmp.Compare(b.MedianMs, a.MedianMs), cmp.Compare(b.LastMs, a.LastMs))
	})
	t.ByCost = slices.ContainsFunc(all, func(f history.Facts) bool { return f.MeanCostUSD != nil })
	measure := func(f *history.Facts) *float64 {
		if t.ByCost {
			return f.MeanCostUSD
		}
		return f.MeanTokens
	}
	t.Expensive = pick(func(f *history.Facts) bool { return measure(f) != nil }, func(a, b *history.Facts) int {
		return cmp.Compare(*measure(b), *measure(a))
	})
	return t
}
