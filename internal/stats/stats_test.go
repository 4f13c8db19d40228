package stats

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestWilson: known intervals (7/10 at 95% is 39.7–89.2%), the edges stay
// inside [0, 1] and touch them exactly, more runs narrow the interval.
func TestWilson(t *testing.T) {
	for _, tc := range []struct {
		k, n   int
		level  float64
		lo, hi float64
	}{
		{7, 10, 0.95, 0.3968, 0.8922},
		{10, 10, 0.95, 0.7225, 1},
		{0, 10, 0.95, 0, 0.2775},
		{3, 3, 0.95, 0.4385, 1},
		{50, 100, 0.95, 0.4038, 0.5962},
		{9, 10, 0.90, 0.6523, 0.9774},
		{0, 0, 0.95, 0, 1},
	} {
		iv := Wilson(tc.k, tc.n, tc.level)
		if !near(iv.Lo, tc.lo, 5e-4) || !near(iv.Hi, tc.hi, 5e-4) {
			t.Errorf("Wilson(%d, %d, %v) = %.4f–%.4f, want %.4f–%.4f", tc.k, tc.n, tc.level, iv.Lo, iv.Hi, tc.lo, tc.hi)
		}
	}
	if a, b := Wilson(7, 10, 0.95), Wilson(70, 100, 0.95); b.Hi-b.Lo >= a.Hi-a.Lo {
		t.Errorf("100 runs (%v) are no narrower than 10 (%v)", b, a)
	}
	if z := Z(0.95); !near(z, 1.95996, 1e-4) {
		t.Errorf("Z(0.95) = %v", z)
	}
}

// TestPassK: pass^k is the rate to the k-th power, and so are its bounds.
func TestPassK(t *testing.T) {
	p, iv := PassK(9, 10, 10, 0.95)
	w := Wilson(9, 10, 0.95)
	if !near(p, math.Pow(0.9, 10), 1e-12) || !near(iv.Lo, math.Pow(w.Lo, 10), 1e-12) || !near(iv.Hi, math.Pow(w.Hi, 10), 1e-12) {
		t.Errorf("PassK(9, 10, 10) = %v %v", p, iv)
	}
	if p, _ := PassK(10, 10, 10, 0.95); p != 1 {
		t.Errorf("PassK of 10/10 = %v, want 1", p)
	}
}

// TestFisherLess: 10/10 → 6/10 is a significant drop (p ≈ 0.043), 10/10
// → 9/10 is not (p = 0.5), an improvement has p = 1, and p sums the tail.
func TestFisherLess(t *testing.T) {
	for _, tc := range []struct {
		a, n1, b, n2 int
		want         float64
	}{
		{10, 10, 6, 10, 0.04334},
		{10, 10, 9, 10, 0.5},
		{6, 10, 10, 10, 1},
		{5, 10, 5, 10, 0.67185},
		{1, 1, 0, 1, 0.5},
		{3, 3, 3, 3, 1},
		{0, 0, 3, 3, 1},
	} {
		if got := FisherLess(tc.a, tc.n1, tc.b, tc.n2); !near(got, tc.want, 5e-5) {
			t.Errorf("FisherLess(%d/%d → %d/%d) = %.5f, want %.5f", tc.a, tc.n1, tc.b, tc.n2, got, tc.want)
		}
	}
}

// TestSPRT: the decisions at the default settings, and what a perfect
// agent costs at each threshold.
func TestSPRT(t *testing.T) {
	s := SPRT{Threshold: 0.8, Zone: 0.05, Alpha: 0.05, Beta: 0.05}
	n := s.PassesToAccept()
	if n != 24 {
		t.Errorf("passes to accept at 80%% = %d, want 24", n)
	}
	if d := s.Decide(n-1, 0); d != Continue {
		t.Errorf("%d passes: %v, want continue", n-1, d)
	}
	if d := s.Decide(n, 0); d != Accept {
		t.Errorf("%d passes: %v, want accept", n, d)
	}
	if d := s.Decide(2, 7); d != Reject {
		t.Errorf("2 passes, 7 fails: %v, want reject", d)
	}
	hundred := SPRT{Threshold: 1, Zone: 0.05, Alpha: 0.05, Beta: 0.05}
	if hundred.Decide(1000, 0) != Continue || hundred.Decide(5, 1) != Reject || hundred.PassesToAccept() != 0 {
		t.Errorf("at 100%%: only a failure settles, and it fails")
	}
	if (SPRT{Threshold: 0, Alpha: 0.05, Beta: 0.05}).Decide(0, 0) != Accept {
		t.Errorf("a 0%% threshold is always met")
	}
}

// TestFisherTwoSided: twice the one-sided p-value of the side that passed
// less, whichever it is; equal rates and no runs have p = 1.
func TestFisherTwoSided(t *testing.T) {
	for _, tc := range []struct {
		a, n1, b, n2 int
		want         float64
	}{
		{10, 10, 6, 10, 0.08669},
		{6, 10, 10, 10, 0.08669},
		{10, 10, 2, 10, 0.00071},
		{9, 10, 8, 10, 1},
		{5, 10, 5, 10, 1},
		{1, 1, 0, 1, 1},
		{3, 3, 0, 0, 1},
	} {
		if got := FisherTwoSided(tc.a, tc.n1, tc.b, tc.n2); !near(got, tc.want, 5e-5) {
			t.Errorf("FisherTwoSided(%d/%d, %d/%d) = %.5f, want %.5f", tc.a, tc.n1, tc.b, tc.n2, got, tc.want)
		}
	}
}

// TestSignificant: at or below the level, with a p-value that is the
// level but for rounding counted as at it.
func TestSignificant(t *testing.T) {
	for _, tc := range []struct {
		p, alpha float64
		want     bool
	}{
		{0.04, 0.05, true},
		{0.05, 0.05, true},
		{0.05 * (1 + 1e-12), 0.05, true},
		{FisherLess(3, 3, 0, 3), 0.05, true},
		{0.0504, 0.05, false},
		{1, 0.05, false},
	} {
		if got := Significant(tc.p, tc.alpha); got != tc.want {
			t.Errorf("Significant(%v, %v) = %v, want %v", tc.p, tc.alpha, got, tc.want)
		}
	}
}

// TestMedian: of one, none, an even count (the middle two's mean, rounded
// down) and an unsorted odd count.
func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		ds   []int64
		want int64
	}{
		{[]int64{5}, 5},
		{nil, 0},
		{[]int64{1, 2}, 1},
		{[]int64{900, 100, 300}, 300},
	} {
		if got := Median(tc.ds); got != tc.want {
			t.Errorf("Median(%v) = %d, want %d", tc.ds, got, tc.want)
		}
	}
}
