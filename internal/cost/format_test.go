package cost

import "testing"

func TestFormatTokens(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{0, "0"}, {950, "950"}, {999, "999"}, {1000, "1k"}, {1049, "1k"}, {1050, "1.1k"}, {1234, "1.2k"},
		{12_400, "12.4k"}, {99_949, "99.9k"}, {99_950, "100k"}, {123_456, "123k"}, {999_499, "999k"},
		{999_500, "1M"}, {999_999, "1M"}, {1_000_000, "1M"}, {3_140_000, "3.1M"}, {123_456_789, "123M"},
	} {
		if got := FormatTokens(tc.n); got != tc.want {
			t.Errorf("FormatTokens(%d) = %q; want %q", tc.n, got, tc.want)
		}
	}
}

func TestFormatUSD(t *testing.T) {
	for _, tc := range []struct {
		usd  float64
		want string
	}{
		{0, "$0.00"}, {0.031, "$0.031"}, {0.0312, "$0.031"}, {0.5, "$0.50"}, {0.1, "$0.10"}, {0.0995, "$0.10"},
		{0.994, "$0.99"}, {0.996, "$1.00"}, {1, "$1.00"}, {1.244, "$1.24"}, {12.4, "$12.40"}, {99.99, "$99.99"},
		{124.4, "$124"}, {1234.5, "$1234"}, {0.00042, "$0.00042"}, {0.000042, "$0.000042"}, {1e-7, "$0.0000001"},
		{0.000228, "$0.00023"},
	} {
		if got := FormatUSD(tc.usd); got != tc.want {
			t.Errorf("FormatUSD(%v) = %q; want %q", tc.usd, got, tc.want)
		}
	}
}

func TestSummary(t *testing.T) {
	tokens := func(in, out int64) Tokens {
		var t Tokens
		t.Set(Input, in)
		t.Set(Output, out)
		return t
	}
	usd := 0.031
	priced := &Spend{}
	priced.Add(Usage{Model: "gpt-4o", Tokens: tokens(12_000, 400), CostUSD: &usd, CostFrom: FromPrice})
	unpriced := &Spend{}
	unpriced.Add(Usage{Model: "local", Tokens: tokens(900, 50)})
	partial := priced.Clone()
	partial.Missing()
	var outOnly Tokens
	outOnly.Set(Output, 70)
	noTotal := &Spend{}
	noTotal.Add(Usage{Model: "m", Tokens: outOnly})
	nothing := &Spend{}
	nothing.Add()
	for _, tc := range []struct {
		name string
		s    *Spend
		want string
	}{
		{"nil", nil, "usage unknown"},
		{"priced", priced, "12.4k tokens · $0.031"},
		{"no price", unpriced, "950 tokens · cost unknown"},
		{"partial", partial, "≥ 12.4k tokens (1 of 2 unreported)"},
		{"no total", noTotal, "tokens unknown · cost unknown"},
		{"reported nothing", nothing, "0 tokens · $0.00"},
	} {
		if got := tc.s.Summary(); got != tc.want {
			t.Errorf("%s: Summary() = %q; want %q", tc.name, got, tc.want)
		}
	}
}

// TestCostSumsRound: a sum of costs is written as its parts add up, not
// with the float's noise.
func TestCostSumsRound(t *testing.T) {
	a, b := 0.0004815, 0.00285
	s := &Spend{}
	s.Add(Usage{Model: "m", CostUSD: &a, CostFrom: FromPrice}, Usage{Model: "n", CostUSD: &b, CostFrom: FromPrice})
	s.Add(Usage{Model: "m", CostUSD: &b, CostFrom: FromPrice})
	if c, ok := s.CostUSD(); !ok || c != 0.0061815 {
		t.Errorf("cost %v, %v; want 0.0061815", c, ok)
	}
	if m := *s.Models[0].CostUSD; m != 0.0033315 {
		t.Errorf("model m cost %v; want 0.0033315", m)
	}
}
func TestFormatCount(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{0, "0"}, {999, "999"}, {1000, "1,000"}, {1200, "1,200"}, {1_234_567, "1,234,567"}, {-4210, "-4,210"},
	} {
		if got := FormatCount(tc.n); got != tc.want {
			t.Errorf("FormatCount(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
