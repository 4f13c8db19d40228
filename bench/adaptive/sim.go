package main

import (
	"math"
	"math/rand/v2"

	"github.com/ananke/action/internal/stats"
)

// Verdicts a cell's agent should get, by where its true rate lies against
// the rule's zone.
const (
	shouldPass   = "pass"   // at or above the zone's upper rate
	shouldFail   = "fail"   // at or below the zone's lower rate
	shouldEither = "either" // inside the zone: any verdict is acceptable
)

// cell is one agent (a true pass rate) against one threshold, and how the
// adaptive rule and a fixed number of runs (the rule's Max) judged it.
type cell struct {
	Threshold, Rate int // percent
	Should          string
	// Runs is the adaptive rule's mean number of runs; MinRuns and
	// MaxRuns the fewest and most any trial took (simulation only).
	Runs             float64
	MinRuns, MaxRuns int
	Fixed            int // the fixed rule's runs: the adaptive rule's Max
	// PassA and PassF are the chances of a pass verdict, adaptive and
	// fixed; Inconclusive the chance the adaptive rule reached Max
	// unsettled.
	PassA, PassF, Inconclusive float64
	// SettledPass and SettledFail are the chances the adaptive rule
	// settled on a pass or a failure before Max.
	SettledPass, SettledFail float64
}

// wrong is the chance of a wrong verdict — a fail for an agent that
// should pass, a pass for one that should fail — for a rule that passes
// with chance pass; ok is false inside the zone, where no verdict is wrong.
func (c cell) wrong(pass float64) (rate float64, ok bool) {
	switch c.Should {
	case shouldPass:
		return 1 - pass, true
	case shouldFail:
		return pass, true
	}
	return 0, false
}

// settledWrong is the chance of a wrong verdict the adaptive rule
// settled on — the verdicts its alpha and beta are about; ok is false
// inside the zone.
func (c cell) settledWrong() (rate float64, ok bool) {
	switch c.Should {
	case shouldPass:
		return c.SettledFail, true
	case shouldFail:
		return c.SettledPass, true
	}
	return 0, false
}

// offSide is the chance of a verdict on the other side of the threshold
// from the agent's true rate (a rate equal to the threshold should pass,
// as the verdict's ">=" says), zone or not.
func (c cell) offSide(pass float64) float64 {
	if c.Rate >= c.Threshold {
		return 1 - pass
	}
	return pass
}

// ruleAt is the rule with its threshold set to one cell's.
func ruleAt(rule stats.Sequential, threshold int) stats.Sequential {
	rule.MinPassRate = float64(threshold)
	return rule
}

// newCell is a cell before it is judged: the verdict its agent should get.
func newCell(rule stats.Sequential, threshold, rate int) cell {
	lo, hi := ruleAt(rule, threshold).SPRT().Hypotheses()
	p := float64(rate) / 100
	c := cell{Threshold: threshold, Rate: rate, Should: shouldEither, Fixed: rule.Max}
	const eps = 1e-9 // 0.9 − 0.05 is not exactly 0.85 in floating point
	switch {
	case threshold >= 100:
		c.Should = map[bool]string{true: shouldPass, false: shouldFail}[rate >= 100]
	case p <= lo+eps:
		c.Should = shouldFail
	case p >= hi-eps:
		c.Should = shouldPass
	}
	return c
}

// simulate judges trials seeded agents of a cell. Each trial draws Max
// runs once and both rules read the same draws: the fixed rule all of
// them, the adaptive rule as many as it asks for. The draws come from a
// PCG seeded with seed and the cell, so a cell's numbers do not depend on
// the other cells of the grid.
func simulate(rule stats.Sequential, threshold, rate, trials int, seed uint64) cell {
	c := newCell(rule, threshold, rate)
	r := ruleAt(rule, threshold)
	rng := rand.New(rand.NewPCG(seed, uint64(threshold)<<32|uint64(rate)))
	fixed := stats.Sequential{Min: rule.Max, Max: rule.Max, MinPassRate: r.MinPassRate}
	draws := make([]bool, rule.Max)
	var runs, passA, passF, inconclusive, settledPass, settledFail int
	c.MinRuns = math.MaxInt
	for range trials {
		all := 0
		for i := range draws {
			draws[i] = rng.IntN(100) < rate
			if draws[i] {
				all++
			}
		}
		if fixed.Next(all, rule.Max-all).Pass {
			passF++
		}
		passes, n := 0, 0
		for {
			st := r.Next(passes, n-passes)
			if st.Done {
				if st.Pass {
					passA++
				}
				switch {
				case st.Inconclusive:
					inconclusive++
				case st.Pass:
					settledPass++
				default:
					settledFail++
				}
				break
			}
			if draws[n] {
				passes++
			}
			n++
		}
		runs += n
		c.MinRuns, c.MaxRuns = min(c.MinRuns, n), max(c.MaxRuns, n)
	}
	t := float64(trials)
	c.Runs = float64(runs) / t
	c.PassA, c.PassF, c.Inconclusive = float64(passA)/t, float64(passF)/t, float64(inconclusive)/t
	c.SettledPass, c.SettledFail = float64(settledPass)/t, float64(settledFail)/t
	return c
}

// exact computes what simulate estimates, exactly: the chance of every
// (passes, fails) path the adaptive rule can take, run by run, and the
// binomial distribution of the fixed rule's passes.
func exact(rule stats.Sequential, threshold, rate int) cell {
	c := newCell(rule, threshold, rate)
	r := ruleAt(rule, threshold)
	p := float64(rate) / 100
	cur := []float64{1} // cur[s]: the chance of s passes after n runs, unsettled
	for n := 0; len(cur) > 0; n++ {
		var next []float64
		for s, m := range cur {
			if m == 0 {
				continue
			}
			if st := r.Next(s, n-s); st.Done {
				c.Runs += m * float64(n)
				if st.Pass {
					c.PassA += m
				}
				switch {
				case st.Inconclusive:
					c.Inconclusive += m
				case st.Pass:
					c.SettledPass += m
				default:
					c.SettledFail += m
				}
				continue
			}
			if next == nil {
				next = make([]float64, n+2)
			}
			next[s+1] += m * p
			next[s] += m * (1 - p)
		}
		cur = next
	}
	fixed := stats.Sequential{Min: rule.Max, Max: rule.Max, MinPassRate: r.MinPassRate}
	for s := 0; s <= rule.Max; s++ {
		if fixed.Next(s, rule.Max-s).Pass {
			c.PassF += binomial(rule.Max, s, p)
		}
	}
	return c
}

// binomial is the chance of k successes in n trials of chance p.
func binomial(n, k int, p float64) float64 {
	switch {
	case p == 0:
		return b2f(k == 0)
	case p == 1:
		return b2f(k == n)
	}
	ln, _ := math.Lgamma(float64(n + 1))
	lk, _ := math.Lgamma(float64(k + 1))
	lnk, _ := math.Lgamma(float64(n - k + 1))
	return math.Exp(ln - lk - lnk + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
