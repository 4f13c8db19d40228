package stats

import "testing"

// TestHypotheses: the zone around the threshold, narrowed near the edges
// to halfway between the threshold and 0% or 100%.
func TestHypotheses(t *testing.T) {
	for _, tc := range []struct {
		threshold, zone float64
		lo, hi          float64
	}{
		{0.8, 0.05, 0.75, 0.85},
		{0.9, 0.05, 0.85, 0.95},
		{0.95, 0.05, 0.90, 0.975},
		{0.99, 0.05, 0.94, 0.995},
		{0.05, 0.05, 0.025, 0.10},
		{0.5, 0.6, 0.25, 0.75},
	} {
		lo, hi := SPRT{Threshold: tc.threshold, Zone: tc.zone}.Hypotheses()
		if !near(lo, tc.lo, 1e-12) || !near(hi, tc.hi, 1e-12) {
			t.Errorf("Hypotheses(%v ± %v) = %v, %v; want %v, %v", tc.threshold, tc.zone, lo, hi, tc.lo, tc.hi)
		}
	}
}

// TestPassesToAccept: what a perfectly reliable agent costs with the
// default zone and error rates, and with wider settings.
func TestPassesToAccept(t *testing.T) {
	for _, tc := range []struct {
		s    SPRT
		want int
	}{
		{SPRT{Threshold: 0.8, Zone: 0.05, Alpha: 0.05, Beta: 0.05}, 24},
		{SPRT{Threshold: 0.9, Zone: 0.05, Alpha: 0.05, Beta: 0.05}, 27},
		{SPRT{Threshold: 0.95, Zone: 0.05, Alpha: 0.05, Beta: 0.05}, 37},
		{SPRT{Threshold: 0.9, Zone: 0.10, Alpha: 0.05, Beta: 0.05}, 18},
		{SPRT{Threshold: 0.9, Zone: 0.05, Alpha: 0.20, Beta: 0.05}, 15},
		{SPRT{Threshold: 0.8, Zone: 0, Alpha: 0.05, Beta: 0.05}, 0},
	} {
		if got := tc.s.PassesToAccept(); got != tc.want {
			t.Errorf("%+v: passes to accept = %d, want %d", tc.s, got, tc.want)
		}
		if n := tc.s.PassesToAccept(); n > 0 && (tc.s.Decide(n, 0) != Accept || tc.s.Decide(n-1, 0) != Continue) {
			t.Errorf("%+v: %d passes do not accept exactly", tc.s, n)
		}
	}
}

// TestSequential: when the adaptive rule stops, why, and with what verdict.
func TestSequential(t *testing.T) {
	adaptive := Sequential{Min: 3, Max: 30, MinPassRate: 80, Zone: 5, Alpha: 0.05, Beta: 0.05}
	for _, tc := range []struct {
		name          string
		rule          Sequential
		passes, fails int
		want          Stop
	}{
		{"fixed, not all run", Sequential{Min: 5, Max: 5, MinPassRate: 80}, 3, 1, Stop{}},
		{"fixed, all run, met", Sequential{Min: 5, Max: 5, MinPassRate: 80}, 4, 1, Stop{Done: true, Reason: StopFixed, Pass: true}},
		{"fixed, all run, not met", Sequential{Min: 5, Max: 5, MinPassRate: 80}, 3, 2, Stop{Done: true, Reason: StopFixed}},
		{"fixed ignores a settled test", Sequential{Min: 10, Max: 10, MinPassRate: 80, Zone: 5, Alpha: 0.05, Beta: 0.05}, 0, 6, Stop{}},
		{"unsettled", adaptive, 20, 0, Stop{}},
		{"one pass short", adaptive, 23, 0, Stop{}},
		{"settled pass", adaptive, 24, 0, Stop{Done: true, Reason: StopSettledPass, Pass: true}},
		{"settled fail", adaptive, 0, 6, Stop{Done: true, Reason: StopSettledFail}},
		{"settled fail after passes", adaptive, 2, 7, Stop{Done: true, Reason: StopSettledFail}},
		{"not before min", Sequential{Min: 10, Max: 30, MinPassRate: 80, Zone: 5, Alpha: 0.05, Beta: 0.05}, 0, 6, Stop{}},
		{"settled at min", Sequential{Min: 10, Max: 30, MinPassRate: 80, Zone: 5, Alpha: 0.05, Beta: 0.05}, 0, 10, Stop{Done: true, Reason: StopSettledFail}},
		{"max, observed pass", Sequential{Min: 2, Max: 3, MinPassRate: 95, Zone: 5, Alpha: 0.05, Beta: 0.05}, 3, 0, Stop{Done: true, Reason: StopMaxRuns, Pass: true, Inconclusive: true}},
		{"before max", Sequential{Min: 2, Max: 3, MinPassRate: 95, Zone: 5, Alpha: 0.05, Beta: 0.05}, 2, 0, Stop{}},
		{"max, observed fail", Sequential{Min: 3, Max: 10, MinPassRate: 80, Zone: 5, Alpha: 0.05, Beta: 0.05}, 7, 3, Stop{Done: true, Reason: StopMaxRuns, Inconclusive: true}},
		{"max, exactly met", Sequential{Min: 3, Max: 10, MinPassRate: 80, Zone: 5, Alpha: 0.05, Beta: 0.05}, 8, 2, Stop{Done: true, Reason: StopMaxRuns, Pass: true, Inconclusive: true}},
		{"100%: a failure settles", Sequential{Min: 1, Max: 30, MinPassRate: 100, Zone: 5, Alpha: 0.05, Beta: 0.05}, 9, 1, Stop{Done: true, Reason: StopSettledFail}},
		{"100%: passes never settle", Sequential{Min: 1, Max: 30, MinPassRate: 100, Zone: 5, Alpha: 0.05, Beta: 0.05}, 30, 0, Stop{Done: true, Reason: StopMaxRuns, Pass: true, Inconclusive: true}},
		{"0%: met at min", Sequential{Min: 2, Max: 30, MinPassRate: 0, Zone: 5, Alpha: 0.05, Beta: 0.05}, 0, 2, Stop{Done: true, Reason: StopSettledPass, Pass: true}},
		{"min below 1 is 1", Sequential{Min: 0, Max: 30, MinPassRate: 0, Zone: 5, Alpha: 0.05, Beta: 0.05}, 0, 1, Stop{Done: true, Reason: StopSettledPass, Pass: true}},
		{"max below min is min", Sequential{Min: 4, Max: 2, MinPassRate: 50}, 2, 2, Stop{Done: true, Reason: StopFixed, Pass: true}},
	} {
		if got := tc.rule.Next(tc.passes, tc.fails); got != tc.want {
			t.Errorf("%s: Next(%d, %d) = %+v, want %+v", tc.name, tc.passes, tc.fails, got, tc.want)
		}
	}
}

// TestSequentialAgreesWithObservedRate: where the SPRT alone would settle
// against the observed rate (18 of 60 is 30%, which meets 30%, yet the
// SPRT rejects), the rule keeps running, so a settled verdict is always
// the observed rate's too.
func TestSequentialAgreesWithObservedRate(t *testing.T) {
	s := Sequential{Min: 1, Max: 100, MinPassRate: 30, Zone: 25, Alpha: 0.05, Beta: 0.05}
	if d := s.SPRT().Decide(18, 42); d != Reject {
		t.Fatalf("the SPRT says %v, want reject (the case this test needs)", d)
	}
	if got := s.Next(18, 42); got.Done {
		t.Errorf("Next(18, 42) = %+v, want to continue", got)
	}
	for passes := 0; passes <= 100; passes++ {
		for fails := 0; passes+fails <= 100; fails++ {
			st := s.Next(passes, fails)
			if st.Done && st.Pass != s.Meets(passes, passes+fails) {
				t.Fatalf("Next(%d, %d) = %+v disagrees with the observed rate", passes, fails, st)
			}
		}
	}
}
