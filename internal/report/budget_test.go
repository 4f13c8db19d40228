package report_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/model"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// spend is tokens of gpt-4o-mini, priced at usd when usd >= 0.
func spend(in, out int64, usd float64) *cost.Spend {
	u := cost.Usage{Provider: "openai", Model: "gpt-4o-mini"}
	u.Tokens.Set(cost.Input, in)
	u.Tokens.Set(cost.Output, out)
	if usd >= 0 {
		u.CostUSD, u.CostFrom = &usd, cost.FromPrice
	}
	s := &cost.Spend{}
	s.Add(u)
	return s
}

// usageTest is a passing test of one attempt whose turns reported the
// spends given (nil: none), its judges having used judged tokens.
func usageTest(id string, judged int64, turns ...*cost.Spend) *engine.TestResult {
	tr := &trace.Trace{Turns: []trace.Turn{}}
	for i, s := range turns {
		tr.Turns = append(tr.Turns, trace.Turn{Index: i, Usage: s, ToolCalls: []trace.ToolCall{}, Runs: []trace.Run{}})
	}
	at := time.Unix(100, 0)
	a := &engine.Attempt{Status: status.Pass, Trace: tr, Start: at, End: at,
		Usage: model.Usage{Requests: 1, PromptTokens: judged, CompletionTokens: judged / 10}}
	return &engine.TestResult{Test: &spec.Test{ID: id, Name: vars.Name{Value: id}, Path: id + ".ananke.yaml"}, Status: status.Pass,
		Attempts: []*engine.Attempt{a}, Start: at, End: at}
}

func budgetConfig(usd float64, tokens int64) *spec.Config {
	c := &spec.Config{Path: "ananke.config.yaml", Model: &spec.Model{}}
	c.Model.Name.Value = "gpt-4o-mini"
	c.Budget = &spec.RunBudget{}
	if usd > 0 {
		c.Budget.MaxCostUSD, c.Budget.MaxCostPos = &usd, diag.Pos{File: "ananke.config.yaml", Line: 9, Col: 17}
	}
	if tokens > 0 {
		c.Budget.MaxTotalTokens, c.Budget.MaxTokensPos = &tokens, diag.Pos{File: "ananke.config.yaml", Line: 10, Col: 21}
	}
	return c
}

func build(cfg *spec.Config, tests ...*engine.TestResult) *report.Report {
	at := time.Unix(100, 0)
	return report.Build(&engine.Outcome{Tests: tests, Start: at, End: at}, report.Meta{Config: cfg, Parallel: 1, Prices: cost.NewTable(cfg.Pricing)})
}

func TestRunBudget(t *testing.T) {
	skipped := &engine.TestResult{Test: &spec.Test{ID: "skipped", Path: "s.ananke.yaml"}, Status: status.Skipped}
	for _, tc := range []struct {
		name   string
		usd    float64
		tokens int64
		tests  []*engine.TestResult
		status status.Status // the run's
		budget status.Status
		lines  []string
	}{
		{"within", 1, 2_000_000, []*engine.TestResult{usageTest("a", 0, spend(900_000, 100_000, 0.2)), usageTest("b", 0, spend(800_000, 100_000, 0.3)), skipped}, status.Pass, status.Pass, []string{
			"run budget kept: $0.50 ≤ max_cost_usd $1.00 (ananke.config.yaml:9:17)",
			"run budget kept: 1.9M total tokens ≤ max_total_tokens 2M (ananke.config.yaml:10:21)",
		}},
		{"tokens over", 0, 1_500_000, []*engine.TestResult{usageTest("a", 0, spend(900_000, 100_000, 0.2)), usageTest("b", 0, spend(1_000_000, 100_000, 0.3))}, status.Fail, status.Fail, []string{
			"run budget exceeded: 2.1M total tokens > max_total_tokens 1.5M (ananke.config.yaml:10:21)",
		}},
		{"cost over", 0.4, 0, []*engine.TestResult{usageTest("a", 0, spend(1, 1, 0.2)), usageTest("b", 0, spend(1, 1, 0.3))}, status.Fail, status.Fail, []string{
			"run budget exceeded: $0.50 > max_cost_usd $0.40 (ananke.config.yaml:9:17)",
		}},
		{"no usage: not checked", 1, 10, []*engine.TestResult{usageTest("a", 0, nil)}, status.Pass, status.Skip, []string{
			"run budget not checked: no test's agent reported usage — max_cost_usd $1.00 (ananke.config.yaml:9:17)",
			"run budget not checked: no test's agent reported usage — max_total_tokens 10 (ananke.config.yaml:10:21)",
		}},
		{"partly unknown and under: not checked", 0, 5000, []*engine.TestResult{usageTest("a", 0, spend(1000, 100, 0.2)), usageTest("b", 0, nil), usageTest("c", 0, spend(1, 1, 0), nil)}, status.Pass, status.Skip, []string{
			"run budget not checked: 2 tests reported no usage or not all of it (b, c); 1.1k total tokens known so far — max_total_tokens 5k (ananke.config.yaml:10:21)",
		}},
		{"partly unknown and over: fails", 0, 1000, []*engine.TestResult{usageTest("a", 0, spend(1000, 100, 0.2)), usageTest("b", 0, nil)}, status.Fail, status.Fail, []string{
			"run budget exceeded: at least 1.1k total tokens > max_total_tokens 1k (ananke.config.yaml:10:21); 1 test reported no usage or not all of it (b)",
		}},
		{"no price: not checked", 5, 0, []*engine.TestResult{usageTest("a", 0, spend(1000, 100, -1))}, status.Pass, status.Skip, []string{
			"run budget not checked: model openai/gpt-4o-mini has no price (add it under pricing: in the config) — max_cost_usd $5.00 (ananke.config.yaml:9:17)",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := build(budgetConfig(tc.usd, tc.tokens), tc.tests...)
			if r.Status != tc.status || r.Budget == nil || r.Budget.Status != tc.budget || r.Budget.Exceeded != (tc.budget == status.Fail) {
				t.Fatalf("run %s, budget %+v; want %s, %s", r.Status, r.Budget, tc.status, tc.budget)
			}
			var got []string
			for _, l := range r.Budget.Limits {
				got = append(got, l.Message)
			}
			if strings.Join(got, "\n") != strings.Join(tc.lines, "\n") {
				t.Errorf("lines:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.lines, "\n"))
			}
			// Merged, the run is checked again, to the same verdict.
			m, err := report.Merge([]*report.Report{r})
			if err != nil {
				t.Fatal(err)
			}
			if m.Status != r.Status || m.Budget.Status != r.Budget.Status || m.Budget.Limits[0].Message != r.Budget.Limits[0].Message {
				t.Errorf("merged: %s, %+v", m.Status, m.Budget)
			}
		})
	}
	if r := build(&spec.Config{Path: "ananke.config.yaml"}, usageTest("a", 0, spend(1, 1, 1))); r.Budget != nil {
		t.Errorf("a config without budget: has no run budget: %+v", r.Budget)
	}
}

// TestRunBudgetMergedShards: shards each within the budget are over it
// together.
func TestRunBudgetMergedShards(t *testing.T) {
	cfg := budgetConfig(0, 1500)
	a := build(cfg, usageTest("a", 0, spend(900, 100, 0)))
	a.Shard = &report.Shard{Index: 1, Total: 2}
	b := build(cfg, usageTest("b", 0, spend(900, 100, 0)))
	b.Shard = &report.Shard{Index: 2, Total: 2}
	if a.Status != status.Pass || b.Status != status.Pass {
		t.Fatalf("shards: %s, %s", a.Status, b.Status)
	}
	m, err := report.Merge([]*report.Report{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if m.Status != status.Fail || m.Budget.Limits[0].Message != "run budget exceeded: 2k total tokens > max_total_tokens 1.5k (ananke.config.yaml:10:21)" {
		t.Errorf("merged: %s %+v", m.Status, m.Budget)
	}
}

// TestModelCost: the judges' and simulated users' tokens are priced by
// the config's model, apart from the agent's; unknown without a price.
func TestModelCost(t *testing.T) {
	cfg := budgetConfig(0, 0)
	cfg.Budget = nil
	r := build(cfg, usageTest("a", 1_000_000, spend(1, 1, 0)), usageTest("b", 0, spend(1, 1, 0)))
	// gpt-4o-mini: 1M prompt tokens at $0.15, 100k completion at $0.60.
	if c := r.Tests[0].ModelCostUSD; c == nil || *c < 0.2099 || *c > 0.2101 {
		t.Errorf("test a's model cost %v", c)
	}
	if r.Tests[1].ModelCostUSD != nil {
		t.Errorf("test b used no model tokens, cost %v", *r.Tests[1].ModelCostUSD)
	}
	if c := r.Totals.ModelCostUSD; c == nil || *c < 0.2099 || *c > 0.2101 {
		t.Errorf("totals model cost %v", c)
	}
	if c, _ := r.Totals.Usage.CostUSD(); c != 0 {
		t.Errorf("the agent's cost took the model's: %v", c)
	}
	cfg.Model.Name.Value = "my-judge"
	r = build(cfg, usageTest("a", 1000, nil))
	if r.Tests[0].ModelCostUSD != nil || r.Totals.ModelCostUSD != nil {
		t.Error("a model without a price has a cost")
	}
	js, _ := json.Marshal(r.Totals)
	if strings.Contains(string(js), "model_cost_usd") {
		t.Errorf("an unknown model cost is written: %s", js)
	}
}

// TestPerAttempt: a test run several times shows its mean and maximum
// tokens and cost per attempt; a figure some attempt does not know is
// absent, never a zero.
func TestPerAttempt(t *testing.T) {
	runs := func(spends ...*cost.Spend) *engine.TestResult {
		r := usageTest("r", 0)
		a := r.Attempts[0]
		r.Attempts = nil
		for i, s := range spends {
			c := *a
			c.Run = i
			c.Trace = &trace.Trace{Turns: []trace.Turn{{Usage: s, ToolCalls: []trace.ToolCall{}, Runs: []trace.Run{}}}}
			r.Attempts = append(r.Attempts, &c)
		}
		return r
	}
	f := func(p *float64) string {
		if p == nil {
			return "unknown"
		}
		return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.4f", *p), "0"), ".")
	}
	i := func(p *int64) string {
		if p == nil {
			return "unknown"
		}
		return fmt.Sprint(*p)
	}
	for _, tc := range []struct {
		name   string
		spends []*cost.Spend
		want   string
	}{
		{"all known", []*cost.Spend{spend(900, 100, 0.1), spend(2700, 300, 0.3), spend(1800, 200, 0.2)}, "3 attempts: mean 2000 max 3000 tokens, mean 0.2 max 0.3 USD"},
		{"one unreported", []*cost.Spend{spend(900, 100, 0.1), nil}, "2 attempts: mean unknown max unknown tokens, mean unknown max unknown USD"},
		{"one unpriced", []*cost.Spend{spend(900, 100, 0.1), spend(900, 100, -1)}, "2 attempts: mean 1000 max 1000 tokens, mean unknown max unknown USD"},
	} {
		r := build(&spec.Config{Path: "ananke.config.yaml"}, runs(tc.spends...))
		u := r.Tests[0].PerAttempt
		if u == nil {
			t.Fatalf("%s: no per-attempt usage", tc.name)
		}
		got := fmt.Sprintf("%d attempts: mean %s max %s tokens, mean %s max %s USD", u.Attempts, f(u.MeanTokens), i(u.MaxTokens), f(u.MeanCostUSD), f(u.MaxCostUSD))
		if got != tc.want {
			t.Errorf("%s: %s\nwant %s", tc.name, got, tc.want)
		}
	}
	if r := build(&spec.Config{Path: "ananke.config.yaml"}, runs(nil, nil)); r.Tests[0].PerAttempt != nil || r.Tests[0].Usage != nil {
		t.Error("a test none of whose attempts reported usage has per-attempt usage")
	}
}
