package junit

import (
	"strconv"

	"github.com/ananke/action/internal/report"
)

// How sure a test's pass rate is (docs/runs.md), for a test run more than
// once: as <properties> of its test file's <testsuite>, where junit-10.xsd
// allows them — ananke.runs, ananke.pass_rate, ananke.pass_rate_ci_level,
// ananke.pass_rate_ci_lo, ananke.pass_rate_ci_hi and ananke.pass_k (pass^k
// for k = runs), in percent. A dataset's suite holds several tests: each
// name then ends with the test's id in brackets,
// "ananke.pass_rate[refunds/cases:3]". A test run once has none.

// confidenceProperties adds the properties of the suite's repeated tests.
func confidenceProperties(s *testsuite, tests []*report.Test) {
	for _, t := range tests {
		ci := t.PassRateCI
		if ci == nil {
			continue
		}
		suffix := testSuffix(t, tests)
		props := []property{
			{"ananke.runs", float64(t.Runs)}, {"ananke.pass_rate", t.PassRate},
			{"ananke.pass_rate_ci_level", ci.Level}, {"ananke.pass_rate_ci_lo", ci.Lo}, {"ananke.pass_rate_ci_hi", ci.Hi},
		}
		if t.PassK != nil {
			props = append(props, property{"ananke.pass_k", t.PassK.Value})
		}
		for _, p := range props {
			s.AddProperty(p.name+suffix, strconv.FormatFloat(p.v, 'f', -1, 64))
		}
	}
}

// testSuffix names a test in its suite's property names when the suite
// holds several (a dataset): "[refunds/cases:3]"; "" for a test file's.
func testSuffix(t *report.Test, tests []*report.Test) string {
	if len(tests) > 1 {
		return "[" + clean(t.ID) + "]"
	}
	return ""
}

// property is a numeric property of a suite.
type property struct {
	name string
	v    float64
}
