package stats

import "math"

// Decision is what a sequential test says after the runs so far.
type Decision int

// Decisions.
const (
	Continue Decision = iota // not settled: run again
	Accept                   // the pass rate is above the threshold
	Reject                   // the pass rate is below the threshold
)

func (d Decision) String() string {
	switch d {
	case Accept:
		return "accept"
	case Reject:
		return "reject"
	}
	return "continue"
}

// SPRT is Wald's sequential probability ratio test of a pass rate against
// a threshold θ with an indifference zone δ: it weighs "p = θ + δ" against
// "p = θ − δ" after every run and stops as soon as the evidence for one
// reaches its bound. Alpha is the chance of passing an agent whose true
// rate is θ − δ or lower, Beta of failing one at θ + δ or higher; rates
// inside the zone may go either way. The zone is clipped to (0, 1): at
// θ = 100% no run can show the rate is above it, and one failure shows it
// is below.
type SPRT struct {
	Threshold, Zone, Alpha, Beta float64
}

// bounds are the hypotheses' rates, clipped inside (0, 1).
func (s SPRT) bounds() (p0, p1 float64) {
	const eps = 1e-9
	p0 = math.Max(eps, s.Threshold-s.Zone)
	p1 = math.Min(1-eps, s.Threshold+s.Zone)
	return p0, p1
}

// Decide says whether passes and fails settle the verdict.
func (s SPRT) Decide(passes, fails int) Decision {
	if s.Threshold >= 1 {
		if fails > 0 {
			return Reject
		}
		return Continue // only the run limit ends it
	}
	if s.Threshold <= 0 {
		return Accept // every rate is at least 0%
	}
	p0, p1 := s.bounds()
	llr := float64(passes)*math.Log(p1/p0) + float64(fails)*math.Log((1-p1)/(1-p0))
	switch {
	case llr >= math.Log((1-s.Beta)/s.Alpha):
		return Accept
	case llr <= math.Log(s.Beta/(1-s.Alpha)):
		return Reject
	}
	return Continue
}

// PassesToAccept is how many runs in a row, all passing, the test needs
// to accept: what a perfectly reliable agent costs at this threshold. It
// is 0 when no number of passes can (a threshold of 100%).
func (s SPRT) PassesToAccept() int {
	if s.Threshold >= 1 {
		return 0
	}
	if s.Threshold <= 0 {
		return 0
	}
	p0, p1 := s.bounds()
	return int(math.Ceil(math.Log((1-s.Beta)/s.Alpha)/math.Log(p1/p0) - 1e-9))
}
