package calibrate

import (
	"math"
	"testing"
)

// TestAgreement: the confusion's counts, accuracy with its Wilson
// interval and kappa with its interval; a one-answer confusion has no
// kappa, and nothing is NaN.
func TestAgreement(t *testing.T) {
	near := func(a, b float64) bool { return math.Abs(a-b) < 5e-4 }
	var c Confusion
	for _, v := range []struct {
		judge, human bool
		n            int
	}{{true, true, 20}, {true, false, 5}, {false, true, 10}, {false, false, 15}} {
		for range v.n {
			c.Add(v.judge, v.human)
		}
	}
	a := c.Agreement(0.95)
	if a.N != 50 || a.Agreements != 35 || a.Accuracy != 0.7 || !near(a.AccuracyCI.Lo, 0.5625) || !near(a.AccuracyCI.Hi, 0.8090) {
		t.Errorf("accuracy: %+v", a)
	}
	if !a.Kappa.Defined || !near(a.Kappa.Value, 0.4) || !near(a.KappaCI.Lo, 0.1511) || !near(a.KappaCI.Hi, 0.6489) {
		t.Errorf("kappa: %+v %+v", a.Kappa, a.KappaCI)
	}
	if s := c.Plus(Confusion{JudgeNotHumanNot: 1}); s.N() != 51 || s.Agreements() != 36 {
		t.Errorf("plus: %+v", s)
	}
	for _, tc := range []struct {
		name string
		c    Confusion
	}{
		{"none", Confusion{}},
		{"all met", Confusion{JudgeMetHumanMet: 12}},
		{"all not met", Confusion{JudgeNotHumanNot: 12}},
	} {
		a := tc.c.Agreement(0.95)
		if a.Kappa.Defined || math.IsNaN(a.Accuracy) || math.IsNaN(a.Kappa.Value) || math.IsNaN(a.KappaCI.Lo) {
			t.Errorf("%s: %+v", tc.name, a)
		}
	}
}
