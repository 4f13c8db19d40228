package variants_test

import (
	"reflect"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/variants"
)

// tc is a test of the hand-built reports: id under variant, passing
// passed of runs, its mean cost per attempt (0: unknown) and its turns'
// durations.
type tc struct {
	id, variant  string
	st           status.Status
	passed, runs int
	cost         float64
	turns        []int64
	reason       string
}

func build(confidence float64, tests ...tc) *report.Report {
	r := &report.Report{Confidence: confidence}
	for _, x := range tests {
		t := report.Test{ID: report.VariantID(x.id, x.variant), Name: "the " + x.id, Variant: x.variant, File: "tests/" + x.id + ".ananke.yaml", Line: 1,
			Status: x.st, Runs: x.runs, PassedRuns: x.passed, Reason: x.reason}
		if x.cost > 0 {
			c, tok := x.cost, x.cost*1e6
			t.PerAttempt = &report.AttemptUsage{Attempts: x.runs, MeanCostUSD: &c, MeanTokens: &tok}
		}
		for i, d := range x.turns {
			t.Turns = append(t.Turns, report.Turn{Index: i, DurationMs: d})
		}
		r.Tests = append(r.Tests, t)
	}
	return r
}

func n(v int64) *int64 { return &v }

// TestCompare: the matrix's rows and cells, the significant differences
// and the pairs' verdicts over hand-built reports.
func TestCompare(t *testing.T) {
	for _, c := range []struct {
		name   string
		r      *report.Report
		names  []string
		check  func(t *testing.T, v *report.Variants)
		line   []string
		better [][]string
		worse  [][]string
	}{{
		name: "significant: 10/10 against 2/10",
		r: build(95,
			tc{id: "refund", variant: "baseline", st: status.Pass, passed: 10, runs: 10, turns: []int64{100}},
			tc{id: "refund", variant: "careful", st: status.Fail, passed: 2, runs: 10, turns: []int64{100}}),
		names: []string{"baseline", "careful"},
		check: func(t *testing.T, v *report.Variants) {
			d := v.Rows[0].Differences
			if len(d) != 1 || d[0].A != "baseline" || d[0].B != "careful" || d[0].Better != "baseline" || d[0].P > 0.001 {
				t.Errorf("differences %+v, want baseline better than careful at p < 0.001", d)
			}
			want := report.ComparisonCell{Variant: "careful", ID: "refund@careful", Status: "fail", Runs: 10, Passed: 2, PassRate: 20, Low: 5.7, High: 51, MedianTurnMs: n(100)}
			if got := v.Rows[0].Cells[1]; !reflect.DeepEqual(got, want) {
				t.Errorf("careful's cell %+v, want %+v", got, want)
			}
		},
		line:  []string{"careful passes 1 fewer test than baseline, as fast, 1 test significantly worse: refund"},
		worse: [][]string{{"refund"}}, better: [][]string{{}},
	}, {
		name: "within noise: 9/10 against 8/10",
		r: build(95,
			tc{id: "refund", variant: "a", st: status.Pass, passed: 9, runs: 10},
			tc{id: "refund", variant: "b", st: status.Pass, passed: 8, runs: 10}),
		names: []string{"a", "b"},
		check: func(t *testing.T, v *report.Variants) {
			if d := v.Rows[0].Differences; len(d) != 0 {
				t.Errorf("differences %+v, want none", d)
			}
			if c := v.Rows[0].Cells[0]; c.PassRate != 90 || c.CostUSD != nil || c.MedianTurnMs != nil {
				t.Errorf("a's cell %+v, want 90%%, no cost, no turns", c)
			}
		},
		line:  []string{"b passes as many tests as a, no test significantly worse"},
		worse: [][]string{{}}, better: [][]string{{}},
	}, {
		name: "costs and latencies, better under the second",
		r: build(95,
			tc{id: "search", variant: "baseline", st: status.Pass, passed: 5, runs: 5, cost: 0.004, turns: []int64{1000, 1400}},
			tc{id: "search", variant: "careful", st: status.Pass, passed: 5, runs: 5, cost: 0.003, turns: []int64{1100, 1500}},
			tc{id: "refund", variant: "baseline", st: status.Fail, passed: 0, runs: 10, cost: 0.006, turns: []int64{1200}},
			tc{id: "refund", variant: "careful", st: status.Pass, passed: 10, runs: 10, cost: 0.005, turns: []int64{1300}}),
		names: []string{"baseline", "careful"},
		check: func(t *testing.T, v *report.Variants) {
			if v.Rows[0].Test != "search" || v.Rows[1].Test != "refund" || v.Rows[0].File != "tests/search.ananke.yaml" {
				t.Errorf("rows %s, %s; want search, refund (the report's order)", v.Rows[0].Test, v.Rows[1].Test)
			}
			p := v.Pairs[0]
			if p.MorePassing != 1 || p.CostChangePct == nil || *p.CostChangePct != -20 || p.LatencyChangePct == nil || *p.LatencyChangePct != 8.3 {
				t.Errorf("pair %+v: want 1 more passing, cost -20%%, latency +8.3%%", p)
			}
			s := v.Variants[0]
			if s.Totals.Total != 2 || s.Totals.Passed != 1 || s.MedianTurnMs == nil || *s.MedianTurnMs != 1200 || s.Error != "" {
				t.Errorf("baseline's summary %+v, want 2 tests, 1 passed, median turn 1200 ms, no error", s)
			}
			if c := v.Rows[1].Cells[1]; c.CostUSD == nil || *c.CostUSD != 0.005 || c.Tokens == nil || *c.Tokens != 5000 {
				t.Errorf("careful's refund cell %+v, want $0.005 and 5000 tokens", c)
			}
		},
		line:  []string{"careful passes 1 more test than baseline, costs 20% less, 8% slower, 1 test significantly better: refund, no test significantly worse"},
		worse: [][]string{{}}, better: [][]string{{"refund"}},
	}, {
		name: "a variant whose agent did not start",
		r: build(95,
			tc{id: "search", variant: "baseline", st: status.Pass, passed: 3, runs: 3},
			tc{id: "search", variant: "broken", st: status.Error, reason: "agent did not start: exit status 1"},
			tc{id: "refund", variant: "baseline", st: status.Pass, passed: 3, runs: 3},
			tc{id: "refund", variant: "broken", st: status.Error, reason: "agent did not start: exit status 1"}),
		names: []string{"baseline", "broken"},
		check: func(t *testing.T, v *report.Variants) {
			if e := v.Variants[1].Error; e != "agent did not start: exit status 1" {
				t.Errorf("broken's error %q", e)
			}
			if e := v.Variants[0].Error; e != "" {
				t.Errorf("baseline's error %q, want none", e)
			}
			if c := v.Rows[0].Cells[1]; c.Runs != 0 || c.Low != 0 || c.High != 100 || c.Status != "error" {
				t.Errorf("broken's cell %+v, want error, no runs, 0–100%%", c)
			}
		},
		line:  []string{"broken could not run: agent did not start: exit status 1"},
		worse: [][]string{{}}, better: [][]string{{}},
	}, {
		name: "three variants, a test one did not run, other tests ignored",
		r: build(95,
			tc{id: "search", variant: "a", st: status.Pass, passed: 10, runs: 10},
			tc{id: "search", variant: "b", st: status.Fail, passed: 1, runs: 10},
			tc{id: "search", variant: "c", st: status.Pass, passed: 10, runs: 10},
			tc{id: "search", variant: "d", st: status.Pass, passed: 10, runs: 10},
			tc{id: "refund", variant: "a", st: status.Pass, passed: 10, runs: 10},
			tc{id: "refund", variant: "c", st: status.Error, passed: 0, runs: 10, reason: "hook failed"}),
		names: []string{"a", "b", "c"},
		check: func(t *testing.T, v *report.Variants) {
			if len(v.Rows) != 2 || len(v.Rows[1].Cells) != 3 || v.Rows[1].Cells[1].ID != "" || v.Rows[1].Cells[1].High != 100 {
				t.Errorf("rows %+v, want refund with no cell for b", v.Rows)
			}
			if d := v.Rows[1].Differences; len(d) != 0 {
				t.Errorf("refund's differences %+v, want none: c errored it", d)
			}
			if d := v.Rows[0].Differences; len(d) != 2 || d[0].B != "b" || d[1].A != "b" || d[1].Better != "c" {
				t.Errorf("differences %+v, want a–b and b–c", d)
			}
			if v.Significance != 0.05 {
				t.Errorf("significance %v, want the default 0.05", v.Significance)
			}
		},
		line: []string{
			"b passes 1 fewer test than a, 1 test significantly worse: search",
			"c passes 1 fewer test than a, no test significantly worse",
			"c passes 1 more test than b, 1 test significantly better: search, no test significantly worse",
		},
		worse: [][]string{{"search"}, {}, {}}, better: [][]string{{}, {}, {"search"}},
	}} {
		t.Run(c.name, func(t *testing.T) {
			sig := 0.05
			if len(c.names) == 3 {
				sig = 0
			}
			v := variants.Compare(c.r, c.names, sig)
			if len(v.Pairs) != len(c.line) {
				t.Fatalf("%d pairs, want %d", len(v.Pairs), len(c.line))
			}
			for i, p := range v.Pairs {
				if p.Line != c.line[i] {
					t.Errorf("pair %d: line\n%q, want\n%q", i, p.Line, c.line[i])
				}
				if !reflect.DeepEqual(p.Better, c.better[i]) || !reflect.DeepEqual(p.Worse, c.worse[i]) {
					t.Errorf("pair %d: better %q worse %q, want %q %q", i, p.Better, p.Worse, c.better[i], c.worse[i])
				}
			}
			c.check(t, v)
		})
	}
}

// TestCompareKeepsOverrides: recomputing a comparison (a merged report's)
// keeps what each variant overrides; no names, no comparison.
func TestCompareKeepsOverrides(t *testing.T) {
	r := build(95, tc{id: "x", variant: "a", st: status.Pass, passed: 1, runs: 1})
	r.Variants = &report.Variants{Variants: []report.VariantSummary{{Name: "a", Overrides: "server.env.MODEL_BEHAVIOUR"}}}
	if v := variants.Compare(r, []string{"a"}, 0.05); v.Variants[0].Overrides != "server.env.MODEL_BEHAVIOUR" || len(v.Pairs) != 0 {
		t.Errorf("variants %+v, want a's overrides kept and no pair", v.Variants)
	}
	if v := variants.Compare(r, nil, 0.05); v != nil {
		t.Errorf("Compare without names = %+v, want nil", v)
	}
}
