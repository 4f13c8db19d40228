package spec

import (
	"strings"
	"testing"
)

func TestStabilityFields(t *testing.T) {
	cfg := mustConfig(t, minimalConfig+"runs: 5\nmin_pass_rate: 80\nretries: 2\nfail_on_flaky: true\n")
	s := cfg.Stability
	if s.Runs != 5 || s.MinPassRate == nil || *s.MinPassRate != 80 || s.Retries == nil || *s.Retries != 2 || !cfg.FailOnFlaky {
		t.Errorf("config stability = %+v, fail_on_flaky %v", s, cfg.FailOnFlaky)
	}
	tt := mustTest(t, "version: \"1.0\"\nname: x\nruns: 3\nmin_pass_rate: 66.7\nretries: 0\nturns: [{user: hi}]\n")
	s = tt.Stability
	if s.Runs != 3 || *s.MinPassRate != 66.7 || *s.Retries != 0 || s.MinPassRatePos.Line != 4 {
		t.Errorf("test stability = %+v", s)
	}
	unset := mustTest(t, "version: \"1.0\"\nname: x\nturns: [{user: hi}]\n").Stability
	if unset.Runs != 0 || unset.MinPassRate != nil || unset.Retries != nil {
		t.Errorf("unset stability = %+v", unset)
	}
}

func TestStabilityErrors(t *testing.T) {
	for _, tc := range []struct{ field, want string }{
		{"runs: 0", "t.ananke.yaml:3:7: runs must be between 1 and 1000, got 0"},
		{"runs: 1001", "runs must be between 1 and 1000, got 1001"},
		{"runs: many", "runs must be a whole number, not a string"},
		{"runs: 2.5", "runs must be a whole number, not a number"},
		{"min_pass_rate: 101", "t.ananke.yaml:3:16: min_pass_rate must be a percentage from 0 to 100, got 101"},
		{"min_pass_rate: -1", "min_pass_rate must be a percentage from 0 to 100, got -1"},
		{"min_pass_rate: .nan", "min_pass_rate must be a percentage from 0 to 100, got .nan"},
		{"min_pass_rate: \"80%\"", "min_pass_rate must be a percentage from 0 to 100, not a string"},
		{"retries: -1", "retries must be between 0 and 100, got -1"},
		{"retries: [1]", "retries must be a whole number, not a list"},
		{"min_passrate: 2", `unknown field "min_passrate" in test (did you mean "min_pass_rate"?)`},
	} {
		t.Run(tc.field, func(t *testing.T) {
			_, diags := parseTest(t, "version: \"1.0\"\nname: x\n"+tc.field+"\nturns: [{user: hi}]\n")
			if !hasDiag(diags, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant one containing %q", diags.Error(), tc.want)
			}
		})
	}
	_, diags := parseConfig(t, minimalConfig+"fail_on_flaky: yes please\n")
	if !strings.Contains(diags.Error(), "fail_on_flaky must be true or false") {
		t.Errorf("config diagnostics:\n%s", diags.Error())
	}
}
