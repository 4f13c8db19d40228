package variants

import (
	"fmt"
	"math"
	"strings"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
)

// maxNamed is how many tests a verdict names before "and N more".
const maxNamed = 3

// pair is the verdict of variants i and j (i before j) over the rows of
// v: how many more tests pass under j, the tests significantly better and
// worse under j, what j costs and how fast its turns are against i.
func pair(v *report.Variants, i, j int) report.PairVerdict {
	a, b := v.Variants[i], v.Variants[j]
	p := report.PairVerdict{A: a.Name, B: b.Name, Better: []string{}, Worse: []string{}}
	var costA, costB float64
	priced := false
	for _, rw := range v.Rows {
		ca, cb := rw.Cells[i], rw.Cells[j]
		if ca.Runs <= 0 || cb.Runs <= 0 {
			continue
		}
		p.MorePassing += passes(cb) - passes(ca)
		for _, d := range rw.Differences {
			if d.A != a.Name || d.B != b.Name {
				continue
			}
			if d.Better == b.Name {
				p.Better = append(p.Better, rw.Test)
			} else {
				p.Worse = append(p.Worse, rw.Test)
			}
		}
		if ca.CostUSD != nil && cb.CostUSD != nil {
			costA += *ca.CostUSD
			costB += *cb.CostUSD
			priced = true
		}
	}
	if priced {
		p.CostChangePct = change(costA, costB)
	}
	if a.MedianTurnMs != nil && b.MedianTurnMs != nil {
		p.LatencyChangePct = change(float64(*a.MedianTurnMs), float64(*b.MedianTurnMs))
	}
	p.Line = line(p, a, b)
	return p
}

// passes is 1 for a cell whose test passed.
func passes(c report.ComparisonCell) int {
	if c.Status == "pass" {
		return 1
	}
	return 0
}

// change is b against a in percent, to one decimal; nil when a is not
// positive (no base to compare with).
func change(a, b float64) *float64 {
	if a <= 0 {
		return nil
	}
	c := round1((b - a) / a * 100)
	return &c
}

// round1 rounds to one decimal.
func round1(f float64) float64 { return math.Round(f*10) / 10 }

// line says verdict p in one line: "careful passes 3 more tests than
// baseline, costs 22% less, 10% slower, no test significantly worse".
func line(p report.PairVerdict, a, b report.VariantSummary) string {
	switch {
	case b.Error != "":
		return fmt.Sprintf("%s could not run: %s", b.Name, firstLine(b.Error))
	case a.Error != "":
		return fmt.Sprintf("%s could not run: %s", a.Name, firstLine(a.Error))
	}
	var parts []string
	switch n := p.MorePassing; {
	case n > 0:
		parts = append(parts, fmt.Sprintf("%s passes %d more %s than %s", b.Name, n, plural.Noun(n, "test"), a.Name))
	case n < 0:
		parts = append(parts, fmt.Sprintf("%s passes %d fewer %s than %s", b.Name, -n, plural.Noun(-n, "test"), a.Name))
	default:
		parts = append(parts, fmt.Sprintf("%s passes as many tests as %s", b.Name, a.Name))
	}
	if c := p.CostChangePct; c != nil {
		parts = append(parts, "costs "+relative(*c, "more", "less", "the same"))
	}
	if l := p.LatencyChangePct; l != nil {
		parts = append(parts, relative(*l, "slower", "faster", "as fast"))
	}
	if len(p.Better) > 0 {
		parts = append(parts, plural.Count(len(p.Better), "test")+" significantly better: "+names(p.Better))
	}
	if len(p.Worse) > 0 {
		parts = append(parts, plural.Count(len(p.Worse), "test")+" significantly worse: "+names(p.Worse))
	} else {
		parts = append(parts, "no test significantly worse")
	}
	return strings.Join(parts, ", ")
}

// relative is a change in whole percent: "22% less", "10% slower", or
// same when it rounds to none.
func relative(pct float64, up, down, same string) string {
	r := math.Round(pct)
	switch {
	case r > 0:
		return fmt.Sprintf("%.0f%% %s", r, up)
	case r < 0:
		return fmt.Sprintf("%.0f%% %s", -r, down)
	}
	return same
}

// names lists tests, the first maxNamed of them and how many more.
func names(tests []string) string {
	if len(tests) <= maxNamed {
		return strings.Join(tests, ", ")
	}
	return strings.Join(tests[:maxNamed], ", ") + fmt.Sprintf(" and %d more", len(tests)-maxNamed)
}

// firstLine is the first line of a reason, for a verdict in one line (a
// server's output follows on the next ones; VariantSummary.Error keeps it
// whole).
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimSuffix(strings.TrimSpace(line), ":")
}
