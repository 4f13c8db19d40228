package cost

import (
	"math"
	"strings"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func TestPriceOf(t *testing.T) {
	base := Price{Input: 2, Output: 10}
	full := Price{Input: 2, Output: 10, CachedInput: usd(0.5), CacheWrite: usd(2.5), Reasoning: usd(20)}
	for _, tc := range []struct {
		name  string
		p     Price
		t     Tokens
		want  float64
		known bool
	}{
		{"input and output", base, tok(in, 1_000_000, out, 100_000), 2 + 1, true},
		{"cached at the input price without its own", base, tok(in, 1_000_000, out, 0, cch, 400_000), 2, true},
		{"cached at its price", full, tok(in, 1_000_000, out, 0, cch, 400_000), 0.6*2 + 0.4*0.5, true},
		{"cache writes at their price", full, tok(in, 1_000_000, out, 0, wrt, 200_000), 0.8*2 + 0.2*2.5, true},
		{"cached and written", full, tok(in, 1_000_000, out, 0, cch, 500_000, wrt, 500_000), 0.5*0.5 + 0.5*2.5, true},
		{"reasoning at its price", full, tok(in, 0, out, 1_000_000, rsn, 250_000), 0.75*10 + 0.25*20, true},
		{"reasoning at the output price without its own", base, tok(in, 0, out, 1_000_000, rsn, 250_000), 10, true},
		{"reasoning above output counts output only", full, tok(in, 0, out, 100, rsn, 500), 100 * 20 / 1e6, true},
		{"subsets above input charge no plain input", full, tok(in, 10, out, 0, cch, 20), 20 * 0.5 / 1e6, true},
		{"zero tokens cost zero", full, tok(in, 0, out, 0), 0, true},
		{"output unknown", base, tok(in, 10), 0, false},
		{"input unknown", base, tok(out, 10, tot, 20), 0, false},
	} {
		got, ok := tc.p.Of(tc.t)
		if ok != tc.known || ok && !near(got, tc.want) {
			t.Errorf("%s: Of = %v, %v; want %v, %v", tc.name, got, ok, tc.want, tc.known)
		}
	}
}

func TestLookup(t *testing.T) {
	tbl := &Table{Rules: []Rule{
		{Model: "gpt-4o*", Origin: "glob 1"},
		{Model: "gpt-4o-mini*", Origin: "glob 2"},
		{Model: "gpt-4o-mini", Origin: "exact"},
		{Provider: "Anthropic", Model: "claude-*", Origin: "anthropic"},
		{Provider: "bedrock", Model: "claude-*", Origin: "bedrock"},
		{Model: "claude-*", Origin: "any provider"},
		{Provider: "openai", Model: "o3", Origin: "openai o3"},
	}}
	for _, tc := range []struct {
		provider, model, want string
	}{
		{"", "gpt-4o-mini", "exact"},             // exact beats an earlier glob
		{"", "gpt-4o-mini-2024-07-18", "glob 1"}, // the first glob that matches
		{"", "gpt-4o", "glob 1"},
		{"anthropic", "claude-haiku-4-5", "anthropic"}, // provider compared without case
		{"bedrock", "claude-haiku-4-5", "bedrock"},
		{"vertex", "claude-haiku-4-5", "any provider"},
		{"", "claude-haiku-4-5", "any provider"}, // an unknown provider matches rules naming none
		{"openai", "o3", "openai o3"},
		{"azure", "o3", ""},
		{"", "o3", ""},
		{"", "gemini-2.5-pro", ""},
		{"openai", "", ""}, // no model, no price
	} {
		r := tbl.Lookup(tc.provider, tc.model)
		got := ""
		if r != nil {
			got = r.Origin
		}
		if got != tc.want {
			t.Errorf("Lookup(%q, %q) = %q, want %q", tc.provider, tc.model, got, tc.want)
		}
	}
	var none *Table
	if none.Lookup("", "gpt-4o") != nil {
		t.Error("a nil table prices nothing")
	}
}

func TestNewTableConfigFirst(t *testing.T) {
	cfg := []Rule{
		{Model: "gpt-4o*", Price: Price{Input: 9, Output: 9}, Origin: "ananke.yaml:3:3"},
		{Model: "my-model", Price: Price{Input: 1, Output: 1}, Origin: "ananke.yaml:4:3"},
	}
	tbl := NewTable(cfg)
	if tbl.Overrides != 2 || len(tbl.Rules) != 2+len(Builtin()) {
		t.Fatalf("NewTable: %d rules, %d overrides", len(tbl.Rules), tbl.Overrides)
	}
	for _, tc := range []struct{ model, want string }{
		{"gpt-4o", "ananke.yaml:3:3"}, // a config glob overrides a built-in exact name
		{"gpt-4o-mini", "ananke.yaml:3:3"},
		{"my-model", "ananke.yaml:4:3"},
		{"gpt-4.1", "built-in table (" + BuiltinDate + ")"},
	} {
		if r := tbl.Lookup("openai", tc.model); r == nil || r.Origin != tc.want {
			t.Errorf("Lookup(%q) = %+v, want from %s", tc.model, r, tc.want)
		}
	}
	cfg[0].Model = "changed"
	if tbl.Rules[0].Model != "gpt-4o*" {
		t.Error("NewTable shares the config's rules")
	}
	// Overrides out of range are clamped.
	if r := (&Table{Rules: cfg, Overrides: 9}).Lookup("", "my-model"); r == nil {
		t.Error("Overrides beyond the rules")
	}
}

func TestApply(t *testing.T) {
	tbl := &Table{Rules: []Rule{{Model: "m", Price: Price{Input: 1, Output: 2}}}}
	s := &Spend{}
	s.Add(Usage{Model: "m", Tokens: tok(in, 1_000_000, out, 1_000_000)},
		Usage{Model: "unpriced", Tokens: tok(in, 1, out, 1), CostUSD: usd(5), CostFrom: FromPrice}, // a stale price goes
		Usage{Model: "m", Provider: "p", Tokens: tok(in, 1)},                                       // output unknown
		Usage{Model: "reported", Tokens: tok(in, 1, out, 1), CostUSD: usd(0.7), CostFrom: FromSource})
	tbl.Apply(s)
	want := []struct {
		cost *float64
		from string
	}{{usd(3), FromPrice}, {nil, ""}, {nil, ""}, {usd(0.7), FromSource}}
	for i, w := range want {
		m := s.Models[i]
		if (m.CostUSD == nil) != (w.cost == nil) || m.CostUSD != nil && !near(*m.CostUSD, *w.cost) || m.CostFrom != w.from {
			t.Errorf("%s: cost %s from %q, want %s from %q", m.Label(), js(t, m.CostUSD), m.CostFrom, js(t, w.cost), w.from)
		}
	}
	tbl.Apply(s) // again: the same
	if c := s.Models[0].CostUSD; c == nil || !near(*c, 3) {
		t.Error("Apply is not idempotent")
	}
	tbl.Apply(nil) // a nil spend is left alone
	var none *Table
	none.Apply(s)
	if s.Models[0].CostUSD != nil {
		t.Error("a nil table leaves every priced model unknown")
	}
	if c := s.Models[3].CostUSD; c == nil || *c != 0.7 {
		t.Error("a nil table drops a reported cost")
	}
}

func TestValidGlob(t *testing.T) {
	for _, tc := range []struct {
		p  string
		ok bool
	}{
		{"gpt-4o", true}, {"claude-*", true}, {"o?", true}, {"gpt-[45]*", true},
		{"gpt-[", false}, {"[", false}, {`gpt\`, false}, {"a[]", false},
	} {
		if got := ValidGlob(tc.p); got != tc.ok {
			t.Errorf("ValidGlob(%q) = %v, want %v", tc.p, got, tc.ok)
		}
	}
}

func TestBuiltin(t *testing.T) {
	rules := Builtin()
	if len(rules) == 0 {
		t.Fatal("no built-in prices")
	}
	seen := map[string]bool{}
	for _, r := range rules {
		if !ValidGlob(r.Model) {
			t.Errorf("%s: not a valid glob", r.Model)
		}
		key := r.Provider + "/" + r.Model
		if seen[key] {
			t.Errorf("%s: listed twice", key)
		}
		seen[key] = true
		if r.Price.Input <= 0 || r.Price.Output <= 0 {
			t.Errorf("%s: input and output prices must be positive: %+v", r.Model, r.Price)
		}
		for _, p := range []*float64{r.Price.CachedInput, r.Price.CacheWrite, r.Price.Reasoning} {
			if p != nil && *p < 0 {
				t.Errorf("%s: a negative price", r.Model)
			}
		}
		if r.Origin != "built-in table ("+BuiltinDate+")" {
			t.Errorf("%s: origin %q", r.Model, r.Origin)
		}
	}
	// Names as providers report them find the price meant for them.
	tbl := NewTable(nil)
	for _, tc := range []struct {
		model     string
		in, out   float64
		unpriced  bool
		cachedOff bool
	}{
		{model: "gpt-4o-mini", in: 0.15, out: 0.60},
		{model: "gpt-4o-mini-2024-07-18", in: 0.15, out: 0.60},
		{model: "gpt-4o", in: 2.50, out: 10},
		{model: "gpt-4o-2024-08-06", in: 2.50, out: 10},
		{model: "gpt-4.1-mini-2025-04-14", in: 0.40, out: 1.60},
		{model: "gpt-5-2025-08-07", in: 1.25, out: 10},
		{model: "gpt-5-mini", in: 0.25, out: 2},
		{model: "o3", in: 2, out: 8},
		{model: "claude-sonnet-4-5-20250929", in: 3, out: 15},
		{model: "claude-sonnet-4-20250514", in: 3, out: 15},
		{model: "claude-sonnet-4-0", in: 3, out: 15},
		{model: "claude-opus-4-20250514", in: 15, out: 75},
		{model: "claude-opus-4-0", in: 15, out: 75},
		{model: "claude-opus-4-1-20250805", in: 15, out: 75},
		{model: "claude-opus-4-5", in: 5, out: 25},
		{model: "claude-haiku-4-5-20251001", in: 1, out: 5},
		{model: "gemini-2.5-flash", in: 0.30, out: 2.50},
		{model: "gemini-2.5-flash-lite", in: 0.10, out: 0.40},
		{model: "gemini-2.5-pro", in: 1.25, out: 10},
		{model: "gpt-3.5-turbo", unpriced: true},
		{model: "o3-mini", unpriced: true},
		{model: "llama3", unpriced: true},
	} {
		r := tbl.Lookup("", tc.model)
		if tc.unpriced {
			if r != nil {
				t.Errorf("%s: priced by %s, want no price", tc.model, r.Model)
			}
			continue
		}
		if r == nil || r.Price.Input != tc.in || r.Price.Output != tc.out {
			t.Errorf("%s: priced by %+v, want %v in / %v out", tc.model, r, tc.in, tc.out)
		}
	}
	// Anthropic's list prices its cache writes; every Claude rule does.
	for _, r := range rules {
		if strings.HasPrefix(r.Model, "claude-") && r.Price.CacheWrite == nil {
			t.Errorf("%s: no cache-write price", r.Model)
		}
	}
}
