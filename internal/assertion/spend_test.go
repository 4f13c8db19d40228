package assertion

import (
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// used is one model's reported usage, priced at usd when usd >= 0.
func used(provider, model string, in, out int64, usd float64) cost.Usage {
	u := cost.Usage{Provider: provider, Model: model}
	u.Tokens.Set(cost.Input, in)
	u.Tokens.Set(cost.Output, out)
	if usd >= 0 {
		u.CostUSD, u.CostFrom = &usd, cost.FromPrice
	}
	return u
}

// spentBy is a run's or turn's spend: one part reporting us.
func spentBy(us ...cost.Usage) *cost.Spend {
	s := &cost.Spend{}
	s.Add(us...)
	return s
}

// runsTurn is turn i whose runs reported the spends given (nil: none),
// each run with three events, the last its RUN_FINISHED; the turn's usage
// sums them as a source does.
func runsTurn(i int, runs ...*cost.Spend) trace.Turn {
	t := trace.Turn{Index: i, StartMs: 1000, EndMs: 2000}
	seq := int64(100 * (i + 1))
	var parts []*cost.Spend
	for _, u := range runs {
		t.Runs = append(t.Runs, trace.Run{FirstSeq: seq + 1, Usage: u})
		for _, typ := range []string{"RUN_STARTED", "TEXT_MESSAGE_CONTENT", "RUN_FINISHED"} {
			seq++
			t.Events = append(t.Events, trace.Event{Seq: seq, Type: typ})
		}
		parts = append(parts, u)
	}
	t.Usage = cost.Sum(parts...)
	return t
}

func budgetCheck(k Kind, limit int64) Check {
	return Check{ID: "test." + string(k), Kind: k, Payload: Limit{Set: true, Ms: limit}}
}

func usdCheck(limit float64) Check {
	return Check{ID: "test.budget.max_cost_usd", Kind: KindMaxCostUSD, Payload: Dollars{Set: true, USD: limit}}
}

func testScope(turns ...trace.Turn) trace.Scope {
	tr := trace.Trace{Turns: turns}
	return tr.TestScope()
}

func turnScope(i int, turns ...trace.Turn) trace.Scope {
	tr := trace.Trace{Turns: turns}
	return tr.TurnScope(i)
}

func TestTokenBudgets(t *testing.T) {
	mini := func(in, out int64) *cost.Spend { return spentBy(used("openai", "gpt-4o-mini", in, out, -1)) }
	totalOnly := cost.Usage{Model: "m"}
	totalOnly.Tokens.Set(cost.Total, 900)
	sessionCost := 0.5
	sessionOnly := cost.Usage{Model: "session", CostUSD: &sessionCost, CostFrom: cost.FromSource}
	twoTurns := testScope(runsTurn(0, mini(1000, 200)), runsTurn(1, mini(600, 300)))
	halfKnown := testScope(runsTurn(0, mini(1000, 200)), runsTurn(1))
	runMissing := testScope(runsTurn(0, mini(1000, 200), nil))
	cases := []struct {
		name     string
		check    Check
		scope    trace.Scope
		want     status.Status
		msg      string
		expected string
		observed string
	}{
		{"total within", budgetCheck(KindMaxTotalTokens, 2100), twoTurns, status.Pass,
			"test used 2,100 total tokens (limit 2,100)", "≤ 2,100 total tokens", "2,100 total tokens"},
		{"total over", budgetCheck(KindMaxTotalTokens, 2000), twoTurns, status.Fail,
			"test used 2,100 total tokens, over the limit of 2,000", "≤ 2,000 total tokens", "2,100 total tokens"},
		{"input over", budgetCheck(KindMaxInputTokens, 1500), twoTurns, status.Fail,
			"test used 1,600 input tokens, over the limit of 1,500", "≤ 1,500 input tokens", "1,600 input tokens"},
		{"output within", budgetCheck(KindMaxOutputTokens, 500), twoTurns, status.Pass,
			"test used 500 output tokens (limit 500)", "≤ 500 output tokens", "500 output tokens"},
		{"one turn of two", budgetCheck(KindMaxTotalTokens, 1000), turnScope(1, runsTurn(0, mini(5000, 5000)), runsTurn(1, mini(600, 300))), status.Pass,
			"turn[1] used 900 total tokens (limit 1,000)", "≤ 1,000 total tokens", "900 total tokens"},
		{"partial and over: fails on the lower bound", budgetCheck(KindMaxTotalTokens, 1000), halfKnown, status.Fail,
			"test used at least 1,200 total tokens, over the limit of 1,000 (turn[1] reported no usage)", "≤ 1,000 total tokens", "≥ 1,200 total tokens"},
		{"partial and under: not checked", budgetCheck(KindMaxTotalTokens, 5000), halfKnown, status.Skip,
			"skipped: turn[1] reported no usage; the 1,200 total tokens reported are within the limit of 5,000, the rest are unknown", "≤ 5,000 total tokens", "≥ 1,200 total tokens"},
		{"a run of a turn unreported", budgetCheck(KindMaxTotalTokens, 5000), runMissing, status.Skip,
			"skipped: turn[0] run 2 reported no usage; the 1,200 total tokens reported are within the limit of 5,000, the rest are unknown", "≤ 5,000 total tokens", "≥ 1,200 total tokens"},
		{"a turn without usage in a trace with some", budgetCheck(KindMaxTotalTokens, 5000), turnScope(1, runsTurn(0, mini(1, 1)), runsTurn(1)), status.Skip,
			"skipped: turn[1] reported no usage, so its total tokens are unknown", "≤ 5,000 total tokens", "usage unknown"},
		{"a reported total alone", budgetCheck(KindMaxTotalTokens, 1000), testScope(runsTurn(0, spentBy(totalOnly))), status.Pass,
			"test used 900 total tokens (limit 1,000)", "≤ 1,000 total tokens", "900 total tokens"},
		{"a count a model did not report", budgetCheck(KindMaxInputTokens, 1000), testScope(runsTurn(0, spentBy(totalOnly))), status.Skip,
			"skipped: m did not report its input tokens; the 0 input tokens reported are within the limit of 1,000, the rest are unknown", "≤ 1,000 input tokens", "≥ 0 input tokens"},
		{"a reported cost beside the tokens", budgetCheck(KindMaxTotalTokens, 1000), testScope(runsTurn(0, spentBy(totalOnly, sessionOnly))), status.Pass,
			"test used 900 total tokens (limit 1,000)", "≤ 1,000 total tokens", "900 total tokens"},
		{"nothing used", budgetCheck(KindMaxTotalTokens, 1), testScope(runsTurn(0, spentBy())), status.Pass,
			"test used 0 total tokens (limit 1)", "≤ 1 total tokens", "0 total tokens"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := evalOne(t, tc.check, tc.scope)
			if r.Status != tc.want || r.Message != tc.msg {
				t.Errorf("Evaluate = %s\n  %s\nwant %s\n  %s", r.Status, r.Message, tc.want, tc.msg)
			}
			if r.Expected != tc.expected || r.Observed != tc.observed {
				t.Errorf("expected %q, observed %q; want %q, %q", r.Expected, r.Observed, tc.expected, tc.observed)
			}
		})
	}
}

func TestCostBudget(t *testing.T) {
	priced := func(usd float64) *cost.Spend { return spentBy(used("openai", "gpt-4o-mini", 1000, 100, usd)) }
	reported := cost.Usage{Model: "claude-sonnet-4-5", CostFrom: cost.FromSource}
	reported.Tokens.Set(cost.Input, 10)
	reported.Tokens.Set(cost.Output, 10)
	v := 0.2
	reported.CostUSD = &v
	noCounts := cost.Usage{Model: "m"}
	noCounts.Tokens.Set(cost.Total, 9)
	cases := []struct {
		name     string
		limit    float64
		scope    trace.Scope
		want     status.Status
		msg      string
		observed string
	}{
		{"within", 0.5, testScope(runsTurn(0, priced(0.1)), runsTurn(1, priced(0.2))), status.Pass, "test cost $0.30 (limit $0.50)", "$0.30"},
		{"sums compare as written", 0.3, testScope(runsTurn(0, priced(0.1)), runsTurn(1, priced(0.2))), status.Pass, "test cost $0.30 (limit $0.30)", "$0.30"},
		{"over", 0.25, testScope(runsTurn(0, priced(0.1)), runsTurn(1, priced(0.2))), status.Fail, "test cost $0.30, over the limit of $0.25", "$0.30"},
		{"over by less than the display shows", 0.5, testScope(runsTurn(0, priced(0.5004))), status.Fail, "test cost $0.5004, over the limit of $0.50", "$0.5004"},
		{"a reported cost as reported", 0.1, testScope(runsTurn(0, spentBy(reported))), status.Fail, "test cost $0.20, over the limit of $0.10", "$0.20"},
		{"a model without a price", 1, testScope(runsTurn(0, spentBy(used("", "my-model", 10, 10, -1)))), status.Skip,
			"skipped: model my-model has no price (add it under pricing: in the config)", "cost unknown"},
		{"a model without counts", 1, testScope(runsTurn(0, spentBy(noCounts))), status.Skip,
			"skipped: model m did not report its input and output tokens, so it cannot be priced", "cost unknown"},
		{"unpriced, but the priced part is over", 0.05, testScope(runsTurn(0, spentBy(used("", "my-model", 10, 10, -1), used("openai", "gpt-4o", 10, 10, 0.06)))), status.Fail,
			"test cost at least $0.06, over the limit of $0.05 (model my-model has no price (add it under pricing: in the config))", "≥ $0.06"},
		{"unpriced and under", 1, testScope(runsTurn(0, spentBy(used("", "my-model", 10, 10, -1), used("openai", "gpt-4o", 10, 10, 0.06)))), status.Skip,
			"skipped: model my-model has no price (add it under pricing: in the config)", "≥ $0.06"},
		{"a turn unreported", 1, testScope(runsTurn(0, priced(0.1)), runsTurn(1)), status.Skip,
			"skipped: turn[1] reported no usage", "≥ $0.10"},
		{"no usage in scope", 1, turnScope(1, runsTurn(0, priced(0.1)), runsTurn(1)), status.Skip,
			"skipped: turn[1] reported no usage, so its cost is unknown", "cost unknown"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := evalOne(t, usdCheck(tc.limit), tc.scope)
			if r.Status != tc.want || r.Message != tc.msg {
				t.Errorf("Evaluate = %s\n  %s\nwant %s\n  %s", r.Status, r.Message, tc.want, tc.msg)
			}
			if r.Observed != tc.observed || !strings.HasPrefix(r.Expected, "≤ $") {
				t.Errorf("expected %q, observed %q; want observed %q", r.Expected, r.Observed, tc.observed)
			}
		})
	}
}

// TestBudgetEvidence: the evidence names each run and model that spent
// the tokens, with the run's last event.
func TestBudgetEvidence(t *testing.T) {
	u := used("openai", "gpt-4o-mini", 1200, 300, 0.00036)
	u.Tokens.Set(cost.CachedInput, 800)
	first := spentBy(u, used("anthropic", "claude-haiku-4-5", 50, 5, -1))
	imported := trace.Turn{Index: 1, Usage: spentBy(used("", "claude-sonnet-4-5", 7, 3, 0.0002))}
	s := testScope(runsTurn(0, first, nil, spentBy()), imported, runsTurn(2))
	r := evalOne(t, budgetCheck(KindMaxTotalTokens, 10), s)
	var got []string
	for _, e := range r.Evidence {
		got = append(got, e.Note)
	}
	want := []string{
		"turn[0] run 1: openai/gpt-4o-mini 1,200 in / 300 out, 800 cached · $0.00036",
		"turn[0] run 1: anthropic/claude-haiku-4-5 50 in / 5 out · cost unknown",
		"turn[0] run 2: no usage reported",
		"turn[0] run 3: no tokens used",
		"turn[1]: claude-sonnet-4-5 7 in / 3 out · $0.0002",
		"turn[2]: no usage reported",
	}
	if !slices.Equal(got, want) {
		t.Errorf("evidence:\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	// Run 1's events are 101-103, run 3's 107-109: each run's last.
	if !slices.Equal(r.Evidence[0].EventRefs, []int64{103}) || !slices.Equal(r.Evidence[3].EventRefs, []int64{109}) || r.Evidence[2].EventRefs != nil {
		t.Errorf("event refs: %v, %v, %v", r.Evidence[0].EventRefs, r.Evidence[2].EventRefs, r.Evidence[3].EventRefs)
	}
	if !slices.Equal(r.EventRefs, []int64{103, 109}) {
		t.Errorf("the result rests on %v, want [103 109]", r.EventRefs)
	}
	if r.Status != status.Fail || !strings.Contains(r.Message, "turn[0] run 2, turn[2] reported no usage") {
		t.Errorf("%s %q", r.Status, r.Message)
	}
}

// TestBudgetGate: a trace without usage skips a budget with the reason,
// or errors it under on_missing_capability: error.
func TestBudgetGate(t *testing.T) {
	s := testScope(runsTurn(0), runsTurn(1))
	for _, tc := range []struct {
		name  string
		check Check
		src   *trace.Source
		want  status.Status
		msg   string
	}{
		{"ag-ui", budgetCheck(KindMaxTotalTokens, 1), nil, status.Skip,
			"skipped: needs supports_usage, but no turn of this ag-ui trace reported token usage: the agent reported none"},
		{"ag-ui, policy error", onError(usdCheck(1)), nil, status.Error,
			"needs supports_usage, but no turn of this ag-ui trace reported token usage: the agent reported none (on_missing_capability: error)"},
		{"a transcript", budgetCheck(KindMaxInputTokens, 1), claudeSource, status.Skip,
			"skipped: needs supports_usage, but no turn of this claude-transcript trace reported token usage: the recorded run reported none"},
		{"usage and more missing", needing(budgetCheck(KindMaxInputTokens, 1), capability.State), claudeSource, status.Skip,
			"skipped: needs supports_usage, supports_state, which the claude-transcript trace does not provide"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := evalOne(t, tc.check, withSource(s, tc.src))
			if r.Status != tc.want || r.Message != tc.msg {
				t.Errorf("Evaluate = %s %q\nwant %s %q", r.Status, r.Message, tc.want, tc.msg)
			}
		})
	}
	// A source that declares usage, with no turn that reported any: the
	// budget is evaluated, and says which turns reported none.
	withUsage := &trace.Source{Adapter: "x", Mode: "import", Capabilities: []string{capability.Usage}}
	r := evalOne(t, budgetCheck(KindMaxTotalTokens, 1), withSource(s, withUsage))
	if r.Status != status.Skip || r.Message != "skipped: turn[0], turn[1] reported no usage, so its total tokens are unknown" {
		t.Errorf("%s %q", r.Status, r.Message)
	}
}

func TestDescribeBudgets(t *testing.T) {
	for _, tc := range []struct {
		c    Check
		want string
	}{
		{budgetCheck(KindMaxInputTokens, 20000), "≤ 20,000 input tokens"},
		{budgetCheck(KindMaxOutputTokens, 2000), "≤ 2,000 output tokens"},
		{budgetCheck(KindMaxTotalTokens, 22000), "≤ 22,000 total tokens"},
		{usdCheck(0.05), "≤ $0.05"},
		{usdCheck(2), "≤ $2.00"},
	} {
		if got := Describe(tc.c); got != tc.want {
			t.Errorf("Describe(%s) = %q, want %q", tc.c.Kind, got, tc.want)
		}
	}
}
