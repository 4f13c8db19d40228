package cost

import (
	"path"
	"strings"
)

// Price is what a model's tokens cost, in USD per million tokens. Input and
// Output are required; a cached-input, cache-write or reasoning price left
// unset (nil) charges those tokens at the input or output price.
type Price struct {
	Input       float64
	Output      float64
	CachedInput *float64
	CacheWrite  *float64
	Reasoning   *float64
}

// Rule prices the models whose name matches Model — exactly, or as a glob
// ("gpt-4o-mini*", "claude-*-4-5*") — and, when Provider is set, whose
// provider matches it too.
type Rule struct {
	Provider string
	Model    string
	Price    Price
	// Origin says where the rule was written ("ananke.yaml:12:5", or
	// "built-in table (2025-11)"), for evidence.
	Origin string
}

// Table prices models. Its first Overrides rules are the config's and
// are looked up first, so that a config glob ("gpt-4o*") overrides the
// built-in price of a name it matches ("gpt-4o"); the other rules (the
// built-in table) are looked up when none of them matches. Within each
// part an exact model name wins over a glob, and among globs the first
// rule that matches wins.
type Table struct {
	Rules     []Rule
	Overrides int
}

// Lookup returns the rule pricing a model, or nil. A rule that names a
// provider prices only that provider's models (compared without regard
// to case): a model whose provider is not known matches only rules that
// name none.
func (t *Table) Lookup(provider, model string) *Rule {
	if t == nil || model == "" {
		return nil
	}
	n := min(max(t.Overrides, 0), len(t.Rules))
	if r := lookup(t.Rules[:n], provider, model); r != nil {
		return r
	}
	return lookup(t.Rules[n:], provider, model)
}

func lookup(rules []Rule, provider, model string) *Rule {
	var glob *Rule
	for i := range rules {
		r := &rules[i]
		if r.Provider != "" && !strings.EqualFold(r.Provider, provider) {
			continue
		}
		if r.Model == model {
			return r
		}
		if glob == nil && isGlob(r.Model) {
			if ok, _ := path.Match(r.Model, model); ok {
				glob = r
			}
		}
	}
	return glob
}

func isGlob(p string) bool { return strings.ContainsAny(p, "*?[") }

// ValidGlob reports whether a rule's model pattern is well formed.
func ValidGlob(p string) bool {
	_, err := path.Match(p, "")
	return err == nil
}

// Of returns what tokens cost at price p, and whether it could be said:
// the input and output counts must be known.
func (p Price) Of(t Tokens) (float64, bool) {
	in, okIn := t.Get(Input)
	out, okOut := t.Get(Output)
	if !okIn || !okOut {
		return 0, false
	}
	cached, _ := t.Get(CachedInput)
	write, _ := t.Get(CacheWrite)
	reasoning, _ := t.Get(Reasoning)
	plain := max(in-cached-write, 0)
	usd := float64(plain) * p.Input
	usd += float64(cached) * or(p.CachedInput, p.Input)
	usd += float64(write) * or(p.CacheWrite, p.Input)
	if p.Reasoning != nil {
		usd += float64(max(out-reasoning, 0))*p.Output + float64(min(reasoning, out))**p.Reasoning
	} else {
		usd += float64(out) * p.Output
	}
	return usd / 1e6, true
}

func or(p *float64, d float64) float64 {
	if p != nil {
		return *p
	}
	return d
}

// Apply prices every model of the spend that has no cost the source
// reported: from the table, or unknown (nil) when the table has no rule
// for it or its input and output counts are not known.
func (t *Table) Apply(s *Spend) {
	if s == nil {
		return
	}
	for i := range s.Models {
		m := &s.Models[i]
		if m.CostFrom == FromSource {
			continue
		}
		m.CostUSD, m.CostFrom = nil, ""
		r := t.Lookup(m.Provider, m.Model)
		if r == nil {
			continue
		}
		if usd, ok := r.Price.Of(m.Tokens); ok {
			m.CostUSD, m.CostFrom = &usd, FromPrice
		}
	}
}
