// Package stability judges a test over repeated runs. Language-model agents
// are not deterministic: the same test can pass three times and fail the
// fourth. A test therefore runs Policy.Runs independent times, a failing
// run may be retried (Playwright's semantics: a run that passes on a retry
// passes), and the test's status comes from its pass rate against
// Policy.MinPassRate. A test with both passing and failing attempts is
// flaky, whatever its status.
//
// The package is pure: the engine reports each attempt's status and asks
// whether to retry; Judge returns the verdict. With adaptive runs
// (Policy.MinRuns), Settled tells the engine when to stop starting runs.
package stability

import (
	"fmt"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
)

// DefaultMinPassRate is the pass rate a test needs unless told otherwise:
// every run must pass, as for a deterministic test.
const DefaultMinPassRate = 100

// Policy is how a test is run and judged.
type Policy struct {
	// Runs is how many independent times the test runs (at least 1); for
	// adaptive runs, the most it may run.
	Runs int
	// MinPassRate is the percentage of runs that must pass.
	MinPassRate float64
	// Retries is how often a run that failed or errored is run again.
	Retries int
	// MinRuns, when above 0, makes the runs adaptive: at least MinRuns, at
	// most Runs, stopping once Rule settles the verdict (adaptive.go).
	// 0: the test runs exactly Runs times.
	MinRuns int
	// Rule is the stopping rule of adaptive runs (zero for fixed runs).
	Rule Rule
}

// Resolve returns the policy the levels give, narrowest first (the test
// file, the command line, the config): each setting comes from the first
// level that sets it, else its default (1 run, 100%, no retries). Runs,
// fixed or adaptive, is one setting; the stopping rule's values are
// resolved one by one, for adaptive runs only.
func Resolve(levels ...spec.Stability) Policy {
	p := Policy{Runs: 1, MinPassRate: DefaultMinPassRate}
	runs, rate, retries := false, false, false
	for _, l := range levels {
		if !runs && l.RunsSet() {
			p.Runs, runs = l.Runs, true
			if r := l.Adaptive; r != nil {
				p.Runs, p.MinRuns = r.Max, r.Min
			}
		}
		if !rate && l.MinPassRate != nil {
			p.MinPassRate, rate = *l.MinPassRate, true
		}
		if !retries && l.Retries != nil {
			p.Retries, retries = *l.Retries, true
		}
	}
	if p.Adaptive() {
		p.Rule = resolveRule(levels)
	}
	return p
}

// Repeated reports whether the policy can run a test more than once, so
// that reports show runs and pass rates.
func (p Policy) Repeated() bool { return p.Runs > 1 || p.Retries > 0 }

// Retry reports whether a run whose attempts so far ended with these
// statuses gets another attempt: its last attempt did not pass and retries
// are left.
func (p Policy) Retry(attempts []status.Status) bool {
	n := len(attempts)
	return n > 0 && attempts[n-1] != status.Pass && n <= p.Retries
}

// Verdict is a test's result over its runs.
type Verdict struct {
	Status status.Status
	// Runs is the number of runs judged; PassedRuns of them passed (their
	// last attempt passed).
	Runs, PassedRuns int
	// PassRate is PassedRuns / Runs in percent, rounded to one decimal.
	PassRate float64
	// Flaky: some attempt passed and some attempt failed or errored.
	Flaky bool
	// Reason explains a status that no single attempt explains: a pass
	// rate below the minimum, or every run erroring. Empty otherwise.
	Reason string
	// Stop says why an adaptive test's runs stopped (StopSettledPass, …);
	// empty for fixed runs.
	Stop string
	// Inconclusive: adaptive runs reached their maximum without settling
	// the verdict, which is then the observed rate's.
	Inconclusive bool
}

// Judge returns the verdict over runs, where runs[i] holds the statuses of
// run i's attempts in order. A run passes when its last attempt passed. The
// test passes when PassedRuns/Runs*100 >= MinPassRate (compared exactly,
// not after rounding); when no attempt passed or failed — every one
// errored — the test errors: the agent's behaviour could not be judged.
// An adaptive test's verdict is its sequential test's once settled, else
// the observed rate's, inconclusive (adaptive.go).
func (p Policy) Judge(runs [][]status.Status) Verdict {
	v := Verdict{Runs: len(runs)}
	var passes, fails, errors int
	for _, attempts := range runs {
		for _, s := range attempts {
			switch s {
			case status.Pass:
				passes++
			case status.Fail:
				fails++
			default:
				errors++
			}
		}
		if n := len(attempts); n > 0 && attempts[n-1] == status.Pass {
			v.PassedRuns++
		}
	}
	if v.Runs > 0 {
		v.PassRate = Percent(v.PassedRuns, v.Runs)
	}
	v.Flaky = passes > 0 && fails+errors > 0
	switch {
	case v.Runs == 0:
		v.Status = status.Error
		v.Reason = "no run finished"
	case passes == 0 && fails == 0:
		v.Status = status.Error
		if v.Runs > 1 {
			v.Reason = fmt.Sprintf("all %d runs errored", v.Runs)
		}
	case float64(v.PassedRuns)*100 >= p.MinPassRate*float64(v.Runs):
		v.Status = status.Pass
	default:
		v.Status = status.Fail
		if v.Runs > 1 || p.MinPassRate < DefaultMinPassRate {
			v.Reason = fmt.Sprintf("%d of %s passed (%s), below min_pass_rate %s",
				v.PassedRuns, plural.Count(v.Runs, "run"), FormatPercent(v.PassRate), FormatPercent(p.MinPassRate))
		}
	}
	if p.Adaptive() && v.Runs > 0 {
		p.judgeAdaptive(&v)
	}
	return v
}

// Percent is n / of in percent, rounded to one decimal.
func Percent(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return float64(int64(float64(n)*1000/float64(of)+0.5)) / 10
}

// FormatPercent renders a percentage without a useless ".0": 50%, 66.7%.
func FormatPercent(p float64) string {
	if p == float64(int64(p)) {
		return fmt.Sprintf("%d%%", int64(p))
	}
	return fmt.Sprintf("%.1f%%", p)
}
