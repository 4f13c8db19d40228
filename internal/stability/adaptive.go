package stability

import (
	"fmt"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stats"
	"github.com/ananke/action/internal/status"
)

// The stopping rule of adaptive runs unless the files say otherwise
// (adaptive: {zone, alpha, beta}); docs/statistics.md says how they were
// chosen and what each costs.
const (
	// DefaultZone is the indifference zone around min_pass_rate, in
	// percentage points.
	DefaultZone = 5
	// DefaultAlpha is the chance of passing a test whose pass rate is
	// DefaultZone below min_pass_rate.
	DefaultAlpha = 0.05
	// DefaultBeta is the chance of failing a test whose pass rate is
	// DefaultZone above min_pass_rate.
	DefaultBeta = 0.05
)

// Rule is adaptive runs' stopping rule: Wald's sequential probability
// ratio test of the pass rate against min_pass_rate, with an
// indifference zone of Zone percentage points either side of it, and
// error rates Alpha and Beta (stats.Sequential).
type Rule struct {
	Zone, Alpha, Beta float64
}

// Why a test's adaptive runs stopped (Verdict.Stop): stats.Sequential's
// reasons, and a run cancelled before the verdict settled.
const (
	StopSettledPass = stats.StopSettledPass
	StopSettledFail = stats.StopSettledFail
	StopMaxRuns     = stats.StopMaxRuns
	StopFixed       = stats.StopFixed // runs: {min: N, max: N}
	StopCancelled   = "cancelled"
)

// Adaptive reports whether the test runs adaptively: between MinRuns and
// Runs times, until its verdict is settled.
func (p Policy) Adaptive() bool { return p.MinRuns > 0 }

// Sequential is the rule adaptive runs stop by.
func (p Policy) Sequential() stats.Sequential {
	return stats.Sequential{Min: p.MinRuns, Max: p.Runs, MinPassRate: p.MinPassRate, Zone: p.Rule.Zone, Alpha: p.Rule.Alpha, Beta: p.Rule.Beta}
}

// Settled reports whether, after passed and failed finished runs, an
// adaptive test needs no more: the rule settled its verdict, or it has had
// its maximum. A run counts as passed when its last attempt passed, as in
// Judge; any other finished run counts as failed.
func (p Policy) Settled(passed, failed int) bool {
	return p.Adaptive() && p.Sequential().Next(passed, failed).Done
}

// RunsText says how often the policy runs a test: "5 runs", "3–30 runs
// (adaptive)".
func (p Policy) RunsText() string {
	if !p.Adaptive() {
		return plural.Count(p.Runs, "run")
	}
	return fmt.Sprintf("%d–%d runs (adaptive)", p.MinRuns, p.Runs)
}

// resolveRule fills the rule from the first level that sets each value,
// else its default.
func resolveRule(levels []spec.Stability) Rule {
	r := Rule{Zone: DefaultZone, Alpha: DefaultAlpha, Beta: DefaultBeta}
	zone, alpha, beta := false, false, false
	for _, l := range levels {
		if !zone && l.Rule.Zone != nil {
			r.Zone, zone = *l.Rule.Zone, true
		}
		if !alpha && l.Rule.Alpha != nil {
			r.Alpha, alpha = *l.Rule.Alpha, true
		}
		if !beta && l.Rule.Beta != nil {
			r.Beta, beta = *l.Rule.Beta, true
		}
	}
	return r
}

// judgeAdaptive says why an adaptive test's runs stopped, by the rule
// over its finished runs. Its status is Judge's — the observed rate's,
// with which a settled verdict always agrees — and when the rule did not
// settle it by the maximum, it is inconclusive. A test whose every run
// errored stays an error, and is not inconclusive.
func (p Policy) judgeAdaptive(v *Verdict) {
	st := p.Sequential().Next(v.PassedRuns, v.Runs-v.PassedRuns)
	if !st.Done {
		v.Stop = StopCancelled
		return
	}
	v.Stop = st.Reason
	if st.Inconclusive && v.Status != status.Error {
		v.Inconclusive = true
		if v.Status == status.Fail {
			v.Reason += fmt.Sprintf("; inconclusive: not settled within the maximum of %s", plural.Count(p.Runs, "run"))
		}
	}
}
