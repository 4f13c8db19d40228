package stats

// Why a test's runs ended: the stop reasons reports carry.
const (
	// StopSettledPass: the sequential test settled that the pass rate is
	// above the threshold; the verdict is pass, at the stated error rates.
	StopSettledPass = "settled_pass"
	// StopSettledFail: the sequential test settled that the pass rate is
	// below the threshold; the verdict is fail, at the stated error rates.
	StopSettledFail = "settled_fail"
	// StopMaxRuns: the maximum number of runs was reached before the
	// verdict was settled. The verdict is the observed rate's, and it is
	// inconclusive: the stated error rates do not cover it.
	StopMaxRuns = "max_runs"
	// StopFixed: a fixed number of runs ran, all of them; the verdict is
	// the observed rate's, as it always was for runs: N.
	StopFixed = "fixed"
)

// Sequential is the adaptive-runs rule for one test: run at least Min
// times and at most Max, and stop in between as soon as the SPRT settles
// the verdict. Its fields are in the units of the configuration:
// MinPassRate and Zone in percent (80, 5), Alpha and Beta as fractions
// (0.05). Min == Max is a fixed number of runs: the SPRT is not asked and
// the stop reason is StopFixed.
type Sequential struct {
	Min, Max    int
	MinPassRate float64
	Zone        float64
	Alpha, Beta float64
}

// Stop is what the rule says after the runs so far.
type Stop struct {
	// Done: start no more runs.
	Done bool
	// Reason is one of the Stop* constants when Done, else "".
	Reason string
	// Pass is the verdict when Done: the settled one, or the observed
	// rate's (PassedRuns/Runs × 100 >= MinPassRate, compared exactly).
	Pass bool
	// Inconclusive: Done at Max without a settled verdict.
	Inconclusive bool
}

// SPRT is the sequential test the rule asks, in fractions.
func (s Sequential) SPRT() SPRT {
	return SPRT{Threshold: s.MinPassRate / 100, Zone: s.Zone / 100, Alpha: s.Alpha, Beta: s.Beta}
}

// Meets says whether passes of runs reach the pass rate: passes/runs × 100
// >= MinPassRate, compared exactly as the verdict over fixed runs is.
func (s Sequential) Meets(passes, runs int) bool {
	return float64(passes)*100 >= s.MinPassRate*float64(runs)
}

// Next says, after passes and fails (errored runs count as fails), whether
// to start another run and, if not, the verdict and why. A verdict is
// settled only from Min runs on, and only when the observed rate agrees
// with it — so a settled verdict is always the observed rate's too. Min is
// at least 1 and Max at least Min.
func (s Sequential) Next(passes, fails int) Stop {
	lo := max(s.Min, 1)
	hi := max(s.Max, lo)
	n := passes + fails
	meets := s.Meets(passes, n)
	if lo == hi {
		if n >= hi {
			return Stop{Done: true, Reason: StopFixed, Pass: meets}
		}
		return Stop{}
	}
	if n >= lo {
		switch s.SPRT().Decide(passes, fails) {
		case Accept:
			if meets {
				return Stop{Done: true, Reason: StopSettledPass, Pass: true}
			}
		case Reject:
			if !meets {
				return Stop{Done: true, Reason: StopSettledFail}
			}
		}
	}
	if n >= hi {
		return Stop{Done: true, Reason: StopMaxRuns, Pass: meets, Inconclusive: true}
	}
	return Stop{}
}
