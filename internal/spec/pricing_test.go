package spec

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ananke/action/internal/cost"
)

const pricingTest = "version: \"1.0\"\nname: t\nturns: [{user: hi}]\n"

func f64(v float64) *float64 { return &v }

func TestPricing(t *testing.T) {
	cfg := minimalConfig + `pricing:
  gpt-4o-mini: {input: 0.15, output: 0.60, cached_input: 0.075}
  "claude-*": {provider: anthropic, input: 3, output: 15, cache_write: 3.75, reasoning: 15}
  "gemini-2.?-*":
    - {provider: google, input: 1, output: 2}
    - {provider: vertex, input: 1.25, output: 2.5}
  free: {input: 0, output: 0}
budget: {max_cost_usd: 2.5, max_total_tokens: 2_000_000}
`
	s, diags := loadSuite(t, map[string]string{"ananke.config.yaml": cfg, "t.ananke.yaml": pricingTest})
	if diags != nil {
		t.Fatal(diags)
	}
	want := []cost.Rule{
		{Model: "gpt-4o-mini", Price: cost.Price{Input: 0.15, Output: 0.60, CachedInput: f64(0.075)}},
		{Provider: "anthropic", Model: "claude-*", Price: cost.Price{Input: 3, Output: 15, CacheWrite: f64(3.75), Reasoning: f64(15)}},
		{Provider: "google", Model: "gemini-2.?-*", Price: cost.Price{Input: 1, Output: 2}},
		{Provider: "vertex", Model: "gemini-2.?-*", Price: cost.Price{Input: 1.25, Output: 2.5}},
		{Model: "free", Price: cost.Price{}},
	}
	got := s.Config.Pricing
	origins := []string{":7:16", ":8:15", ":10:7", ":11:7", ":12:9"}
	if len(got) != len(want) {
		t.Fatalf("%d rules, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if !strings.HasSuffix(got[i].Origin, "ananke.config.yaml"+origins[i]) {
			t.Errorf("rule %d: origin %q, want …ananke.config.yaml%s", i, got[i].Origin, origins[i])
		}
		got[i].Origin = ""
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("rule %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	// The config's rules come before the built-in ones.
	tbl := cost.NewTable(s.Config.Pricing)
	if r := tbl.Lookup("anthropic", "claude-haiku-4-5"); r == nil || r.Price.Input != 3 {
		t.Errorf("claude-haiku-4-5 from anthropic is priced by %+v, want the config's rule", r)
	}
	if r := tbl.Lookup("bedrock", "claude-haiku-4-5"); r == nil || r.Price.Input != 1 {
		t.Errorf("claude-haiku-4-5 from bedrock is priced by %+v, want the built-in rule", r)
	}
	b := s.Config.Budget
	if b == nil || b.MaxCostUSD == nil || *b.MaxCostUSD != 2.5 || b.MaxTotalTokens == nil || *b.MaxTotalTokens != 2_000_000 {
		t.Fatalf("budget %+v", b)
	}
	if b.MaxCostPos.Line != 13 || b.MaxCostPos.Col != 24 || b.MaxTokensPos.Line != 13 || b.MaxTokensPos.Col != 47 {
		t.Errorf("budget positions %v, %v", b.MaxCostPos, b.MaxTokensPos)
	}
	if s2, _ := loadSuite(t, map[string]string{"ananke.config.yaml": minimalConfig, "t.ananke.yaml": pricingTest}); s2.Config.Budget != nil || s2.Config.Pricing != nil {
		t.Error("a config without pricing: or budget: has none")
	}
}

// TestPricingErrors: every problem of pricing: and budget: is reported
// at its place, all at once.
func TestPricingErrors(t *testing.T) {
	cfg := minimalConfig + `pricing:
  "gpt-[": {input: 1, output: 2}
  neg: {input: -1, output: 2, cached_input: -0.5}
  typo: {input: 1, output: 2, cache_read: 1}
  half: {input: 1}
  words: {input: cheap, output: 2}
  twice:
    - {provider: openai, input: 1, output: 2}
    - {provider: OpenAI, input: 1, output: 2}
  blank: {provider: "", input: 1, output: 2}
  "": {input: 1, output: 2}
  listed: [1]
budget: {max_cost_usd: 0, max_total_tokens: 1.5, max_input_tokens: 3}
`
	_, diags := loadSuite(t, map[string]string{"ananke.config.yaml": cfg, "t.ananke.yaml": pricingTest})
	for _, want := range []string{
		`ananke.config.yaml:7:3: pricing: "gpt-[" is not a valid model glob`,
		`ananke.config.yaml:8:16: pricing.neg.input must not be negative, got -1`,
		`ananke.config.yaml:8:45: pricing.neg.cached_input must not be negative, got -0.5`,
		`ananke.config.yaml:9:31: unknown field "cache_read" in pricing.typo`,
		`ananke.config.yaml:10:9: pricing.half is missing required field "output"`,
		`ananke.config.yaml:11:18: pricing.words.input must be a number, not a string`,
		`ananke.config.yaml:14:7: pricing.twice[1]: a second price for provider "OpenAI"`,
		`ananke.config.yaml:15:21: pricing.blank.provider must not be empty`,
		`ananke.config.yaml:16:3: pricing: a model name must not be empty`,
		`ananke.config.yaml:17:12: pricing.listed[0] must be a mapping, not a number`,
		`ananke.config.yaml:18:24: budget.max_cost_usd must be more than 0 US dollars, got 0`,
		`ananke.config.yaml:18:45: budget.max_total_tokens must be a whole number`,
		`ananke.config.yaml:18:50: unknown field "max_input_tokens" in budget`,
	} {
		if !hasDiag(diags, want) {
			t.Errorf("diagnostics:\n%s\nwant %q", diags, want)
		}
	}
	if len(diags) != 13 {
		t.Errorf("%d problems, want 13:\n%s", len(diags), diags)
	}
	for _, tc := range []struct{ yaml, want string }{
		{"pricing: [gpt-4o]\n", "ananke.config.yaml:6:10: pricing must be a mapping of model names (or globs) to prices, not a list"},
		{"budget: {}\n", "ananke.config.yaml:6:9: budget is empty: add max_cost_usd or max_total_tokens"},
		{"budget: 5\n", "ananke.config.yaml:6:9: budget must be a mapping"},
	} {
		_, diags := loadSuite(t, map[string]string{"ananke.config.yaml": minimalConfig + tc.yaml, "t.ananke.yaml": pricingTest})
		if !hasDiag(diags, tc.want) {
			t.Errorf("%s: diagnostics:\n%s\nwant %q", strings.TrimSpace(tc.yaml), diags, tc.want)
		}
	}
}
