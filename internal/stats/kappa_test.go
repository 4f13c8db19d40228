package stats

import (
	"math"
	"testing"
)

// TestCohenKappa: the textbook tables (Cohen's kappa on Wikipedia: 0.4,
// 0.1304 and 0.2593), their large-sample standard errors against an
// independent delta-method computation, and the undefined cases.
func TestCohenKappa(t *testing.T) {
	for _, tc := range []struct {
		name           string
		yy, yn, ny, nn int
		kappa, se      float64
	}{
		{"grant readers", 20, 5, 10, 15, 0.4, 0.12700},
		{"equal yes rates", 45, 15, 25, 15, 0.13043, 0.09866},
		{"unequal yes rates", 25, 35, 5, 35, 0.25926, 0.07716},
		{"perfect agreement", 6, 0, 0, 4, 1, 0},
		{"never agree", 0, 5, 5, 0, -1, 0},
		{"one rater constant", 6, 4, 0, 0, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := CohenKappa(tc.yy, tc.yn, tc.ny, tc.nn)
			if !k.Defined || !near(k.Value, tc.kappa, 5e-5) || !near(k.SE, tc.se, 5e-5) {
				t.Errorf("kappa = %+v, want %.5f (SE %.5f)", k, tc.kappa, tc.se)
			}
			if d := deltaSE(tc.yy, tc.yn, tc.ny, tc.nn); !near(k.SE, d, 1e-5) {
				t.Errorf("SE %.6f, the delta method gives %.6f", k.SE, d)
			}
		})
	}
	for _, tc := range []struct {
		name           string
		yy, yn, ny, nn int
	}{
		{"no items", 0, 0, 0, 0},
		{"all yes", 7, 0, 0, 0},
		{"all no", 0, 0, 0, 3},
	} {
		k := CohenKappa(tc.yy, tc.yn, tc.ny, tc.nn)
		if k.Defined || k.Value != 0 || k.SE != 0 {
			t.Errorf("%s: %+v, want undefined", tc.name, k)
		}
		if iv := k.Interval(0.95); iv != (Interval{-1, 1}) {
			t.Errorf("%s: interval %v", tc.name, iv)
		}
	}
}

// TestKappaInterval: kappa ± 1.96 SE, within [−1, 1].
func TestKappaInterval(t *testing.T) {
	iv := CohenKappa(20, 5, 10, 15).Interval(0.95)
	if !near(iv.Lo, 0.4-1.95996*0.126996, 1e-4) || !near(iv.Hi, 0.4+1.95996*0.126996, 1e-4) {
		t.Errorf("interval %v", iv)
	}
	if iv := (Kappa{Value: 0.9, SE: 0.2, Defined: true}).Interval(0.95); iv.Hi != 1 || !near(iv.Lo, 0.9-0.392, 1e-3) {
		t.Errorf("clipped interval %v", iv)
	}
	if iv := (Kappa{Value: -0.9, SE: 0.2, Defined: true}).Interval(0.95); iv.Lo != -1 {
		t.Errorf("clipped interval %v", iv)
	}
}

// deltaSE is kappa's large-sample standard error by the delta method
// with numerical derivatives: the gradient of kappa in the four cell
// rates, over the multinomial covariance diag(p) − ppᵀ.
func deltaSE(yy, yn, ny, nn int) float64 {
	n := float64(yy + yn + ny + nn)
	p := []float64{float64(yy) / n, float64(yn) / n, float64(ny) / n, float64(nn) / n}
	kappa := func(q []float64) float64 {
		po := q[0] + q[3]
		pe := (q[0]+q[1])*(q[0]+q[2]) + (q[2]+q[3])*(q[1]+q[3])
		return (po - pe) / (1 - pe)
	}
	g := make([]float64, 4)
	const h = 1e-6
	for i := range g {
		up, down := append([]float64(nil), p...), append([]float64(nil), p...)
		up[i] += h
		down[i] -= h
		g[i] = (kappa(up) - kappa(down)) / (2 * h)
	}
	var v float64
	for i := range 4 {
		for j := range 4 {
			c := -p[i] * p[j]
			if i == j {
				c += p[i]
			}
			v += g[i] * c * g[j]
		}
	}
	return math.Sqrt(math.Max(v, 0) / n)
}
