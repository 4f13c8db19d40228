package stats

import "math"

// FisherLess is the one-sided p-value of Fisher's exact test that the
// head's pass rate is lower than the base's: with base passing a of n1
// runs and head b of n2, the chance — were both the same agent — of the
// head passing b or fewer given a + b passes in all. Small means the head
// is worse beyond what chance explains ("10/10 → 6/10, p = 0.04"); 1 when
// either side has no runs.
func FisherLess(a, n1, b, n2 int) float64 {
	if n1 <= 0 || n2 <= 0 {
		return 1
	}
	a, b = min(max(a, 0), n1), min(max(b, 0), n2)
	total := a + b
	lo := max(0, total-n1) // the fewest passes the head can have
	var p float64
	for x := lo; x <= b; x++ {
		p += math.Exp(logHyper(x, n2, total, n1+n2))
	}
	return math.Min(1, p)
}

// logHyper is the log of the hypergeometric probability of x successes in
// a draw of n from a population of size pop holding succ successes.
func logHyper(x, n, succ, pop int) float64 {
	return logChoose(succ, x) + logChoose(pop-succ, n-x) - logChoose(pop, n)
}

func logChoose(n, k int) float64 {
	if k < 0 || k > n {
		return math.Inf(-1)
	}
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// FisherTwoSided is the two-sided p-value of Fisher's exact test that two
// pass rates differ, a passing of n1 runs and b of n2, neither side being
// the base: twice the one-sided p-value (FisherLess) of the side that
// passed less often, at most 1. Comparing two variants asks whether
// either is worse, so each direction gets half the level; 1 when either
// side has no runs or the rates are equal.
func FisherTwoSided(a, n1, b, n2 int) float64 {
	if n1 <= 0 || n2 <= 0 {
		return 1
	}
	a, b = min(max(a, 0), n1), min(max(b, 0), n2)
	var p float64
	switch {
	case b*n1 < a*n2: // the second passed less often
		p = FisherLess(a, n1, b, n2)
	case a*n2 < b*n1:
		p = FisherLess(b, n2, a, n1)
	default:
		return 1
	}
	return math.Min(1, 2*p)
}

// Significant reports a p-value at or below the level alpha. The p-value
// is a sum of floating-point terms: one that is exactly alpha (3/3 → 0/3
// is 1/20) may come out a hair above it, so a relative 1e-9 is allowed.
func Significant(p, alpha float64) bool { return p <= alpha*(1+1e-9) }
