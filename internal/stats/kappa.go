package stats

import "math"

// Kappa is Cohen's kappa of two raters' yes/no answers about the same
// items: how much more often they agree than two raters answering at
// random with the same rates of yes would (1: always; 0: no more than
// chance; below 0: less). Defined is false when chance agreement is
// certain — no items, or both raters gave one and the same answer to
// every item — and kappa is then 0/0: undefined, not a number to show.
type Kappa struct {
	Value float64
	// SE is the large-sample standard error of Fleiss, Cohen and Everitt
	// (1969), not assuming kappa is 0.
	SE      float64
	Defined bool
}

// CohenKappa is the kappa of a 2×2 table of counts: yy items both raters
// said yes to, yn the first yes and the second no, ny the first no and
// the second yes, nn both no.
func CohenKappa(yy, yn, ny, nn int) Kappa {
	n := float64(yy + yn + ny + nn)
	if n <= 0 || yy < 0 || yn < 0 || ny < 0 || nn < 0 {
		return Kappa{}
	}
	p := [2][2]float64{{float64(yy) / n, float64(yn) / n}, {float64(ny) / n, float64(nn) / n}}
	row := [2]float64{p[0][0] + p[0][1], p[1][0] + p[1][1]} // the first rater's rates
	col := [2]float64{p[0][0] + p[1][0], p[0][1] + p[1][1]} // the second's
	po := p[0][0] + p[1][1]
	pe := row[0]*col[0] + row[1]*col[1]
	if pe >= 1 {
		return Kappa{}
	}
	k := (po - pe) / (1 - pe)
	// Fleiss, Cohen and Everitt's asymptotic variance: the agreements'
	// term, the disagreements' term, less the square of kappa's offset.
	var v float64
	for i := range 2 {
		d := 1 - (row[i]+col[i])*(1-k)
		v += p[i][i] * d * d
	}
	for i := range 2 {
		j := 1 - i
		s := col[i] + row[j]
		v += (1 - k) * (1 - k) * p[i][j] * s * s
	}
	off := k - pe*(1-k)
	v -= off * off
	v /= n * (1 - pe) * (1 - pe)
	return Kappa{Value: k, SE: math.Sqrt(max(v, 0)), Defined: true}
}

// Interval is kappa ± z·SE at a confidence level in (0, 1), within
// [−1, 1]: the large-sample (Wald) interval. When the raters agree on
// every item SE is 0 and the interval is the point 1 — a few labels then
// say little, which the agreement's own interval (Wilson) shows. An
// undefined kappa has the whole of [−1, 1].
func (k Kappa) Interval(level float64) Interval {
	if !k.Defined {
		return Interval{-1, 1}
	}
	h := Z(level) * k.SE
	return Interval{math.Max(-1, k.Value-h), math.Min(1, k.Value+h)}
}
