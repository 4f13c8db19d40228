package report_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// repeated is the outcome of one test whose attempts ended as runs says,
// a run per character ("PF" a run that passed, one that failed; "F+P" a
// run that failed and passed on its retry), with an assertion that failed
// in each failed attempt and one never evaluated.
func repeated(runs string) *engine.Outcome {
	t := &spec.Test{Path: "t.ananke.yaml", ID: "t"}
	p := stability.Policy{Runs: len(strings.Split(runs, " ")), MinPassRate: 50}
	r := &engine.TestResult{Test: t, Policy: p}
	var byRun [][]status.Status
	for i, run := range strings.Split(runs, " ") {
		var sts []status.Status
		for j, c := range strings.Split(run, "+") {
			st := status.Pass
			if c == "F" {
				st = status.Fail
			}
			sts = append(sts, st)
			r.Attempts = append(r.Attempts, &engine.Attempt{Run: i, Retry: j, Status: st, Trace: &trace.Trace{}, Results: []assertion.Result{
				{ID: "turn[0].tools.require[0]", Scope: "turn[0]", Status: st},
				{ID: "test.tools.require[0]", Scope: "test", Status: status.Skip},
			}})
		}
		byRun = append(byRun, sts)
	}
	r.Policy.Runs = len(byRun)
	r.Verdict = p.Judge(byRun)
	r.Status = r.Verdict.Status
	return &engine.Outcome{Tests: []*engine.TestResult{r}, Start: time.Unix(0, 0), End: time.Unix(1, 0)}
}

// TestConfidence: a test run more than once gets its pass rate's Wilson
// interval (7 of 10 at 95% is 39.7–89.2%), pass^k for k = its runs, and
// each evaluated assertion's failure rate over its attempts (retries
// included), at the config's level; a test run once gets none.
func TestConfidence(t *testing.T) {
	for _, tc := range []struct {
		name, runs string
		level      float64 // the config's confidence; 0: unset
		ci, passK  string
		failure    string // the failing assertion's failure_rate_ci
	}{
		{"7 of 10", "P P P F P F P P F P", 0,
			`{"level":95,"lo":39.7,"hi":89.2}`, `{"k":10,"value":2.8,"lo":0,"hi":32}`, `{"level":95,"lo":10.8,"hi":60.3}`},
		{"7 of 10 at 90%", "P P P F P F P P F P", 90,
			`{"level":90,"lo":44.2,"hi":87.3}`, `{"k":10,"value":2.8,"lo":0,"hi":25.7}`, `{"level":90,"lo":12.7,"hi":55.8}`},
		{"10 of 10", "P P P P P P P P P P", 95,
			`{"level":95,"lo":72.2,"hi":100}`, `{"k":10,"value":100,"lo":3.9,"hi":100}`, `{"level":95,"lo":0,"hi":27.8}`},
		{"0 of 3", "F F F", 99.9,
			`{"level":99.9,"lo":0,"hi":78.3}`, `{"k":3,"value":0,"lo":0,"hi":48}`, `{"level":99.9,"lo":21.7,"hi":100}`},
		{"a retry: 2 of 2 runs, 1 of 3 attempts failed", "F+P P", 95,
			`{"level":95,"lo":34.2,"hi":100}`, `{"k":2,"value":100,"lo":11.7,"hi":100}`, `{"level":95,"lo":6.1,"hi":79.2}`},
		{"run once", "F", 95, "null", "null", "null"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := report.Build(repeated(tc.runs), report.Meta{Config: &spec.Config{Confidence: tc.level}})
			want := tc.level
			if want == 0 {
				want = spec.DefaultConfidence
			}
			if rep.Confidence != want {
				t.Errorf("report's confidence %v; want %v", rep.Confidence, want)
			}
			rt := rep.Tests[0]
			if got := js(t, rt.PassRateCI); got != tc.ci {
				t.Errorf("pass_rate_ci %s; want %s", got, tc.ci)
			}
			if got := js(t, rt.PassK); got != tc.passK {
				t.Errorf("pass_k %s; want %s", got, tc.passK)
			}
			if got := js(t, rt.Assertions[0].FailureRateCI); got != tc.failure {
				t.Errorf("failure_rate_ci %s; want %s", got, tc.failure)
			}
			if rt.Assertions[1].FailureRateCI != nil {
				t.Errorf("an assertion never evaluated has a failure rate: %s", js(t, rt.Assertions[1].FailureRateCI))
			}
			b, _ := json.Marshal(rt)
			if has := strings.Contains(string(b), "pass_rate_ci"); has != rt.Repeated() {
				t.Errorf("pass_rate_ci in the JSON: %v; repeated %v", has, rt.Repeated())
			}
		})
	}
}

// TestIntervalText: the interval as reports print it, in whole percent
// unless rounding would turn a bound into 0% or 100% it is not.
func TestIntervalText(t *testing.T) {
	for _, tc := range []struct {
		iv   report.Interval
		want string
	}{
		{report.Interval{Level: 95, Lo: 39.7, Hi: 89.2}, "95% CI 40–89%"},
		{report.Interval{Level: 99.9, Lo: 0, Hi: 100}, "99.9% CI 0–100%"},
		{report.Interval{Level: 90, Lo: 0.3, Hi: 99.6}, "90% CI 0.3–99.6%"},
		{report.Interval{Level: 95, Lo: 72.2, Hi: 100}, "95% CI 72–100%"},
	} {
		if got := tc.iv.String(); got != tc.want {
			t.Errorf("%+v: %q; want %q", tc.iv, got, tc.want)
		}
	}
	pk := report.PassK{K: 10, Value: 2.8, Lo: 0, Hi: 32}
	if got, want := pk.String(95), "pass^10 2.8% (95% CI 0–32%)"; got != want {
		t.Errorf("pass^k %q; want %q", got, want)
	}
}

// TestMergeRecomputesConfidence: merged parts' intervals are recomputed at
// the first part's level, and a part that states none (0) leaves the
// default.
func TestMergeRecomputesConfidence(t *testing.T) {
	a := report.Build(repeated("P P P F P F P P F P"), report.Meta{Config: &spec.Config{Confidence: 90}})
	b := report.Build(repeated("P F"), report.Meta{Config: &spec.Config{}})
	b.Tests[0].ID = "u"
	b.Tests[0].PassRateCI = nil // as a report that never had one
	m, err := report.Merge([]*report.Report{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if m.Confidence != 90 {
		t.Errorf("merged confidence %v; want the first part's, 90", m.Confidence)
	}
	for _, rt := range m.Tests {
		if rt.PassRateCI == nil || rt.PassRateCI.Level != 90 || rt.Assertions[0].FailureRateCI.Level != 90 {
			t.Errorf("%s: pass_rate_ci %s, failure_rate_ci %s; want both at 90%%", rt.ID, js(t, rt.PassRateCI), js(t, rt.Assertions[0].FailureRateCI))
		}
	}
	a.Confidence, b.Confidence = 0, 0
	if m, _ := report.Merge([]*report.Report{a, b}); m.Confidence != spec.DefaultConfidence || m.Tests[0].PassRateCI.Level != spec.DefaultConfidence {
		t.Errorf("parts stating no level merged at %v; want the default", m.Confidence)
	}
}
