package diff

import (
	"cmp"
	"math"
	"slices"

	"github.com/ananke/action/internal/report"
)

// Cost is how the agent's usage changed between the runs, per attempt: a
// test's mean tokens and cost over its attempts (report.Test.PerAttempt),
// so that runs of different `runs` counts compare. Only tests in both runs
// and skipped in neither are compared.
type Cost struct {
	// Measured reports that some test of either run has known usage; when
	// neither has any (a suite whose agent reports none, or reports from
	// before usage was kept), nothing about cost is shown.
	Measured bool
	// Changes are the compared tests whose measure changed: increases
	// first, the biggest first (an increase from 0 before any other), then
	// decreases, the biggest first.
	Changes []CostEntry
	// NotCompared are the tests whose usage is unknown in one run (or
	// whose known figures do not match: tokens in one, cost in the other).
	// They are never a change, and never gate.
	NotCompared []CostEntry
	// Unknown counts the tests with usage unknown in both runs.
	Unknown int
	// Compared counts the tests with a measure in both runs, changed or
	// not.
	Compared int
	// Tokens sums the compared tests' tokens per attempt, over the
	// TokenTests tests whose tokens are known in both runs; USD sums their
	// cost over the CostTests tests whose cost is known in both.
	BaseTokens, HeadTokens float64
	TokenTests             int
	BaseUSD, HeadUSD       float64
	CostTests              int
}

// CostEntry is a test's usage per attempt in both runs.
type CostEntry struct {
	Entry
	// The means per attempt; nil when unknown in that run (no usage
	// reported by some attempt, a partial report, a model without price).
	BaseTokens, HeadTokens *float64
	BaseUSD, HeadUSD       *float64
}

// Measure is what a test's cost change is measured in.
type Measure uint8

const (
	// Unmeasured: usage unknown in a run; the test is not compared.
	Unmeasured Measure = iota
	// ByTokens: tokens per attempt, when the cost is not known in both
	// runs (a model without price).
	ByTokens
	// ByCost: cost per attempt in USD, when both runs priced it.
	ByCost
)

// Measure is the cost when both runs know it, else the tokens when both
// runs know them, else Unmeasured.
func (e CostEntry) Measure() Measure {
	switch {
	case e.BaseUSD != nil && e.HeadUSD != nil:
		return ByCost
	case e.BaseTokens != nil && e.HeadTokens != nil:
		return ByTokens
	}
	return Unmeasured
}

// values are the base's and head's measure.
func (e CostEntry) values() (b, h float64) {
	switch e.Measure() {
	case ByCost:
		return *e.BaseUSD, *e.HeadUSD
	case ByTokens:
		return *e.BaseTokens, *e.HeadTokens
	}
	return 0, 0
}

// Increase is the change of the measure in percent of the base's: +100
// for twice the base, -50 for half; +Inf from 0 to more than 0; 0 when
// unchanged or unmeasured.
func (e CostEntry) Increase() float64 {
	return increase(e.values())
}

// increase is the change from b to h in percent of b, as
// CostEntry.Increase.
func increase(b, h float64) float64 {
	switch {
	case b == h:
		return 0
	case b == 0:
		return math.Inf(1)
	}
	return (h - b) / b * 100
}

// Exceeds reports a test whose measure rose by more than pct percent. An
// unmeasured test never exceeds.
func (e CostEntry) Exceeds(pct float64) bool {
	return e.Measure() != Unmeasured && e.Increase() > pct
}

// CostOver returns the compared tests whose measure rose by more than pct
// percent, the biggest increase first: what --fail-on-cost-increase fails
// on. Tests with usage unknown in either run are never among them.
func (c *Change) CostOver(pct float64) []CostEntry {
	var out []CostEntry
	for _, e := range c.Cost.Changes {
		if e.Exceeds(pct) {
			out = append(out, e)
		}
	}
	return out
}

// add compares a test that ran in both runs; en is its entry.
func (c *Cost) add(en Entry, b, h *report.Test) {
	e := CostEntry{Entry: en}
	e.BaseTokens, e.BaseUSD = means(b)
	e.HeadTokens, e.HeadUSD = means(h)
	baseKnown, headKnown := e.BaseTokens != nil || e.BaseUSD != nil, e.HeadTokens != nil || e.HeadUSD != nil
	c.Measured = c.Measured || baseKnown || headKnown
	switch {
	case !baseKnown && !headKnown:
		c.Unknown++
		return
	case e.Measure() == Unmeasured:
		c.NotCompared = append(c.NotCompared, e)
		return
	}
	c.Compared++
	if e.BaseTokens != nil && e.HeadTokens != nil {
		c.BaseTokens += *e.BaseTokens
		c.HeadTokens += *e.HeadTokens
		c.TokenTests++
	}
	if e.Measure() == ByCost {
		c.BaseUSD += *e.BaseUSD
		c.HeadUSD += *e.HeadUSD
		c.CostTests++
	}
	if e.Increase() != 0 {
		c.Changes = append(c.Changes, e)
	}
}

// seen notes a test of one run only, or skipped in one: not compared, but
// its usage, when known, means the runs have usage to show.
func (c *Cost) seen(t *report.Test) {
	if t == nil {
		return
	}
	tok, usd := means(t)
	c.Measured = c.Measured || tok != nil || usd != nil
}

// means are a test's tokens and cost per attempt; nil when unknown.
func means(t *report.Test) (tokens, usd *float64) {
	if t.PerAttempt == nil {
		return nil, nil
	}
	return t.PerAttempt.MeanTokens, t.PerAttempt.MeanCostUSD
}

// sort puts increases first, the biggest first, then decreases, the
// biggest first; ties keep the head's order.
func (c *Cost) sort() {
	slices.SortStableFunc(c.Changes, func(a, b CostEntry) int {
		ia, ib := a.Increase(), b.Increase()
		if (ia > 0) != (ib > 0) {
			if ia > 0 {
				return -1
			}
			return 1
		}
		if ia > 0 {
			return cmp.Compare(ib, ia)
		}
		return cmp.Compare(ia, ib)
	})
}
