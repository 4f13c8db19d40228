package junit_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/internal/suitetest"
)

// confidenceProps are a suite's properties of repeated tests.
func confidenceProps(p parsed) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, s := range p.Suites {
		out[s.Name] = map[string]string{}
		for _, pr := range s.Properties {
			if strings.HasPrefix(pr.Name, "ananke.runs") || strings.HasPrefix(pr.Name, "ananke.pass_") {
				out[s.Name][pr.Name] = pr.Value
			}
		}
	}
	return out
}

// TestConfidenceProperties: a test file's suite carries its repeated
// test's runs, pass rate, the rate's interval and pass^k as properties (on
// the suite: junit-10.xsd has none on a testcase); a test run once adds
// none; in a dataset's suite each name ends with the test's id.
func TestConfidenceProperties(t *testing.T) {
	out := render(t, reporttest.Report())
	validate(t, out)
	props := confidenceProps(parse(t, out))
	for suite, want := range map[string]map[string]string{
		"tests/flip.ananke.yaml": {"ananke.runs": "2", "ananke.pass_rate": "50", "ananke.pass_rate_ci_level": "95",
			"ananke.pass_rate_ci_lo": "9.5", "ananke.pass_rate_ci_hi": "90.5", "ananke.pass_k": "25"},
		"tests/search.ananke.yaml": {"ananke.runs": "3", "ananke.pass_rate": "66.7", "ananke.pass_rate_ci_level": "95",
			"ananke.pass_rate_ci_lo": "20.8", "ananke.pass_rate_ci_hi": "93.9", "ananke.pass_k": "29.6"},
		"tests/checkout.ananke.yaml": {},
		"tests/weather.ananke.yaml":  {},
		"tests/legacy.ananke.yaml":   {},
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

	r := suitetest.Report()
	ci := &report.Interval{Level: 90, Lo: 44.2, Hi: 87.3}
	rt := &r.Tests[suitetest.Receipt]
	rt.Runs, rt.PassedRuns, rt.PassRate, rt.PassRateCI, rt.PassK = 10, 7, 70, ci, &report.PassK{K: 10, Value: 2.8, Lo: 0, Hi: 25.7}
	out = render(t, r)
	validate(t, out)
	got := confidenceProps(parse(t, out))[suitetest.Dataset]
	id := "[" + rt.ID + "]"
	for k, v := range map[string]string{"ananke.runs": "10", "ananke.pass_rate": "70", "ananke.pass_rate_ci_level": "90",
		"ananke.pass_rate_ci_lo": "44.2", "ananke.pass_rate_ci_hi": "87.3", "ananke.pass_k": "2.8"} {
		if got[k+id] != v {
			t.Errorf("the dataset's suite: %s = %q; want %q (all: %v)", k+id, got[k+id], v, got)
		}
	}
	if len(got) != 6 {
		t.Errorf("the dataset's suite has %d such properties; want the repeated test's 6: %v", len(got), got)
	}
}
