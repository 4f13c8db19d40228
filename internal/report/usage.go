package report

import (
	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/trace"
)

// AttemptUsage is a test's usage per attempt: with runs > 1 a budget holds
// per run, and reports show the mean and the maximum. A figure is absent
// when some attempt's is unknown (it reported no usage, or a model has no
// price).
type AttemptUsage struct {
	Attempts    int      `json:"attempts"`
	MeanTokens  *float64 `json:"mean_tokens,omitempty"`
	MaxTokens   *int64   `json:"max_tokens,omitempty"`
	MeanCostUSD *float64 `json:"mean_cost_usd,omitempty"`
	MaxCostUSD  *float64 `json:"max_cost_usd,omitempty"`
}

// AttemptsUsage is what a test's attempts used, and its figures per
// attempt, as Build reports them in Test.Usage and Test.PerAttempt: for a
// reader of engine results before the report is built (the console's
// line per finished test).
func AttemptsUsage(attempts []*engine.Attempt) (*cost.Spend, *AttemptUsage) {
	spends := make([]*cost.Spend, len(attempts))
	for i, a := range attempts {
		if a.Trace != nil {
			spends[i] = traceUsage(a.Trace)
		}
	}
	s := cost.Sum(spends...)
	if s == nil {
		return nil, nil
	}
	return s, perAttempt(spends)
}

// traceUsage sums a trace's turns: nil when no turn reported usage.
func traceUsage(tr *trace.Trace) *cost.Spend {
	parts := make([]*cost.Spend, len(tr.Turns))
	for i := range tr.Turns {
		parts[i] = tr.Turns[i].Usage
	}
	return cost.Sum(parts...)
}

// perAttempt is the mean and maximum over attempts' usage.
func perAttempt(spends []*cost.Spend) *AttemptUsage {
	out := &AttemptUsage{Attempts: len(spends)}
	if len(spends) == 0 {
		return nil
	}
	var sumT, sumC float64
	var maxT int64
	var maxC float64
	tokensKnown, costKnown := true, true
	for _, s := range spends {
		n, ok := s.TotalTokens()
		tokensKnown = tokensKnown && ok && !s.Partial()
		sumT += float64(n)
		maxT = max(maxT, n)
		c, ok := s.CostUSD()
		costKnown = costKnown && ok
		sumC += c
		maxC = max(maxC, c)
	}
	if tokensKnown {
		mean := sumT / float64(len(spends))
		out.MeanTokens, out.MaxTokens = &mean, &maxT
	}
	if costKnown {
		mean := cost.RoundUSD(sumC / float64(len(spends)))
		out.MeanCostUSD, out.MaxCostUSD = &mean, &maxC
	}
	return out
}

// modelCost prices what judges and simulated users used at the price of
// the config's model: nil when they used no tokens, or the model has no
// price (its cost is unknown, never zero).
func (b *builder) modelCost(u Usage) *float64 {
	if (u.PromptTokens == 0 && u.CompletionTokens == 0) || u.Unreported > 0 {
		return nil // no tokens, or some of them unknown
	}
	r := b.prices.Lookup("", b.model)
	if r == nil {
		return nil
	}
	var t cost.Tokens
	t.Set(cost.Input, u.PromptTokens)
	t.Set(cost.Output, u.CompletionTokens)
	usd, _ := r.Price.Of(t)
	return &usd
}

// modelCosts is what the tests' judges and simulated users cost together:
// nil when none used tokens, or when the cost of one that did is unknown.
func modelCosts(tests []Test) *float64 {
	var sum float64
	used := false
	for _, t := range tests {
		if t.Model.PromptTokens == 0 && t.Model.CompletionTokens == 0 && t.Model.Unreported == 0 {
			continue
		}
		if t.ModelCostUSD == nil {
			return nil
		}
		used = true
		sum += *t.ModelCostUSD
	}
	if !used {
		return nil
	}
	return &sum
}
