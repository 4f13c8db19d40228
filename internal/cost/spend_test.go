package cost

import (
	"encoding/json"
	"reflect"
	"testing"
)

func usd(v float64) *float64 { return &v }

func TestSpendAdd(t *testing.T) {
	var s Spend
	s.Add(Usage{Provider: "openai", Model: "gpt-4o-mini", Tokens: tok(in, 100, out, 10)},
		Usage{Provider: "openai", Model: "gpt-4o-mini", Tokens: tok(in, 50, out, 5)},
		Usage{Provider: "anthropic", Model: "claude-haiku-4-5", Tokens: tok(in, 7, out, 3)})
	s.Add(Usage{Provider: "openai", Model: "gpt-4o-mini", Tokens: tok(in, 1, out, 1)})
	s.Add() // a part that used nothing
	if s.Reported != 3 || s.Unreported != 0 || s.Partial() {
		t.Errorf("parts: %d reported, %d unreported, partial %v", s.Reported, s.Unreported, s.Partial())
	}
	want := []Usage{
		{Provider: "openai", Model: "gpt-4o-mini", Tokens: tok(in, 151, out, 16, tot, 167)},
		{Provider: "anthropic", Model: "claude-haiku-4-5", Tokens: tok(in, 7, out, 3)},
	}
	if !reflect.DeepEqual(s.Models, want) {
		t.Errorf("models: %s, want %s", js(t, s.Models), js(t, want))
	}
	if n, ok := s.TotalTokens(); !ok || n != 177 {
		t.Errorf("TotalTokens = %d, %v", n, ok)
	}
	// Same model, another provider: kept apart.
	s.Add(Usage{Provider: "azure", Model: "gpt-4o-mini", Tokens: tok(in, 1, out, 1)})
	if len(s.Models) != 3 {
		t.Errorf("a model of another provider was merged: %s", js(t, s.Models))
	}
}

func TestSpendMissingAndPartial(t *testing.T) {
	var s Spend
	s.Add(Usage{Model: "m", Tokens: tok(in, 10, out, 5), CostUSD: usd(0.5), CostFrom: FromPrice})
	s.Missing()
	if !s.Partial() || s.Reported != 1 || s.Unreported != 1 {
		t.Fatalf("partial %v, %d reported, %d unreported", s.Partial(), s.Reported, s.Unreported)
	}
	if n, ok := s.TotalTokens(); !ok || n != 15 {
		t.Errorf("a partial spend's total is its lower bound: %d, %v", n, ok)
	}
	if c, ok := s.CostUSD(); ok {
		t.Errorf("a partial spend's cost is unknown, got %v", c)
	}
	var none *Spend
	if none.Partial() {
		t.Error("nil is unknown, not partial")
	}
	if n, ok := none.TotalTokens(); ok || n != 0 {
		t.Errorf("nil TotalTokens = %d, %v", n, ok)
	}
	if _, ok := none.CostUSD(); ok {
		t.Error("nil has no cost")
	}
	if !none.Tokens().Empty() {
		t.Error("nil has no tokens")
	}
}

func TestSpendNothingUsed(t *testing.T) {
	var s Spend
	s.Add()
	if n, ok := s.TotalTokens(); !ok || n != 0 {
		t.Errorf("a part that used nothing: TotalTokens = %d, %v; want a known 0", n, ok)
	}
	if c, ok := s.CostUSD(); !ok || c != 0 {
		t.Errorf("a part that used nothing: CostUSD = %v, %v; want a known 0", c, ok)
	}
}

func TestSpendCostUSD(t *testing.T) {
	priced := Usage{Model: "a", Tokens: tok(in, 1, out, 1), CostUSD: usd(0.25), CostFrom: FromPrice}
	reported := Usage{Model: "b", Tokens: tok(in, 1, out, 1), CostUSD: usd(0.5), CostFrom: FromSource}
	unpriced := Usage{Model: "c", Tokens: tok(in, 1, out, 1)}
	for _, tc := range []struct {
		name    string
		parts   [][]Usage
		missing int
		want    float64
		known   bool
	}{
		{"all priced", [][]Usage{{priced}, {reported}}, 0, 0.75, true},
		{"one model has no price", [][]Usage{{priced}, {unpriced}}, 0, 0, false},
		{"a part unreported", [][]Usage{{priced}}, 1, 0, false},
		{"same model twice", [][]Usage{{priced}, {priced}}, 0, 0.5, true},
	} {
		var s Spend
		for _, p := range tc.parts {
			s.Add(p...)
		}
		for range tc.missing {
			s.Missing()
		}
		c, ok := s.CostUSD()
		if ok != tc.known || ok && c != tc.want {
			t.Errorf("%s: CostUSD = %v, %v; want %v, %v", tc.name, c, ok, tc.want, tc.known)
		}
	}
}

func TestSpendMergeCosts(t *testing.T) {
	for _, tc := range []struct {
		name     string
		a, b     Usage
		wantCost *float64
		wantFrom string
	}{
		{"priced + priced", Usage{Model: "m", CostUSD: usd(1), CostFrom: FromPrice}, Usage{Model: "m", CostUSD: usd(2), CostFrom: FromPrice}, usd(3), FromPrice},
		{"reported + reported", Usage{Model: "m", CostUSD: usd(1), CostFrom: FromSource}, Usage{Model: "m", CostUSD: usd(2), CostFrom: FromSource}, usd(3), FromSource},
		{"a mix is as reported", Usage{Model: "m", CostUSD: usd(1), CostFrom: FromPrice}, Usage{Model: "m", CostUSD: usd(2), CostFrom: FromSource}, usd(3), FromSource},
		{"unknown + known", Usage{Model: "m"}, Usage{Model: "m", CostUSD: usd(2), CostFrom: FromPrice}, nil, ""},
	} {
		var s Spend
		s.Add(tc.a)
		s.Add(tc.b)
		m := s.Models[0]
		if !reflect.DeepEqual(m.CostUSD, tc.wantCost) || m.CostFrom != tc.wantFrom {
			t.Errorf("%s: cost %v from %q; want %v from %q", tc.name, js(t, m.CostUSD), m.CostFrom, js(t, tc.wantCost), tc.wantFrom)
		}
	}
}

func TestSpendAddCopiesCost(t *testing.T) {
	c := usd(1)
	var s Spend
	s.Add(Usage{Model: "m", CostUSD: c, CostFrom: FromPrice})
	*c = 99
	if got := *s.Models[0].CostUSD; got != 1 {
		t.Errorf("the spend shares the caller's cost: %v", got)
	}
	clone := s.Clone()
	*clone.Models[0].CostUSD = 7
	clone.Models[0].Model = "other"
	if *s.Models[0].CostUSD != 1 || s.Models[0].Model != "m" {
		t.Error("Clone shares the original's models")
	}
	if (*Spend)(nil).Clone() != nil {
		t.Error("the clone of nil is nil")
	}
}

func TestMergeAndSum(t *testing.T) {
	a := &Spend{}
	a.Add(Usage{Model: "m", Tokens: tok(in, 10, out, 1)})
	b := &Spend{}
	b.Add(Usage{Model: "m", Tokens: tok(in, 5, out, 1)})
	b.Missing()

	var m Spend
	m.Merge(a, 1)
	m.Merge(nil, 2) // a scope with no usage: two parts unreported
	m.Merge(b, 3)
	if m.Reported != 2 || m.Unreported != 3 {
		t.Errorf("Merge: %d reported, %d unreported; want 2, 3", m.Reported, m.Unreported)
	}
	if n, _ := m.TotalTokens(); n != 17 {
		t.Errorf("Merge: total %d, want 17", n)
	}

	if Sum() != nil || Sum(nil, nil) != nil {
		t.Error("Sum of nothing reported is nil")
	}
	s := Sum(nil, a, nil)
	if s == nil || s.Reported != 1 || s.Unreported != 2 || !s.Partial() {
		t.Fatalf("Sum(nil, a, nil) = %s", js(t, s))
	}
	if n, _ := s.TotalTokens(); n != 11 {
		t.Errorf("Sum total %d, want 11", n)
	}
	s = Sum(a, b)
	if s.Reported != 2 || s.Unreported != 1 {
		t.Errorf("Sum(a, b) keeps b's unreported part: %s", js(t, s))
	}
	if a.Reported != 1 || len(a.Models) != 1 || a.Models[0].Tokens != tok(in, 10, out, 1) {
		t.Errorf("Sum changed its part: %s", js(t, a))
	}
}

func TestSpendTokensAcrossModels(t *testing.T) {
	var s Spend
	s.Add(Usage{Model: "a", Tokens: tok(in, 10, out, 2, cch, 4)}, Usage{Model: "b", Tokens: tok(in, 1, out, 1)})
	got := s.Tokens()
	if n, ok := got.Get(Input); !ok || n != 11 {
		t.Errorf("input %d, %v", n, ok)
	}
	if got.Known(CachedInput) {
		t.Error("a count one model did not report is not known over the spend")
	}
}

func TestSpendJSON(t *testing.T) {
	var s Spend
	s.Add(Usage{Provider: "openai", Model: "gpt-4o-mini", Tokens: tok(in, 100, out, 20), CostUSD: usd(0.25), CostFrom: FromPrice})
	got := js(t, s)
	want := `{"tokens":{"input_tokens":100,"output_tokens":20,"total_tokens":120},"cost_usd":0.25,"models":[{"provider":"openai","model":"gpt-4o-mini","tokens":{"input_tokens":100,"output_tokens":20,"total_tokens":120},"cost_usd":0.25,"cost_from":"price"}],"reported":1}`
	if got != want {
		t.Errorf("JSON:\n%s\nwant\n%s", got, want)
	}
	var back Spend
	if err := json.Unmarshal([]byte(got), &back); err != nil {
		t.Fatal(err)
	}
	if again := js(t, back); again != got {
		t.Errorf("written again as\n%s", again)
	}

	s.Missing()
	got = js(t, &s)
	want = `{"tokens":{"input_tokens":100,"output_tokens":20,"total_tokens":120},"partial":true,"models":[{"provider":"openai","model":"gpt-4o-mini","tokens":{"input_tokens":100,"output_tokens":20,"total_tokens":120},"cost_usd":0.25,"cost_from":"price"}],"reported":1,"unreported":1}`
	if got != want {
		t.Errorf("partial JSON:\n%s\nwant\n%s", got, want)
	}

	var empty Spend
	empty.Add()
	got = js(t, empty)
	if want := `{"tokens":{"input_tokens":0,"output_tokens":0,"total_tokens":0,"reasoning_tokens":0,"cached_input_tokens":0,"cache_write_input_tokens":0},"cost_usd":0,"models":[],"reported":1}`; got != want {
		t.Errorf("nothing used:\n%s\nwant\n%s", got, want)
	}
	if err := json.Unmarshal([]byte(got), &back); err != nil || !reflect.DeepEqual(back, empty) {
		t.Errorf("nothing used after a round trip: %v, %#v", err, back)
	}

	var none *Spend
	if got := js(t, struct {
		U *Spend `json:"usage,omitempty"`
	}{none}); got != `{}` {
		t.Errorf("nil spend: %s", got)
	}
	if err := json.Unmarshal([]byte(`{"models":7}`), &back); err == nil {
		t.Error("bad JSON read without error")
	}
}

func TestLabel(t *testing.T) {
	for _, tc := range []struct {
		u    Usage
		want string
	}{
		{Usage{Provider: "openai", Model: "gpt-4o"}, "openai/gpt-4o"},
		{Usage{Model: "gpt-4o"}, "gpt-4o"},
		{Usage{Provider: "openai"}, "openai (model not named)"},
		{Usage{}, "unnamed model"},
	} {
		if got := tc.u.Label(); got != tc.want {
			t.Errorf("Label(%+v) = %q, want %q", tc.u, got, tc.want)
		}
	}
}
