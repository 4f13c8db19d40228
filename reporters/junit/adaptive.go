package junit

import (
	"fmt"

	"github.com/ananke/action/internal/report"
)

// adaptiveProperties adds, for each test of a suite that ran adaptively
// (runs: {min, max}; docs/runs.md), a property on the suite — junit-10.xsd
// allows none on a testcase — ananke.adaptive: "stop=settled_pass runs=24
// min=3 max=30", with " inconclusive" when its runs reached their maximum
// unsettled. As for the pass rate's properties (confidence.go), a
// dataset's suite names each test's in brackets: "ananke.adaptive[id]".
func adaptiveProperties(s *testsuite, tests []*report.Test) {
	for _, t := range tests {
		a := t.Adaptive
		if a == nil {
			continue
		}
		v := fmt.Sprintf("stop=%s runs=%d min=%d max=%d", a.StopReason, t.Runs, a.MinRuns, a.MaxRuns)
		if t.Inconclusive {
			v += " inconclusive"
		}
		s.AddProperty("ananke.adaptive"+testSuffix(t, tests), v)
	}
}
