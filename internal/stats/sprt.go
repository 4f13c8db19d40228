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
// a threshold θ with an indifference zone δ (all fractions: 0.8, 0.05):
// it weighs "p = θ + δ" against "p = θ − δ" after every run and stops as
// soon as the evidence for one reaches its bound. Alpha is the chance of
// passing an agent whose true rate is θ − δ or lower, Beta of failing one
// at θ + δ or higher; rates inside the zone may go either way.
//
// Near the edges the zone is narrowed on the side that would leave (0, 1)
// (Hypotheses): the upper rate is at most halfway from θ to 100%, the
// lower at least halfway from 0% to θ. Narrowing only moves a rate closer
// to θ, so Alpha and Beta still hold where they were stated, at the price
// of more runs; without it a threshold of 95% with a zone of 5 points
// would weigh "p = 100%" and fail on the first failed run. At θ = 100% no
// run can show the rate is above it, and one failure shows it is below.
type SPRT struct {
	Threshold, Zone, Alpha, Beta float64
}

// Hypotheses are the two rates the test weighs: an agent at lo or below
// should fail (it passes with chance Alpha at most), one at hi or above
// should pass (it fails with chance Beta at most). They are θ − δ and
// θ + δ, narrowed near the edges (see SPRT). Meaningful for 0 < θ < 1.
func (s SPRT) Hypotheses() (lo, hi float64) {
	lo = max(s.Threshold-s.Zone, s.Threshold/2)
	hi = min(s.Threshold+s.Zone, (1+s.Threshold)/2)
	return lo, hi
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
	p0, p1 := s.Hypotheses()
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
// is 0 when no number of passes can (a threshold of 100%, or no zone).
func (s SPRT) PassesToAccept() int {
	if s.Threshold >= 1 {
		return 0
	}
	if s.Threshold <= 0 {
		return 0
	}
	p0, p1 := s.Hypotheses()
	if p1 <= p0 {
		return 0 // no zone: no evidence is ever enough
	}
	return int(math.Ceil(math.Log((1-s.Beta)/s.Alpha)/math.Log(p1/p0) - 1e-9))
}
