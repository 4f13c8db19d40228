package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
)

// quarantine marks the test id of r quarantined, as report.Build does
// for a test its config's quarantine names (the gates read no more).
func quarantine(r *report.Report, id, reason string) *report.Report {
	for i := range r.Tests {
		if r.Tests[i].ID == id {
			r.Tests[i].Quarantined = &report.Quarantined{Reason: reason, Match: id, Source: report.Location{File: "ananke.config.yaml", Line: 3}}
		}
	}
	return r
}

// TestDiffGatesSpareQuarantined: a test quarantined in the head report
// fails none of --fail-on-new, --fail-on-regression and
// --fail-on-cost-increase; each gate lists it instead, with its reason and
// what would have failed the step, and the others still gate.
func TestDiffGatesSpareQuarantined(t *testing.T) {
	dirs := t.TempDir()
	for _, tc := range []struct {
		name       string
		base, head *report.Report
		flags      []string
		code       int
		out, err   string
	}{
		{"new failure", reporttest.Pick(false, reporttest.Passing), reporttest.QuarantineReport(reporttest.Passing, reporttest.Failing),
			[]string{"--fail-on-new"}, ExitPass,
			"fail-on-new: not failing the step: checkout declines the card is quarantined (the payment sandbox declines at random): new → fail\n", ""},
		{"regression", rateRun(10, 10), quarantine(rateRun(6, 9), "tests/search", "the index is rebuilt nightly"),
			[]string{"--fail-on-regression"}, ExitPass,
			"regression gate: not failing the step: search finds shoes is quarantined (the index is rebuilt nightly): search finds shoes: pass rate 10/10 → 6/10, p = 0.043, regressed at significance 0.05\n", ""},
		{"regression of another test", rateRun(10, 10), quarantine(rateRun(6, 9), "tests/weather", "the forecast is down"),
			[]string{"--fail-on-regression"}, ExitFail,
			"", "ananke diff: regression gate: search finds shoes: pass rate 10/10 → 6/10, p = 0.043, regressed at significance 0.05\n"},
		{"cost", usageRun(1, false), quarantine(usageRun(2, true), "tests/weather", "the forecast costs what it costs"),
			[]string{"--fail-on-cost-increase", "50"}, ExitPass,
			"cost gate: not failing the step: weather in Paris is quarantined (the forecast costs what it costs): weather in Paris +100% cost (base $0.01 → $0.02) exceeds 50%\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := filepath.Join(dirs, strings.ReplaceAll(tc.name, " ", "-"))
			base, head := writeReport(t, filepath.Join(d, "base"), tc.base), writeReport(t, filepath.Join(d, "head"), tc.head)
			r := run(t, "", nil, append(append([]string{"diff"}, tc.flags...), base, head)...)
			if r.code != tc.code || r.errOut != tc.err {
				t.Errorf("exit %d, stderr %q; want %d and %q\n%s", r.code, r.errOut, tc.code, tc.err, r.out)
			}
			if tc.out != "" && !strings.HasSuffix(r.out, tc.out) {
				t.Errorf("stdout does not end %q:\n%s", tc.out, r.out)
			}
			if tc.out == "" && strings.Contains(r.out, "not failing the step") {
				t.Errorf("a test spared:\n%s", r.out)
			}
		})
	}
}
