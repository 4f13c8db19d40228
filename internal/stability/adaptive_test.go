package stability

import (
	"slices"
	"testing"

	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
)

// TestResolveAdaptive: runs, fixed or adaptive, is one setting taken from
// the narrowest level that sets it; the rule's values are resolved one by
// one, with the defaults under them, and only for adaptive runs.
func TestResolveAdaptive(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	defaults := Rule{Zone: DefaultZone, Alpha: DefaultAlpha, Beta: DefaultBeta}
	for _, tc := range []struct {
		name   string
		levels []spec.Stability
		want   Policy
	}{
		{"config adaptive", []spec.Stability{{}, {}, {Adaptive: &spec.RunRange{Min: 3, Max: 30}}},
			Policy{Runs: 30, MinRuns: 3, MinPassRate: 100, Rule: defaults}},
		{"cli fixed over config adaptive", []spec.Stability{{}, {Runs: 4}, {Adaptive: &spec.RunRange{Min: 3, Max: 30}, Rule: spec.StoppingRule{Zone: f(2)}}},
			Policy{Runs: 4, MinPassRate: 100}},
		{"test adaptive over cli fixed", []spec.Stability{{Adaptive: &spec.RunRange{Min: 2, Max: 3}}, {Runs: 4}, {}},
			Policy{Runs: 3, MinRuns: 2, MinPassRate: 100, Rule: defaults}},
		{"rule per value", []spec.Stability{{Adaptive: &spec.RunRange{Min: 1, Max: 9}, Rule: spec.StoppingRule{Alpha: f(0.01)}}, {}, {Rule: spec.StoppingRule{Zone: f(10), Alpha: f(0.2)}}},
			Policy{Runs: 9, MinRuns: 1, MinPassRate: 100, Rule: Rule{Zone: 10, Alpha: 0.01, Beta: DefaultBeta}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Resolve(tc.levels...); got != tc.want {
				t.Errorf("Resolve = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestSettled: at 80% with the defaults a run of passes settles at 24,
// not before; not before the minimum either; fixed runs never settle.
func TestSettled(t *testing.T) {
	p := Policy{Runs: 30, MinRuns: 3, MinPassRate: 80, Rule: Rule{Zone: DefaultZone, Alpha: DefaultAlpha, Beta: DefaultBeta}}
	need := p.Sequential().SPRT().PassesToAccept()
	if p.Settled(need-1, 0) || !p.Settled(need, 0) {
		t.Errorf("settled after %d passes: %v; after %d: %v", need-1, p.Settled(need-1, 0), need, p.Settled(need, 0))
	}
	if !p.Settled(0, 6) {
		t.Error("6 failures at 80% do not settle")
	}
	late := p
	late.MinRuns = need + 1
	if late.Settled(need, 0) || !late.Settled(need+1, 0) {
		t.Errorf("min runs %d: settled before it", late.MinRuns)
	}
	if (Policy{Runs: 30, MinPassRate: 80}).Settled(30, 0) {
		t.Error("fixed runs settled")
	}
	if got := p.RunsText(); got != "3–30 runs (adaptive)" {
		t.Errorf("RunsText = %q", got)
	}
	if got := (Policy{Runs: 5}).RunsText(); got != "5 runs" {
		t.Errorf("RunsText = %q", got)
	}
}

// TestJudgeAdaptive: a settled verdict is the sequential test's, an
// unsettled one at the maximum the observed rate's, marked inconclusive;
// every run erroring stays an error; runs cut short say so.
func TestJudgeAdaptive(t *testing.T) {
	P, F, E := status.Pass, status.Fail, status.Error
	runs := func(ss ...status.Status) [][]status.Status {
		var out [][]status.Status
		for _, s := range ss {
			out = append(out, []status.Status{s})
		}
		return out
	}
	rule := Rule{Zone: DefaultZone, Alpha: DefaultAlpha, Beta: DefaultBeta}
	for _, tc := range []struct {
		name         string
		minRuns, max int
		rate         float64
		runs         [][]status.Status
		want         Verdict
	}{
		{"settled pass", 3, 30, 80, runs(slices.Repeat([]status.Status{P}, 24)...),
			Verdict{Status: P, Runs: 24, PassedRuns: 24, PassRate: 100, Stop: StopSettledPass}},
		{"settled fail", 3, 30, 80, runs(F, F, P, F, F, F, F, F),
			Verdict{Status: F, Runs: 8, PassedRuns: 1, PassRate: 12.5, Flaky: true, Stop: StopSettledFail,
				Reason: "1 of 8 runs passed (12.5%), below min_pass_rate 80%"}},
		{"inconclusive pass", 2, 3, 95, runs(P, P, P),
			Verdict{Status: P, Runs: 3, PassedRuns: 3, PassRate: 100, Stop: StopMaxRuns, Inconclusive: true}},
		{"inconclusive fail", 1, 3, 80, runs(P, F, P),
			Verdict{Status: F, Runs: 3, PassedRuns: 2, PassRate: 66.7, Flaky: true, Stop: StopMaxRuns, Inconclusive: true,
				Reason: "2 of 3 runs passed (66.7%), below min_pass_rate 80%; inconclusive: not settled within the maximum of 3 runs"}},
		{"every run errored", 3, 30, 80, runs(E, E, E, E, E, E),
			Verdict{Status: E, Runs: 6, Stop: StopSettledFail, Reason: "all 6 runs errored"}},
		{"retries count by their last attempt", 3, 30, 80, append(runs(slices.Repeat([]status.Status{P}, 23)...), []status.Status{F, P}),
			Verdict{Status: P, Runs: 24, PassedRuns: 24, PassRate: 100, Flaky: true, Stop: StopSettledPass}},
		{"min equals max", 3, 3, 80, runs(P, F, P),
			Verdict{Status: F, Runs: 3, PassedRuns: 2, PassRate: 66.7, Flaky: true, Stop: StopFixed,
				Reason: "2 of 3 runs passed (66.7%), below min_pass_rate 80%"}},
		{"cut short", 3, 30, 80, runs(P, P),
			Verdict{Status: P, Runs: 2, PassedRuns: 2, PassRate: 100, Stop: StopCancelled}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Policy{Runs: tc.max, MinRuns: tc.minRuns, MinPassRate: tc.rate, Rule: rule}
			if got := p.Judge(tc.runs); got != tc.want {
				t.Errorf("Judge =\n  %+v\nwant\n  %+v", got, tc.want)
			}
		})
	}
}
