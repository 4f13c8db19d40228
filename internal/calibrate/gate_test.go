package calibrate

import (
	"testing"
	"time"
)

// TestGate: a judge gates only when every criterion's calibration under
// exactly its identity meets the thresholds; otherwise the reason names
// the first problem — missing, stale, too few labels, no kappa, kappa or
// accuracy below.
func TestGate(t *testing.T) {
	const m, h, h2 = "m", "sha256:aaaaaaaaaaaaaaaa", "sha256:bbbbbbbbbbbbbbbb"
	var f File
	f.Set(m, h,
		NewCriterion("agrees", Confusion{6, 1, 0, 5}, 0.95, madeAt, nil), // kappa 0.83, 12 labels
		NewCriterion("coin", Confusion{3, 3, 3, 3}, 0.95, madeAt, nil),   // kappa 0
		NewCriterion("few", Confusion{2, 0, 0, 2}, 0.95, madeAt, nil),    // 4 labels
		NewCriterion("one answer", Confusion{JudgeMetHumanMet: 12}, 0.95, madeAt, nil))
	f.Set("m0", h2, NewCriterion("moved", Confusion{6, 0, 0, 6}, 0.95, madeAt.Add(-time.Hour), nil))
	f.Set("m1", h2, NewCriterion("moved", Confusion{6, 0, 0, 6}, 0.95, madeAt, nil))
	g := &Gate{Thresholds: Thresholds{MinKappa: 0.6, MinLabels: 10}, File: &f}
	for _, tc := range []struct {
		name     string
		criteria []string
		want     string
	}{
		{"calibrated", []string{"agrees"}, ""},
		{"missing", []string{"agrees", "polite"}, `no calibration of "polite" for judge m with prompt sha256:aaaaaaaaaaaaaaaa; run ananke judge calibrate`},
		{"stale", []string{"moved"}, `the calibration of "moved" was made for judge m1 with prompt sha256:bbbbbbbbbbbbbbbb, not m with sha256:aaaaaaaaaaaaaaaa: the model or prompt changed; calibrate again`},
		{"few", []string{"few"}, `the calibration of "few" rests on 4 labels, fewer than the 10 asked; label more and calibrate again`},
		{"below", []string{"coin"}, `the calibration of "coin" has kappa 0 [−0.57, 0.57] over 12 labels, below 0.6`},
		{"one answer", []string{"one answer"}, `the calibration of "one answer" has no kappa over 12 labels: the judge and the labels gave one answer to all of them; label verdicts of both kinds`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := g.Reason(tc.criteria, m, h); got != tc.want {
				t.Errorf("reason\n %q\nwant\n %q", got, tc.want)
			}
		})
	}
	acc := &Gate{Thresholds: Thresholds{MinKappa: 0.5, MinAccuracy: 0.95, MinLabels: 10}, File: &f}
	if got, want := acc.Reason([]string{"agrees"}, m, h), `the calibration of "agrees" has accuracy 92% [65–99%] over 12 labels, below 95%`; got != want {
		t.Errorf("accuracy reason %q, want %q", got, want)
	}
	none := &Gate{Thresholds: Thresholds{MinKappa: 0.6}, Missing: ".ananke/calibration.json does not exist"}
	if got, want := none.Reason([]string{"polite"}, m, h), `no calibration of "polite" for judge m with prompt sha256:aaaaaaaaaaaaaaaa (.ananke/calibration.json does not exist); run ananke judge calibrate`; got != want {
		t.Errorf("no file: %q, want %q", got, want)
	}
}

// TestNumber: two decimals at most, a true minus sign.
func TestNumber(t *testing.T) {
	for v, want := range map[float64]string{0.6: "0.6", 0.2143: "0.21", -0.05: "−0.05", 1: "1", 0: "0", -0.001: "0"} {
		if got := Number(v); got != want {
			t.Errorf("Number(%v) = %q, want %q", v, got, want)
		}
	}
}
