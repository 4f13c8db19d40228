package diff

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/plural"
)

// MaxCostChanges is how many cost changes (and tests not compared) the
// renderers list; the rest are counted.
const MaxCostChanges = 10

// costSections are the cost changes and the tests not compared, as
// sections; gate, when set, marks the changes over it.
func costSections(c *Cost, gate *float64) (changes, notCompared []section) {
	capped := func(title string, entries []CostEntry, show func(CostEntry) item) []section {
		if len(entries) == 0 {
			return nil
		}
		s := section{title: fmt.Sprintf("%s (%d)", title, len(entries))}
		if len(entries) > MaxCostChanges {
			entries, s.more = entries[:MaxCostChanges], len(entries)-MaxCostChanges
		}
		for _, e := range entries {
			s.items = append(s.items, show(e))
		}
		return []section{s}
	}
	changes = capped("Cost changes per attempt", c.Changes, func(e CostEntry) item {
		it := item{Entry: e.Entry, lead: e.Lead(), note: e.Figures()}
		if gate != nil && e.Exceeds(*gate) {
			it.note += " · exceeds " + limit(*gate)
		}
		return it
	})
	notCompared = capped("Cost not compared", c.NotCompared, func(e CostEntry) item {
		return item{Entry: e.Entry, lead: e.Why()}
	})
	return changes, notCompared
}

// Lead is a compared test's change, in its measure: "+$0.013 (+104%)",
// "+38% tokens", "+2.5k tokens (from 0)".
func (e CostEntry) Lead() string {
	b, h := e.values()
	inc := e.Increase()
	switch e.Measure() {
	case ByCost:
		if math.IsInf(inc, 1) {
			return "+" + cost.FormatUSD(h) + " (from $0)"
		}
		return signedUSD(h-b) + " (" + percent(inc) + ")"
	case ByTokens:
		if math.IsInf(inc, 1) {
			return "+" + tokens(h) + " tokens (from 0)"
		}
		return percent(inc) + " tokens"
	}
	return e.Why()
}

// Figures are a test's means per attempt in both runs, those known in
// both: "1.2k → 2.5k tokens · $0.012 → $0.025".
func (e CostEntry) Figures() string {
	var parts []string
	if e.BaseTokens != nil && e.HeadTokens != nil {
		parts = append(parts, tokens(*e.BaseTokens)+" → "+tokens(*e.HeadTokens)+" tokens")
	}
	if e.BaseUSD != nil && e.HeadUSD != nil {
		parts = append(parts, cost.FormatUSD(*e.BaseUSD)+" → "+cost.FormatUSD(*e.HeadUSD))
	}
	return strings.Join(parts, " · ")
}

// Why says why a test was not compared: "usage unknown in base".
func (e CostEntry) Why() string {
	baseKnown, headKnown := e.BaseTokens != nil || e.BaseUSD != nil, e.HeadTokens != nil || e.HeadUSD != nil
	switch {
	case !baseKnown && !headKnown:
		return "usage unknown in base and head"
	case !baseKnown:
		return "usage unknown in base"
	case !headKnown:
		return "usage unknown in head"
	case e.BaseTokens == nil:
		return "tokens unknown in base, cost unknown in head"
	}
	return "cost unknown in base, tokens unknown in head"
}

// GateLine says that a test's increase exceeds pct, for the line that
// fails a step: "checkout +104% tokens (base 1.2k → 2.5k) exceeds 50%".
// The name is shown as the text renderer shows it.
func (e CostEntry) GateLine(pct float64) string {
	name := clean(e.Name, maxName)
	if math.IsInf(e.Increase(), 1) {
		return fmt.Sprintf("%s %s exceeds %s", name, e.Lead(), limit(pct))
	}
	what, b, h := "tokens", tokens, tokens
	if e.Measure() == ByCost {
		what, b, h = "cost", cost.FormatUSD, cost.FormatUSD
	}
	bv, hv := e.values()
	return fmt.Sprintf("%s %s %s (base %s → %s) exceeds %s", name, percent(e.Increase()), what, b(bv), h(hv), limit(pct))
}

// limit is a --fail-on-cost-increase percentage as given: "50%",
// "12.5%".
func limit(pct float64) string { return strconv.FormatFloat(pct, 'f', -1, 64) + "%" }

// costLine sums the compared tests up, one attempt of each: "Cost per
// attempt, summed over 4 tests: 3.1k → 4.4k tokens (+42%) · $0.031 →
// $0.044 (+$0.013, +42%); 1 test not compared (usage unknown in one
// run)"; "" when neither run has usage. It holds no untrusted text.
func costLine(c *Cost) string {
	if !c.Measured {
		return ""
	}
	var b strings.Builder
	if c.Compared == 0 {
		b.WriteString("Cost per attempt: no test measured in both runs")
	} else {
		fmt.Fprintf(&b, "Cost per attempt, summed over %s: ", plural.Count(c.Compared, "test"))
		var parts []string
		if c.TokenTests > 0 {
			parts = append(parts, sum(c.BaseTokens, c.HeadTokens, false, of(c.TokenTests, c.Compared, "with tokens")))
		}
		if c.CostTests > 0 {
			parts = append(parts, sum(c.BaseUSD, c.HeadUSD, true, of(c.CostTests, c.Compared, "priced")))
		}
		b.WriteString(strings.Join(parts, " · "))
	}
	if n := len(c.NotCompared); n > 0 {
		fmt.Fprintf(&b, "; %s not compared (usage unknown in one run)", plural.Count(n, "test"))
	}
	if c.Unknown > 0 {
		fmt.Fprintf(&b, "; %s without usage in either run", plural.Count(c.Unknown, "test"))
	}
	return b.String()
}

// sum is "3.1k → 4.4k tokens (+42%)" or "$0.031 → $0.044 (+$0.013,
// +42%)", the same figure shown once; over, when set, says which tests
// it covers.
func sum(b, h float64, usd bool, over string) string {
	show, unit := tokens, " tokens"
	if usd {
		show, unit = cost.FormatUSD, ""
	}
	var notes []string
	out := show(h) + unit
	if show(b) != show(h) {
		out = show(b) + " → " + out
		inc := "from 0"
		if p := increase(b, h); !math.IsInf(p, 1) {
			inc = percent(p)
		}
		if usd {
			notes = append(notes, signedUSD(h-b))
		}
		notes = append(notes, inc)
	}
	if over != "" {
		notes = append(notes, over)
	}
	if len(notes) == 0 {
		return out
	}
	return out + " (" + strings.Join(notes, ", ") + ")"
}

// of is "the 3 priced in both" when a sum covers fewer tests than were
// compared; "" when it covers them all.
func of(n, all int, what string) string {
	if n == all {
		return ""
	}
	return fmt.Sprintf("the %d %s in both", n, what)
}

// tokens shows a mean number of tokens, rounded: "2.5k".
func tokens(n float64) string { return cost.FormatTokens(int64(math.Round(n))) }

// signedUSD is "+$0.013", "-$0.004".
func signedUSD(d float64) string {
	if d < 0 {
		return "-" + cost.FormatUSD(-d)
	}
	return "+" + cost.FormatUSD(d)
}

// percent is a change in percent with its sign: "+104%", "-30%", "+2.5%"
// (one decimal under 10%).
func percent(p float64) string {
	r := math.Round(p)
	if math.Abs(p) < 10 {
		r = math.Round(p*10) / 10
	}
	s := strconv.FormatFloat(math.Abs(r), 'f', -1, 64) + "%"
	switch {
	case r > 0:
		return "+" + s
	case r < 0:
		return "-" + s
	}
	return s
}
