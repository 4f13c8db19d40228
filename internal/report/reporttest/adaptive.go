package reporttest

import (
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
)

// Positions of the adaptive fixture's tests in AdaptiveOutcome.
const (
	SettledPass  = iota // 24 of 24 runs passed at 80%: settled, 6 runs saved
	SettledFail         // 0 of 6 runs passed at 80%: settled, 24 saved
	Inconclusive        // 3 of 3 runs passed at 95%, at most 3: inconclusive
	Fixed               // 3 runs, fixed: no adaptive fields
)

// adaptiveRule is the stopping rule of the fixture's adaptive tests.
var adaptiveRule = stability.Rule{Zone: stability.DefaultZone, Alpha: stability.DefaultAlpha, Beta: stability.DefaultBeta}

// AdaptiveOutcome is a run of tests with adaptive runs (runs: {min, max})
// judged as the engine judges them, and one with fixed runs.
func AdaptiveOutcome() *engine.Outcome {
	const base = 2000
	adaptive := func(id, title string, minRuns, maxRuns int, rate float64, searched ...bool) *engine.TestResult {
		t := &spec.Test{Path: "tests/" + id + ".ananke.yaml", ID: "tests/" + id, Name: name(title)}
		var attempts []*engine.Attempt
		for run, ok := range searched {
			attempts = append(attempts, searchAttempt(base, run, ok))
		}
		p := stability.Policy{Runs: maxRuns, MinRuns: minRuns, MinPassRate: rate, Rule: adaptiveRule}
		if minRuns == 0 {
			p.Rule = stability.Rule{}
		}
		r := judged(t, p, status.Pass, "", attempts...)
		r.Status, r.Reason = r.Verdict.Status, r.Verdict.Reason
		return r
	}
	all := func(n int, ok bool) []bool {
		out := make([]bool, n)
		for i := range out {
			out[i] = ok
		}
		return out
	}
	return &engine.Outcome{Tests: []*engine.TestResult{
		adaptive("tool", "flaky tool", 3, 30, 80, all(24, true)...),
		adaptive("broken", "broken tool", 3, 30, 80, all(6, false)...),
		adaptive("strict", "strict tool", 2, 3, 95, all(3, true)...),
		adaptive("fixed", "fixed tool", 0, 3, 100, all(3, true)...),
	}, Start: Start, End: ms(15000)}
}

// AdaptiveReport builds a report from some of the adaptive fixture's
// tests through report.Build.
func AdaptiveReport(failOnInconclusive bool, tests ...int) *report.Report {
	out := AdaptiveOutcome()
	all := out.Tests
	out.Tests = nil
	for _, i := range tests {
		out.Tests = append(out.Tests, all[i])
	}
	return report.Build(out, report.Meta{Version: "v1.2.3", Config: Config(), Parallel: 1, FailOnInconclusive: failOnInconclusive})
}
