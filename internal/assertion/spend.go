package assertion

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// The budget section (docs/files.md, "Token and cost budgets"): bounds on
// what the agent's model calls used in a scope — its input, output and
// total tokens, and their cost in US dollars — summed over the scope's
// turns as the agent reported them (docs/cost.md). What was not reported
// is never taken for zero: a scope whose usage is partly unknown fails
// when what was reported already exceeds the bound, and is otherwise
// skipped with what is missing.

// Dollars is a bound in US dollars (budget.max_cost_usd), or false to
// disable an inherited one.
type Dollars struct {
	Set bool // declared at this level
	Off bool // declared as false
	USD float64
	Pos diag.Pos
}

// Refs implements Payload: a bound holds no reference.
func (Dollars) Refs() []vars.Ref { return nil }

// Bind implements Payload.
func (d Dollars) Bind(*vars.Vars) (Payload, error) { return d, nil }

func (d Dollars) off() bool { return !d.Set || d.Off }

// readTokens reads a token budget: a number of tokens, or false.
func readTokens(l *reader, n *yaml.Node, what string) []Item {
	return limitItem(l.limitAt(n, what, "tokens"))
}

// readUSD reads budget.max_cost_usd: a positive number of US dollars, or
// false.
func readUSD(l *reader, n *yaml.Node, what string) []Item {
	s, ok := l.Scalar(n, what, "a number of US dollars or false")
	if !ok {
		return nil
	}
	pos := l.Pos(s)
	if s.ShortTag() == "!!bool" {
		if b, _ := l.Boolean(s, what); b {
			l.Errorf(s, "%s: true is not a limit; write a number of US dollars, or false to disable an inherited one", what)
			return nil
		}
		return []Item{{Pos: pos, Payload: Dollars{Set: true, Off: true, Pos: pos}}}
	}
	v, node, ok := l.Number(s, what)
	if !ok {
		return nil
	}
	if v <= 0 {
		l.Errorf(node, "%s must be more than 0 US dollars, got %s", what, node.Value)
		return nil
	}
	return []Item{{Pos: pos, Payload: Dollars{Set: true, USD: v, Pos: pos}}}
}

func tokensSchema(what string) func() decode.Obj {
	return func() decode.Obj {
		return decode.Obj{"oneOf": []any{decode.Obj{"type": "integer", "minimum": 1}, decode.Obj{"const": false}},
			"description": "At most this many " + what + " in scope, as the agent reported them, or false."}
	}
}

func usdSchema() decode.Obj {
	return decode.Obj{"oneOf": []any{decode.Obj{"type": "number", "exclusiveMinimum": 0}, decode.Obj{"const": false}},
		"description": "At most this cost in US dollars in scope, priced by the config's pricing: and the built-in table, or false."}
}

// tokenNouns name what each token budget counts.
var tokenNouns = map[cost.Field]string{cost.Input: "input tokens", cost.Output: "output tokens", cost.Total: "total tokens"}

// scopeUsage is what a scope's turns reported, summed (nil when none
// reported usage), and the turns and runs that reported none.
func scopeUsage(s trace.Scope) (*cost.Spend, []string) {
	var sum *cost.Spend
	var unreported []string
	for i := range s.Turns {
		t := &s.Turns[i]
		name := trace.TurnName(t.Index)
		if t.Usage == nil {
			unreported = append(unreported, name)
			continue
		}
		if sum == nil {
			sum = &cost.Spend{}
		}
		sum.Merge(t.Usage, 0)
		if t.Usage.Unreported == 0 {
			continue
		}
		named := 0
		for j := range t.Runs {
			if t.Runs[j].Usage == nil {
				unreported = append(unreported, fmt.Sprintf("%s run %d", name, j+1))
				named++
			}
		}
		if named == 0 {
			unreported = append(unreported, fmt.Sprintf("%s (%d of %d parts)", name, t.Usage.Unreported, t.Usage.Unreported+t.Usage.Reported))
		}
	}
	return sum, unreported
}

// costOnly reports an entry that carries a cost the source reported and
// no token count (a session's total cost beside its per-model tokens):
// it adds no tokens, and its cost counts.
func costOnly(u cost.Usage) bool { return u.Tokens.Empty() && u.CostUSD != nil }

func tokenCount(u cost.Usage, f cost.Field) (int64, bool) {
	if f == cost.Total {
		return u.Tokens.TotalTokens()
	}
	return u.Tokens.Get(f)
}

// tokenBudget passes when the scope used at most limit tokens of field f
// (input, output or total), over every turn and model.
func tokenBudget(r *Result, f cost.Field, limit int64, s trace.Scope) {
	noun := tokenNouns[f]
	r.Expected = "≤ " + cost.FormatCount(limit) + " " + noun
	sp, unreported := scopeUsage(s)
	r.Evidence = spendEvidence(s)
	if sp == nil {
		r.Observed = "usage unknown"
		r.set(status.Skip, "skipped: %s reported no usage, so its %s are unknown", names(unreported), noun)
		return
	}
	var sum int64
	var missing []string
	for _, m := range sp.Models {
		if costOnly(m) {
			continue // the cost of tokens counted in the other entries
		}
		n, ok := tokenCount(m, f)
		if !ok {
			missing = append(missing, fmt.Sprintf("%s did not report its %s", m.Label(), noun))
			continue
		}
		sum += n
	}
	if len(unreported) > 0 {
		missing = append([]string{names(unreported) + " reported no usage"}, missing...)
	}
	got := cost.FormatCount(sum) + " " + noun
	switch {
	case sum > limit && len(missing) > 0:
		r.Observed = "≥ " + got
		r.set(status.Fail, "%s used at least %s, over the limit of %s (%s)", s.Name, got, cost.FormatCount(limit), strings.Join(missing, "; "))
	case sum > limit:
		r.Observed = got
		r.set(status.Fail, "%s used %s, over the limit of %s", s.Name, got, cost.FormatCount(limit))
	case len(missing) > 0:
		r.Observed = "≥ " + got
		r.set(status.Skip, "skipped: %s; the %s reported are within the limit of %s, the rest are unknown", strings.Join(missing, "; "), got, cost.FormatCount(limit))
	default:
		r.Observed = got
		r.set(status.Pass, "%s used %s (limit %s)", s.Name, got, cost.FormatCount(limit))
	}
}

// costBudget passes when what the scope used cost at most limit US
// dollars: each model's tokens at its price, or the cost its source
// reported.
func costBudget(r *Result, limit float64, s trace.Scope) {
	r.Expected = "≤ " + cost.FormatUSD(limit)
	sp, unreported := scopeUsage(s)
	r.Evidence = spendEvidence(s)
	if sp == nil {
		r.Observed = "cost unknown"
		r.set(status.Skip, "skipped: %s reported no usage, so its cost is unknown", names(unreported))
		return
	}
	var sum float64
	var missing []string
	for _, m := range sp.Models {
		if m.CostUSD != nil {
			sum += *m.CostUSD
			continue
		}
		_, in := m.Tokens.Get(cost.Input)
		_, out := m.Tokens.Get(cost.Output)
		if in && out {
			missing = append(missing, fmt.Sprintf("model %s has no price (add it under pricing: in the config)", m.Label()))
		} else {
			missing = append(missing, fmt.Sprintf("model %s did not report its input and output tokens, so it cannot be priced", m.Label()))
		}
	}
	if len(unreported) > 0 {
		missing = append([]string{names(unreported) + " reported no usage"}, missing...)
	}
	over := micro(sum) > micro(limit)
	got := usdBeside(sum, limit)
	switch {
	case over && len(missing) > 0:
		r.Observed = "≥ " + got
		r.set(status.Fail, "%s cost at least %s, over the limit of %s (%s)", s.Name, got, cost.FormatUSD(limit), strings.Join(missing, "; "))
	case over:
		r.Observed = got
		r.set(status.Fail, "%s cost %s, over the limit of %s", s.Name, got, cost.FormatUSD(limit))
	case len(missing) > 0:
		r.Observed = "cost unknown"
		if sum > 0 {
			r.Observed = "≥ " + got
		}
		r.set(status.Skip, "skipped: %s", strings.Join(missing, "; "))
	default:
		r.Observed = got
		r.set(status.Pass, "%s cost %s (limit %s)", s.Name, got, cost.FormatUSD(limit))
	}
}

// micro is a cost in millionths of a cent, so that sums of prices compare
// as written (0.1 + 0.2 is not over 0.3).
func micro(usd float64) float64 { return math.Round(usd * 1e8) }

// usdBeside writes a cost beside a limit: as FormatUSD does, with more
// digits when that would read as the limit itself ($0.5004 against
// $0.50).
func usdBeside(usd, limit float64) string {
	s := cost.FormatUSD(usd)
	if s != cost.FormatUSD(limit) || micro(usd) == micro(limit) {
		return s
	}
	p := strings.TrimRight(strconv.FormatFloat(usd, 'f', 6, 64), "0")
	return "$" + strings.TrimSuffix(p, ".")
}

// names lists scope parts for a message, a few at most.
func names(parts []string) string {
	if len(parts) > maxReasons {
		return strings.Join(parts[:maxReasons], ", ") + fmt.Sprintf(" and %d more", len(parts)-maxReasons)
	}
	return strings.Join(parts, ", ")
}

// spendEvidence names the runs and models that spent the scope's tokens:
// each run that reported usage, model by model, with the event that
// reported it (the run's last); a turn whose runs did not report usage
// one by one (an imported turn), model by model; and each run or turn
// that reported none.
func spendEvidence(s trace.Scope) []Evidence {
	var out []Evidence
	add := func(e Evidence) {
		if len(out) < maxEvidence {
			out = append(out, e)
		}
	}
	for i := range s.Turns {
		t := &s.Turns[i]
		name := trace.TurnName(t.Index)
		if t.Usage == nil {
			add(Evidence{Note: name + ": no usage reported"})
			continue
		}
		byRun := false
		for j := range t.Runs {
			byRun = byRun || t.Runs[j].Usage != nil
		}
		if !byRun {
			for _, m := range t.Usage.Models {
				add(Evidence{Note: name + ": " + describeUsage(m)})
			}
			continue
		}
		last := lastEvents(t)
		for j := range t.Runs {
			run := fmt.Sprintf("%s run %d", name, j+1)
			var refs []int64
			if last[j] > 0 {
				refs = []int64{last[j]}
			}
			u := t.Runs[j].Usage
			switch {
			case u == nil:
				add(Evidence{Note: run + ": no usage reported"})
			case len(u.Models) == 0:
				add(Evidence{Note: run + ": no tokens used", EventRefs: refs})
			}
			if u != nil {
				for _, m := range u.Models {
					add(Evidence{Note: run + ": " + describeUsage(m), EventRefs: refs})
				}
			}
		}
	}
	return out
}

// lastEvents is the sequence number of each run's last event (0: none).
func lastEvents(t *trace.Turn) []int64 {
	last := make([]int64, len(t.Runs))
	t.EachEvent(func(seq int64, _ string) {
		for j := len(t.Runs) - 1; j >= 0; j-- {
			if first := t.Runs[j].FirstSeq; first > 0 && seq >= first {
				last[j] = seq
				return
			}
		}
	})
	return last
}

// describeUsage says what one model used: "openai/gpt-4o-mini 1,200 in /
// 300 out · $0.00036".
func describeUsage(m cost.Usage) string {
	count := func(f cost.Field) string {
		if n, ok := m.Tokens.Get(f); ok {
			return cost.FormatCount(n)
		}
		return "?"
	}
	var b strings.Builder
	if m.Tokens.Empty() {
		b.WriteString(m.Label() + " (no token counts)")
	} else {
		b.WriteString(m.Label() + " " + count(cost.Input) + " in / " + count(cost.Output) + " out")
	}
	if n, ok := m.Tokens.Get(cost.Total); ok && !(m.Tokens.Known(cost.Input) && m.Tokens.Known(cost.Output)) {
		b.WriteString(" (" + cost.FormatCount(n) + " total)")
	}
	if n, ok := m.Tokens.Get(cost.CachedInput); ok && n > 0 {
		b.WriteString(", " + cost.FormatCount(n) + " cached")
	}
	if n, ok := m.Tokens.Get(cost.Reasoning); ok && n > 0 {
		b.WriteString(", " + cost.FormatCount(n) + " reasoning")
	}
	switch {
	case m.CostUSD == nil:
		b.WriteString(" · cost unknown")
	case m.CostFrom == cost.FromSource:
		b.WriteString(" · " + cost.FormatUSD(*m.CostUSD) + " as reported")
	default:
		b.WriteString(" · " + cost.FormatUSD(*m.CostUSD))
	}
	return b.String()
}
