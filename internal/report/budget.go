package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
)

// RunBudget is how the run kept to the config's budget: (docs/cost.md):
// each bound, and what every test's agent used against it. The run fails
// when it exceeded one; a bound that could not be checked — usage or cost
// unknown — is never a pass.
type RunBudget struct {
	// Status is fail when some bound was exceeded, else skip when some
	// could not be checked, else pass.
	Status   status.Status `json:"status"`
	Exceeded bool          `json:"exceeded"`
	Limits   []BudgetLimit `json:"limits"`
}

// Names of the bounds of a run's budget, as the config writes them.
const (
	BudgetCost   = "max_cost_usd"
	BudgetTokens = "max_total_tokens"
)

// BudgetLimit is one bound of the run's budget.
type BudgetLimit struct {
	// Name is the bound as written (max_cost_usd, max_total_tokens), Limit
	// its value and Source where it is written.
	Name   string   `json:"name"`
	Limit  float64  `json:"limit"`
	Source Location `json:"source"`
	// Used is what the run used against it: US dollars or total tokens;
	// nil when unknown. AtLeast: some usage or cost went unreported, so
	// Used is a lower bound.
	Used    *float64 `json:"used,omitempty"`
	AtLeast bool     `json:"at_least,omitempty"`
	// Status is pass (within), fail (exceeded) or skip (not checked), and
	// Message the line reports show: "run budget exceeded: 2.1M total
	// tokens > max_total_tokens 2M (ananke.config.yaml:9:3)".
	Status  status.Status `json:"status"`
	Message string        `json:"message"`
}

// exceeded reports whether the run went over a bound of its budget.
func (rb *RunBudget) exceeded() bool { return rb != nil && rb.Exceeded }

// budgetLimits are the bounds of the config's budget, unchecked.
func (b *builder) budgetLimits(rb *spec.RunBudget) []BudgetLimit {
	if rb == nil {
		return nil
	}
	var out []BudgetLimit
	if rb.MaxCostUSD != nil {
		out = append(out, BudgetLimit{Name: BudgetCost, Limit: *rb.MaxCostUSD, Source: b.loc(rb.MaxCostPos)})
	}
	if rb.MaxTotalTokens != nil {
		out = append(out, BudgetLimit{Name: BudgetTokens, Limit: float64(*rb.MaxTotalTokens), Source: b.loc(rb.MaxTokensPos)})
	}
	// In the file's order, as every other list of checks.
	slices.SortStableFunc(out, func(x, y BudgetLimit) int {
		return cmp.Or(cmp.Compare(x.Source.Line, y.Source.Line), cmp.Compare(x.Source.Col, y.Source.Col))
	})
	return out
}

// checkBudget holds the tests' usage together (totals.Usage) to each
// bound; nil without bounds. Merge checks a merged run again.
func checkBudget(limits []BudgetLimit, tests []Test, usage *cost.Spend) *RunBudget {
	if len(limits) == 0 {
		return nil
	}
	rb := &RunBudget{Status: status.Pass, Limits: make([]BudgetLimit, len(limits))}
	gaps := unreportedTests(tests)
	for i, l := range limits {
		l.Used, l.AtLeast, l.Status, l.Message = nil, false, "", ""
		l.check(usage, gaps)
		rb.Limits[i] = l
		switch {
		case l.Status == status.Fail:
			rb.Status, rb.Exceeded = status.Fail, true
		case l.Status == status.Skip && rb.Status == status.Pass:
			rb.Status = status.Skip
		}
	}
	return rb
}

// unreportedTests names the tests that ran and whose agent reported no
// usage, or not for all of their runs.
func unreportedTests(tests []Test) []string {
	var out []string
	for _, t := range tests {
		if len(t.Attempts) == 0 {
			continue // never ran: used nothing
		}
		if t.Usage == nil || t.Usage.Partial() {
			out = append(out, t.ID)
		}
	}
	return out
}

// check decides one bound.
func (l *BudgetLimit) check(usage *cost.Spend, gaps []string) {
	bound := l.Name + " " + l.show(l.Limit) + " (" + l.Source.String() + ")"
	if usage == nil {
		l.Status = status.Skip
		l.Message = "run budget not checked: no test's agent reported usage — " + bound
		return
	}
	used, missing := l.measure(usage)
	if len(gaps) > 0 {
		missing = append([]string{plural.Count(len(gaps), "test") + " reported no usage or not all of it (" + namesOf(gaps) + ")"}, missing...)
	}
	l.Used, l.AtLeast = &used, len(missing) > 0
	shown := l.show(used)
	if l.Name == BudgetTokens {
		shown += " total tokens"
	}
	over := used > l.Limit
	if l.Name == BudgetCost {
		over = math.Round(used*1e8) > math.Round(l.Limit*1e8)
	}
	switch {
	case over && l.AtLeast:
		l.Status = status.Fail
		l.Message = fmt.Sprintf("run budget exceeded: at least %s > %s; %s", shown, bound, strings.Join(missing, "; "))
	case over:
		l.Status = status.Fail
		l.Message = fmt.Sprintf("run budget exceeded: %s > %s", shown, bound)
	case l.AtLeast:
		l.Status = status.Skip
		known := "" // nothing known is not a zero spent: it goes unsaid
		if used > 0 {
			known = "; " + shown + " known so far"
		}
		l.Message = fmt.Sprintf("run budget not checked: %s%s — %s", strings.Join(missing, "; "), known, bound)
	default:
		l.Status = status.Pass
		l.Message = fmt.Sprintf("run budget kept: %s ≤ %s", shown, bound)
	}
}

// measure is what the run used against the bound — what is known of it —
// and what is not known.
func (l *BudgetLimit) measure(usage *cost.Spend) (float64, []string) {
	var used float64
	var missing []string
	for _, m := range usage.Models {
		if l.Name == BudgetCost {
			if m.CostUSD == nil {
				missing = append(missing, "model "+m.Label()+" has no price (add it under pricing: in the config)")
				continue
			}
			used += *m.CostUSD
			continue
		}
		if m.Tokens.Empty() && m.CostUSD != nil {
			continue // a cost the source reported, beside the tokens it counted
		}
		n, ok := m.Tokens.TotalTokens()
		if !ok {
			missing = append(missing, m.Label()+" did not report its total tokens")
			continue
		}
		used += float64(n)
	}
	return used, missing
}

// show writes an amount of the bound's unit: $2.10, 2.1M.
func (l *BudgetLimit) show(v float64) string {
	if l.Name == BudgetCost {
		return cost.FormatUSD(v)
	}
	return cost.FormatTokens(int64(v))
}

// namesOf lists a few names, and how many more.
func namesOf(names []string) string {
	const most = 3
	if len(names) > most {
		return strings.Join(names[:most], ", ") + fmt.Sprintf(" and %d more", len(names)-most)
	}
	return strings.Join(names, ", ")
}
