package spec

import (
	"math"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
)

// The config's pricing: and budget: (docs/cost.md): what models cost,
// before the built-in table, and bounds on what the whole run's agent
// used.

// RunBudget is the config's budget: bounds on what every test's agent
// used in the run together (the report's totals). A bound not written is
// nil; a run over one fails.
type RunBudget struct {
	Pos diag.Pos
	// MaxCostUSD bounds the run's cost in US dollars, MaxTotalTokens its
	// total tokens; each is written at its Pos.
	MaxCostUSD     *float64
	MaxCostPos     diag.Pos
	MaxTotalTokens *int64
	MaxTokensPos   diag.Pos
}

var (
	priceFields     = []string{"provider", "input", "output", "cached_input", "cache_write", "reasoning"}
	runBudgetFields = []string{"max_cost_usd", "max_total_tokens"}
)

// pricing reads the config's pricing: a mapping of a model name or glob
// to its price, or to a list of prices for different providers (a key
// written twice is the YAML parser's error). The rules keep the file's
// order; every problem is reported at its place.
func (l *loader) pricing(n *yaml.Node) []cost.Rule {
	m := l.Deref(n)
	if m == nil {
		return nil
	}
	if m.Kind != yaml.MappingNode {
		l.Errorf(m, "pricing must be a mapping of model names (or globs) to prices, not %s", decode.KindName(m))
		return nil
	}
	var out []cost.Rule
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := l.Deref(m.Content[i])
		if k == nil {
			continue
		}
		if k.Kind != yaml.ScalarNode || k.ShortTag() == "!!merge" {
			l.Errorf(k, "pricing: each key must be a model name or glob, not %s", decode.KindName(k))
			continue
		}
		model := k.Value
		what := "pricing." + model
		switch {
		case strings.TrimSpace(model) == "":
			l.Errorf(k, "pricing: a model name must not be empty")
			continue
		case !cost.ValidGlob(model):
			l.Errorf(k, "pricing: %q is not a valid model glob (* any text, ? one character, [abc] a set; quote it in YAML)", model)
			continue
		}
		v := l.Deref(m.Content[i+1])
		if v == nil {
			continue
		}
		if v.Kind != yaml.SequenceNode {
			if r, ok := l.price(v, model, what); ok {
				out = append(out, r)
			}
			continue
		}
		providers := map[string]bool{}
		for j, item := range v.Content {
			w := decode.Index(what, j)
			r, ok := l.price(item, model, w)
			if !ok {
				continue
			}
			p := strings.ToLower(r.Provider)
			if providers[p] {
				l.Errorf(l.DerefQuiet(item), "%s: a second price for provider %q; each entry of the list prices one provider", w, r.Provider)
				continue
			}
			providers[p] = true
			out = append(out, r)
		}
	}
	return out
}

// price reads one price: input and output, and what is optional.
func (l *loader) price(n *yaml.Node, model, what string) (cost.Rule, bool) {
	f, ok := l.Fields(n, what, priceFields)
	if !ok {
		return cost.Rule{}, false
	}
	r := cost.Rule{Model: model, Origin: l.Pos(l.DerefQuiet(n)).String()}
	good := true
	if _, in := f["input"]; !in {
		good = false
	}
	if _, out := f["output"]; !out {
		good = false
	}
	l.Require(n, f, what, "input", "output")
	if p, ok := f["provider"]; ok {
		s, node, ok := l.Text(p.Val, what+".provider")
		switch {
		case !ok:
			good = false
		case strings.TrimSpace(s) == "":
			l.Errorf(node, "%s.provider must not be empty; leave it out to price the model from any provider", what)
			good = false
		default:
			r.Provider = s
		}
	}
	num := func(key string) *float64 {
		p, ok := f[key]
		if !ok {
			return nil
		}
		v, node, ok := l.Number(p.Val, what+"."+key)
		if !ok {
			good = false
			return nil
		}
		if v < 0 {
			l.Errorf(node, "%s.%s must not be negative, got %s", what, key, node.Value)
			good = false
			return nil
		}
		return &v
	}
	if v := num("input"); v != nil {
		r.Price.Input = *v
	}
	if v := num("output"); v != nil {
		r.Price.Output = *v
	}
	r.Price.CachedInput, r.Price.CacheWrite, r.Price.Reasoning = num("cached_input"), num("cache_write"), num("reasoning")
	return r, good
}

// runBudget reads the config's budget: for the whole run.
func (l *loader) runBudget(n *yaml.Node) *RunBudget {
	f, ok := l.Fields(n, "budget", runBudgetFields)
	if !ok {
		return nil
	}
	b := &RunBudget{Pos: l.Pos(l.DerefQuiet(n))}
	if len(f) == 0 {
		l.Errorf(l.DerefQuiet(n), "budget is empty: add max_cost_usd or max_total_tokens")
	}
	if p, ok := f["max_cost_usd"]; ok {
		if v, node, ok := l.Number(p.Val, "budget.max_cost_usd"); ok {
			if v <= 0 {
				l.Errorf(node, "budget.max_cost_usd must be more than 0 US dollars, got %s", node.Value)
			} else {
				b.MaxCostUSD, b.MaxCostPos = &v, l.Pos(node)
			}
		}
	}
	if p, ok := f["max_total_tokens"]; ok {
		if v, ok := l.Integer(p.Val, "budget.max_total_tokens", 1, math.MaxInt64); ok {
			b.MaxTotalTokens, b.MaxTokensPos = &v, l.Pos(l.DerefQuiet(p.Val))
		}
	}
	return b
}

func priceSchema() decode.Obj {
	usd := func(d string) decode.Obj { return decode.Obj{"type": "number", "minimum": 0, "description": d} }
	return decode.Object("A price in US dollars per million tokens.", priceFields, decode.Obj{
		"provider":     decode.Str("Price the model only when this provider reported it (compared without regard to case)."),
		"input":        usd("Every input token not priced below."),
		"output":       usd("Every output token not priced as reasoning."),
		"cached_input": usd("Input tokens read from the provider's cache (default: the input price)."),
		"cache_write":  usd("Input tokens written to the provider's cache (default: the input price)."),
		"reasoning":    usd("Reasoning tokens, a part of the output (default: the output price)."),
	}, "input", "output")
}

func pricingSchema() decode.Obj {
	price := priceSchema()
	return decode.Obj{"type": "object",
		"description":          "What models cost, in US dollars per million tokens, by model name or glob (gpt-4o-mini, \"claude-*\"); looked up before the built-in table (docs/cost.md).",
		"additionalProperties": decode.Obj{"oneOf": []any{price, decode.Obj{"type": "array", "minItems": 1, "items": price, "description": "Prices by provider."}}}}
}

func runBudgetSchema() decode.Obj {
	o := decode.Object("Bounds on what every test's agent used in the run together; a run over one fails (docs/cost.md).", runBudgetFields, decode.Obj{
		"max_cost_usd":     decode.Obj{"type": "number", "exclusiveMinimum": 0, "description": "The run's cost, in US dollars."},
		"max_total_tokens": decode.Positive("The run's total tokens."),
	})
	o["minProperties"] = 1
	return o
}
