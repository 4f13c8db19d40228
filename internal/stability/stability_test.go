package stability

import (
	"testing"

	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
)

func TestResolve(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	i := func(v int) *int { return &v }
	for _, tc := range []struct {
		name   string
		levels []spec.Stability
		want   Policy
	}{
		{"defaults", nil, Policy{Runs: 1, MinPassRate: 100}},
		{"config only", []spec.Stability{{}, {}, {Runs: 5, MinPassRate: f(80), Retries: i(1)}}, Policy{Runs: 5, MinPassRate: 80, Retries: 1}},
		{"cli over config", []spec.Stability{{}, {Runs: 3}, {Runs: 5, MinPassRate: f(80)}}, Policy{Runs: 3, MinPassRate: 80}},
		{"test over all", []spec.Stability{{Runs: 2, Retries: i(0)}, {Runs: 3, Retries: i(4)}, {Runs: 5}}, Policy{Runs: 2, MinPassRate: 100}},
		{"zero rate is set", []spec.Stability{{MinPassRate: f(0)}, {MinPassRate: f(90)}}, Policy{Runs: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Resolve(tc.levels...); got != tc.want {
				t.Errorf("Resolve = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestRetry(t *testing.T) {
	p := Policy{Runs: 1, MinPassRate: 100, Retries: 2}
	for _, tc := range []struct {
		attempts []status.Status
		want     bool
	}{
		{nil, false},
		{[]status.Status{status.Pass}, false},
		{[]status.Status{status.Fail}, true},
		{[]status.Status{status.Error}, true},
		{[]status.Status{status.Fail, status.Fail}, true},
		{[]status.Status{status.Fail, status.Pass}, false},
		{[]status.Status{status.Fail, status.Error, status.Fail}, false}, // two retries used
	} {
		if got := p.Retry(tc.attempts); got != tc.want {
			t.Errorf("Retry(%v) = %v, want %v", tc.attempts, got, tc.want)
		}
	}
	if (Policy{Runs: 1}).Retry([]status.Status{status.Fail}) {
		t.Error("Retry without retries = true")
	}
}

func TestJudge(t *testing.T) {
	P, F, E := status.Pass, status.Fail, status.Error
	for _, tc := range []struct {
		name string
		min  float64
		runs [][]status.Status
		want Verdict
	}{
		{"one pass", 100, [][]status.Status{{P}}, Verdict{Status: P, Runs: 1, PassedRuns: 1, PassRate: 100}},
		{"one fail", 100, [][]status.Status{{F}}, Verdict{Status: F, Runs: 1}},
		{"one error", 100, [][]status.Status{{E}}, Verdict{Status: E, Runs: 1}},
		{"alternating, 100%", 100, [][]status.Status{{P}, {F}, {P}, {F}}, Verdict{Status: F, Runs: 4, PassedRuns: 2, PassRate: 50, Flaky: true,
			Reason: "2 of 4 runs passed (50%), below min_pass_rate 100%"}},
		{"alternating, 50%", 50, [][]status.Status{{P}, {F}, {P}, {F}}, Verdict{Status: P, Runs: 4, PassedRuns: 2, PassRate: 50, Flaky: true}},
		{"exact comparison", 66.7, [][]status.Status{{P}, {P}, {F}}, Verdict{Status: F, Runs: 3, PassedRuns: 2, PassRate: 66.7, Flaky: true,
			Reason: "2 of 3 runs passed (66.7%), below min_pass_rate 66.7%"}},
		{"two thirds", 66, [][]status.Status{{P}, {P}, {F}}, Verdict{Status: P, Runs: 3, PassedRuns: 2, PassRate: 66.7, Flaky: true}},
		{"pass on retry", 100, [][]status.Status{{F, P}}, Verdict{Status: P, Runs: 1, PassedRuns: 1, PassRate: 100, Flaky: true}},
		{"retries exhausted", 100, [][]status.Status{{F, F, F}}, Verdict{Status: F, Runs: 1}},
		{"error then pass", 100, [][]status.Status{{E, P}}, Verdict{Status: P, Runs: 1, PassedRuns: 1, PassRate: 100, Flaky: true}},
		{"every run errored", 100, [][]status.Status{{E}, {E, E}}, Verdict{Status: E, Runs: 2, Reason: "all 2 runs errored"}},
		{"errors and a fail", 50, [][]status.Status{{E}, {F}}, Verdict{Status: F, Runs: 2, Reason: "0 of 2 runs passed (0%), below min_pass_rate 50%"}},
		{"errors count as not passed", 100, [][]status.Status{{P}, {E}}, Verdict{Status: F, Runs: 2, PassedRuns: 1, PassRate: 50, Flaky: true,
			Reason: "1 of 2 runs passed (50%), below min_pass_rate 100%"}},
		{"zero minimum", 0, [][]status.Status{{F}}, Verdict{Status: P, Runs: 1}},
		{"no runs", 100, nil, Verdict{Status: E, Reason: "no run finished"}},
		{"one fail, lower minimum", 50, [][]status.Status{{F}}, Verdict{Status: F, Runs: 1, Reason: "0 of 1 run passed (0%), below min_pass_rate 50%"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Policy{Runs: len(tc.runs), MinPassRate: tc.min}.Judge(tc.runs)
			if got != tc.want {
				t.Errorf("Judge(%v) =\n  %+v\nwant\n  %+v", tc.runs, got, tc.want)
			}
		})
	}
}

func TestPercent(t *testing.T) {
	for _, tc := range []struct {
		n, of int
		want  float64
		text  string
	}{{1, 3, 33.3, "33.3%"}, {2, 3, 66.7, "66.7%"}, {1, 2, 50, "50%"}, {0, 0, 0, "0%"}, {5, 5, 100, "100%"}, {1, 8, 12.5, "12.5%"}} {
		if got := Percent(tc.n, tc.of); got != tc.want || FormatPercent(got) != tc.text {
			t.Errorf("Percent(%d, %d) = %v (%s), want %v (%s)", tc.n, tc.of, got, FormatPercent(got), tc.want, tc.text)
		}
	}
}
