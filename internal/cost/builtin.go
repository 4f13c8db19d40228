package cost

// BuiltinDate is when the built-in prices were taken from the providers'
// published price lists (docs/cost.md). Prices change: a config's
// pricing: overrides any of them.
const BuiltinDate = "2025-11"

// Builtin is the built-in price table: widely used models at their list
// prices in USD per million tokens (standard tier, no batch discount, the
// lowest context tier where a price depends on the prompt's length).
func Builtin() []Rule {
	p := func(in, out, cached float64, write ...float64) Price {
		pr := Price{Input: in, Output: out, CachedInput: &cached}
		if len(write) > 0 {
			pr.CacheWrite = &write[0]
		}
		return pr
	}
	rules := []Rule{
		// OpenAI
		{Model: "gpt-5", Price: p(1.25, 10, 0.125)},
		{Model: "gpt-5-20*", Price: p(1.25, 10, 0.125)},
		{Model: "gpt-5-mini*", Price: p(0.25, 2, 0.025)},
		{Model: "gpt-5-nano*", Price: p(0.05, 0.40, 0.005)},
		{Model: "gpt-4.1", Price: p(2, 8, 0.50)},
		{Model: "gpt-4.1-20*", Price: p(2, 8, 0.50)},
		{Model: "gpt-4.1-mini*", Price: p(0.40, 1.60, 0.10)},
		{Model: "gpt-4.1-nano*", Price: p(0.10, 0.40, 0.025)},
		{Model: "gpt-4o", Price: p(2.50, 10, 1.25)},
		{Model: "gpt-4o-20*", Price: p(2.50, 10, 1.25)},
		{Model: "gpt-4o-mini*", Price: p(0.15, 0.60, 0.075)},
		{Model: "o3", Price: p(2, 8, 0.50)},
		{Model: "o3-20*", Price: p(2, 8, 0.50)},
		{Model: "o4-mini*", Price: p(1.10, 4.40, 0.275)},
		// Anthropic (cache reads at 0.1×, 5-minute cache writes at 1.25× input)
		{Model: "claude-opus-4-5*", Price: p(5, 25, 0.50, 6.25)},
		{Model: "claude-opus-4-1*", Price: p(15, 75, 1.50, 18.75)},
		{Model: "claude-opus-4-2*", Price: p(15, 75, 1.50, 18.75)},
		{Model: "claude-sonnet-4-5*", Price: p(3, 15, 0.30, 3.75)},
		{Model: "claude-opus-4-0", Price: p(15, 75, 1.50, 18.75)},
		{Model: "claude-sonnet-4-2*", Price: p(3, 15, 0.30, 3.75)},
		{Model: "claude-sonnet-4-0", Price: p(3, 15, 0.30, 3.75)},
		{Model: "claude-haiku-4-5*", Price: p(1, 5, 0.10, 1.25)},
		{Model: "claude-3-7-sonnet*", Price: p(3, 15, 0.30, 3.75)},
		{Model: "claude-3-5-haiku*", Price: p(0.80, 4, 0.08, 1)},
		// Google (prompts up to 200k tokens)
		{Model: "gemini-2.5-pro*", Price: p(1.25, 10, 0.31)},
		{Model: "gemini-2.5-flash-lite*", Price: p(0.10, 0.40, 0.025)},
		{Model: "gemini-2.5-flash", Price: p(0.30, 2.50, 0.075)},
		{Model: "gemini-2.5-flash-0*", Price: p(0.30, 2.50, 0.075)},
		{Model: "gemini-2.0-flash*", Price: p(0.10, 0.40, 0.025)},
	}
	for i := range rules {
		rules[i].Origin = "built-in table (" + BuiltinDate + ")"
	}
	return rules
}

// NewTable is the config's rules followed by the built-in ones: the
// config's are looked up first (Table).
func NewTable(config []Rule) *Table {
	return &Table{Rules: append(append([]Rule(nil), config...), Builtin()...), Overrides: len(config)}
}
