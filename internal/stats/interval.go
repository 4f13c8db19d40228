package stats

import "math"

// Interval is a two-sided confidence interval for a proportion, as
// fractions in [0, 1].
type Interval struct {
	Lo, Hi float64
}

// Z is the standard normal quantile for a two-sided interval at level
// (e.g. 0.95 → 1.96).
func Z(level float64) float64 { return math.Sqrt2 * math.Erfinv(level) }

// Wilson is the Wilson score interval for k successes in n trials at a
// confidence level in (0, 1) — 0.95 for 95%. It stays inside [0, 1], is
// not degenerate at 0 or n successes (10 of 10 is 72–100% at 95%), and
// covers close to its nominal level even for the few runs an agent test
// makes, where the textbook normal interval does not. With n = 0 it is
// the whole of [0, 1]: nothing is known.
func Wilson(k, n int, level float64) Interval {
	if n <= 0 {
		return Interval{0, 1}
	}
	k = min(max(k, 0), n)
	z := Z(level)
	z2 := z * z
	nf := float64(n)
	p := float64(k) / nf
	den := 1 + z2/nf
	center := (p + z2/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf)) / den
	iv := Interval{math.Max(0, center-half), math.Min(1, center+half)}
	// Exact at the edges: k = 0 cannot have a lower bound above 0, k = n
	// an upper bound below 1 (rounding moves them by 1e-17).
	if k == 0 {
		iv.Lo = 0
	}
	if k == n {
		iv.Hi = 1
	}
	return iv
}

// PassK is pass^k: the chance that k runs in a row all pass, estimated as
// the pass rate to the k-th power, with its interval from the pass rate's
// (the power is monotone, so the bounds carry over).
func PassK(k, n, runs int, level float64) (float64, Interval) {
	if n <= 0 || runs <= 0 {
		return 0, Interval{0, 1}
	}
	p := float64(min(max(k, 0), n)) / float64(n)
	iv := Wilson(k, n, level)
	r := float64(runs)
	return math.Pow(p, r), Interval{math.Pow(iv.Lo, r), math.Pow(iv.Hi, r)}
}
