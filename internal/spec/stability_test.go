package spec

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
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

// TestAdaptiveRunsFields: runs: {min, max} and adaptive: load in the
// config, a test file and a dataset case; fail_on_inconclusive in the
// config.
func TestAdaptiveRunsFields(t *testing.T) {
	cfg := mustConfig(t, minimalConfig+"runs: {min: 3, max: 30}\nadaptive: {zone: 2.5, alpha: 0.01, beta: 0.1}\nfail_on_inconclusive: true\n")
	s := cfg.Stability
	if s.Runs != 0 || s.Adaptive == nil || *s.Adaptive != (RunRange{3, 30}) || !s.RunsSet() || !cfg.FailOnInconclusive {
		t.Errorf("config stability = %+v, fail_on_inconclusive %v", s, cfg.FailOnInconclusive)
	}
	if r := s.Rule; r.Zone == nil || *r.Zone != 2.5 || r.Alpha == nil || *r.Alpha != 0.01 || r.Beta == nil || *r.Beta != 0.1 {
		t.Errorf("config adaptive = %+v", r)
	}
	tt := mustTest(t, "version: \"1.0\"\nname: x\nruns:\n  min: 2\n  max: 2\nadaptive: {zone: 10}\nturns: [{user: hi}]\n")
	if s := tt.Stability; s.Adaptive == nil || *s.Adaptive != (RunRange{2, 2}) || s.Rule.Zone == nil || *s.Rule.Zone != 10 || s.Rule.Alpha != nil || s.Rule.Beta != nil {
		t.Errorf("test stability = %+v", s)
	}
	if s := mustTest(t, "version: \"1.0\"\nname: x\nruns: 4\nturns: [{user: hi}]\n").Stability; s.Runs != 4 || s.Adaptive != nil {
		t.Errorf("fixed runs = %+v", s)
	}
	suite, err := loadDataset(t, map[string]string{"d.ananke.jsonl": `{"id": "a", "input": "hi", "runs": {"min": 1, "max": 5}}` + "\n"})
	if err != nil {
		t.Fatal(err)
	}
	if s := suite.Tests[0].Stability; s.Adaptive == nil || *s.Adaptive != (RunRange{1, 5}) {
		t.Errorf("dataset stability = %+v", s)
	}
}

// TestAdaptiveRunsErrors: every bound of runs: {min, max} and adaptive: is
// reported at its place.
func TestAdaptiveRunsErrors(t *testing.T) {
	for _, tc := range []struct{ field, want string }{
		{"runs: {min: 0, max: 3}", "t.ananke.yaml:3:13: runs.min must be between 1 and 1000, got 0"},
		{"runs: {min: 5, max: 3}", "t.ananke.yaml:3:21: runs.max must be at least runs.min (5), got 3"},
		{"runs: {min: 3, max: 1001}", "t.ananke.yaml:3:21: runs.max must be between 1 and 1000, got 1001"},
		{"runs: {min: 3}", "t.ananke.yaml:3:7: runs is missing required field \"max\""},
		{"runs: {max: 3}", "runs is missing required field \"min\""},
		{"runs: {min: 1, max: 3, step: 2}", `unknown field "step" in runs`},
		{"runs: {min: 1.5, max: 3}", "runs.min must be a whole number, not a number"},
		{"runs: [3, 30]", "runs must be a whole number, not a list"},
		{"adaptive: {zone: 0}", "t.ananke.yaml:3:18: adaptive.zone must be above 0 and below 50 (percentage points), got 0"},
		{"adaptive: {zone: 50}", "adaptive.zone must be above 0 and below 50 (percentage points), got 50"},
		{"adaptive: {alpha: 0.5}", "adaptive.alpha must be above 0 and below 0.5, got 0.5"},
		{"adaptive: {beta: -0.1}", "adaptive.beta must be above 0 and below 0.5, got -0.1"},
		{"adaptive: {beta: often}", "adaptive.beta must be a number, not a string"},
		{"adaptive: {gamma: 1}", `unknown field "gamma" in adaptive`},
		{"adaptive: 5", "adaptive must be a mapping, not a number"},
	} {
		t.Run(tc.field, func(t *testing.T) {
			_, diags := parseTest(t, "version: \"1.0\"\nname: x\n"+tc.field+"\nturns: [{user: hi}]\n")
			if !hasDiag(diags, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant one containing %q", diags.Error(), tc.want)
			}
		})
	}
	_, diags := parseConfig(t, minimalConfig+"fail_on_inconclusive: 1\n")
	if !strings.Contains(diags.Error(), "fail_on_inconclusive must be true or false") {
		t.Errorf("config diagnostics:\n%s", diags.Error())
	}
}

// TestSchemaAdaptiveRuns: the published schemas accept what the loader
// accepts of runs, adaptive and fail_on_inconclusive, and reject what it
// rejects (but max below min, which only the loader sees).
func TestSchemaAdaptiveRuns(t *testing.T) {
	schemas := map[string]*jsonschema.Schema{"config": compileSchema(t, "config"), "test": compileSchema(t, "test")}
	const test = "version: \"1.0\"\nname: n\nturns: [{user: hi}]\n"
	for _, tc := range []struct {
		name, kind, src string
		ok              bool
	}{
		{"fixed", "test", test + "runs: 5\n", true},
		{"range", "test", test + "runs: {min: 3, max: 30}\n", true},
		{"range without max", "test", test + "runs: {min: 3}\n", false},
		{"range over the limit", "test", test + "runs: {min: 3, max: 1001}\n", false},
		{"range with more", "test", test + "runs: {min: 3, max: 30, by: 2}\n", false},
		{"rule", "test", test + "adaptive: {zone: 5, alpha: 0.05, beta: 0.05}\n", true},
		{"rule zone 0", "test", test + "adaptive: {zone: 0}\n", false},
		{"rule alpha 0.5", "test", test + "adaptive: {alpha: 0.5}\n", false},
		{"config", "config", "version: \"1.0\"\nruns: {min: 2, max: 3}\nadaptive: {beta: 0.1}\nfail_on_inconclusive: true\n", true},
		{"config inconclusive text", "config", "version: \"1.0\"\nfail_on_inconclusive: yes please\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v any
			if err := yaml.Unmarshal([]byte(tc.src), &v); err != nil {
				t.Fatal(err)
			}
			js, _ := json.Marshal(v)
			doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(js))
			if err := schemas[tc.kind].Validate(doc); (err == nil) != tc.ok {
				t.Errorf("Validate = %v; want ok %v", err, tc.ok)
			}
		})
	}
}
