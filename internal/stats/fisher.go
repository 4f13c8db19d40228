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
