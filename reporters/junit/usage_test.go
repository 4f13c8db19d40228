package junit_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/internal/suitetest"
)

// TestUsage: each test file's suite carries its tests' usage as
// properties, each only when known, and each testcase says what its agent
// used first in its <system-out>; a run whose agent reported no usage
// writes nothing of it. Both validate against junit-10.xsd, which has no
// properties on a testcase.
func TestUsage(t *testing.T) {
	out := render(t, reporttest.Report())
	validate(t, out)
	p := parse(t, out)
	props := map[string]map[string]string{}
	for _, s := range p.Suites {
		props[s.Name] = map[string]string{}
		for _, pr := range s.Properties {
			if strings.HasPrefix(pr.Name, "ananke.tokens.") || pr.Name == "ananke.cost_usd" {
				props[s.Name][pr.Name] = pr.Value // a repeated test's pass rate is confidence_test.go's
			}
		}
	}
	for suite, want := range map[string]map[string]string{
		"tests/checkout.ananke.yaml": {"ananke.tokens.total": "5030", "ananke.tokens.input": "4750", "ananke.tokens.output": "280", "ananke.cost_usd": "0.0035595"},
		// No price: no cost.
		"tests/weather.ananke.yaml": {"ananke.tokens.total": "10220", "ananke.tokens.input": "9800", "ananke.tokens.output": "420"},
		// Nothing reported, or not by every attempt: nothing known.
		"tests/refund.ananke.yaml": {},
		"tests/flip.ananke.yaml":   {},
		"tests/legacy.ananke.yaml": {},
	} {
		if got := props[suite]; len(got) != len(want) {
			t.Errorf("%s has properties %v; want %v", suite, got, want)
		}
		for k, v := range want {
			if props[suite][k] != v {
				t.Errorf("%s: %s = %q; want %q", suite, k, props[suite][k], v)
			}
		}
	}
	// The dataset's suite sums its two tests.
	suite := parse(t, render(t, suitetest.Report())).Suites[1]
	if len(suite.Properties) != 4 || suite.Properties[0].Value != "9610" || suite.Properties[3].Value != "0.02535" {
		t.Errorf("the dataset's properties: %+v", suite.Properties)
	}
	skipped := p.Suites[3].Cases[0]
	if skipped.Name != "legacy flow" || skipped.Out != nil {
		t.Errorf("the skipped test %q says %v; a test that never ran says nothing of usage", skipped.Name, skipped.Out)
	}
	if errored := p.Suites[2].Cases[0]; errored.Out == nil || *errored.Out != "usage unknown\n" {
		t.Errorf("the errored test's system-out is %v; want usage unknown", errored.Out)
	}

	none := render(t, reporttest.ReportWithoutUsage())
	validate(t, none)
	for _, w := range []string{"usage", "ananke.tokens", "ananke.cost_usd"} {
		if strings.Contains(string(none), w) {
			t.Errorf("a run without usage writes %q", w)
		}
	}
}
