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
// error rates Alpha and Beta.
type Rule struct {
	Zone, Alpha, Beta float64
}

// Why a test's adaptive runs stopped (Verdict.Stop).
const (
	// StopSettledPass: the runs showed the pass rate above min_pass_rate.
	StopSettledPass = "settled_pass"
	// StopSettledFail: the runs showed the pass rate below min_pass_rate.
	StopSettledFail = "settled_fail"
	// StopMaxRuns: the maximum was reached unsettled; the verdict is the
	// observed rate's, and inconclusive.
	StopMaxRuns = "max_runs"
	// StopCancelled: the run was cancelled before the verdict settled.
	StopCancelled = "cancelled"
)

// Adaptive reports whether the test runs adaptively: between MinRuns and
// Runs times, until its verdict is settled.
func (p Policy) Adaptive() bool { return p.MinRuns > 0 }

// SPRT is the sequential test adaptive runs stop by.
func (p Policy) SPRT() stats.SPRT {
	return stats.SPRT{Threshold: p.MinPassRate / 100, Zone: p.Rule.Zone / 100, Alpha: p.Rule.Alpha, Beta: p.Rule.Beta}
}

// Settled reports whether, after passed and failed finished runs, an
// adaptive test needs no more: it has had its MinRuns and the sequential
// test has decided. A run counts as passed when its last attempt passed,
// as in Judge; any other finished run counts as failed.
func (p Policy) Settled(passed, failed int) bool {
	return p.Adaptive() && passed+failed >= p.MinRuns && p.SPRT().Decide(passed, failed) != stats.Continue
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

// judgeAdaptive settles the verdict of an adaptive test over its finished
// runs: the sequential test's decision when it has one (a pass above
// min_pass_rate, a failure below it), else — the maximum reached — the
// observed rate's verdict Judge made, marked inconclusive. A test whose
// every run errored stays an error.
func (p Policy) judgeAdaptive(v *Verdict) {
	failed := v.Runs - v.PassedRuns
	d := p.SPRT().Decide(v.PassedRuns, failed)
	switch {
	case v.Runs < p.MinRuns || d == stats.Continue && v.Runs < p.Runs:
		v.Stop = StopCancelled
		return
	case d == stats.Accept:
		v.Stop = StopSettledPass
	case d == stats.Reject:
		v.Stop = StopSettledFail
	default:
		v.Stop, v.Inconclusive = StopMaxRuns, v.Status != status.Error
		if v.Status == status.Fail {
			v.Reason += fmt.Sprintf("; inconclusive: not settled within the maximum of %s", plural.Count(p.Runs, "run"))
		}
		return
	}
	if v.Status == status.Error {
		return
	}
	v.Status, v.Reason = status.Pass, ""
	if d == stats.Reject {
		v.Status = status.Fail
		v.Reason = fmt.Sprintf("%d of %s passed (%s): settled below min_pass_rate %s",
			v.PassedRuns, plural.Count(v.Runs, "run"), FormatPercent(v.PassRate), FormatPercent(p.MinPassRate))
	}
}
