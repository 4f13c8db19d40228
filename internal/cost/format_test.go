package cost

import "testing"

func TestFormatTokens(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{0, "0"}, {950, "950"}, {999, "999"}, {1000, "1k"}, {1049, "1k"}, {1050, "1.1k"},
		{12_400, "12.4k"}, {999_949, "999.9k"}, {999_950, "1M"}, {999_999, "1M"},
		{1_000_000, "1M"}, {3_140_000, "3.1M"}, {2_100_000_000, "2100M"},
	} {
		if got := FormatTokens(tc.n); got != tc.want {
			t.Errorf("FormatTokens(%d) = %q, want %q", tc.n, got, tc.want)
		}
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

func TestFormatUSD(t *testing.T) {
	for _, tc := range []struct {
		usd  float64
		want string
	}{
		{0, "$0"},
		{0.031, "$0.031"},
		{0.0314, "$0.031"},
		{0.5, "$0.50"},
		{0.1, "$0.10"},
		{0.00042, "$0.00042"},
		{0.000042, "$0.000042"},
		{0.999, "$1.00"},
		{1, "$1.00"},
		{1.244, "$1.24"},
		{12.4, "$12.40"},
		{99.999, "$100"},
		{240.4, "$240"},
		{-0.5, "-$0.50"},
	} {
		if got := FormatUSD(tc.usd); got != tc.want {
			t.Errorf("FormatUSD(%v) = %q, want %q", tc.usd, got, tc.want)
		}
	}
}

func TestSummary(t *testing.T) {
	known := func() *Spend {
		s := &Spend{}
		s.Add(Usage{Model: "m", Tokens: tok(in, 12_000, out, 400), CostUSD: usd(0.031), CostFrom: FromPrice})
		return s
	}
	unpriced := &Spend{}
	unpriced.Add(Usage{Model: "m", Tokens: tok(in, 12_000, out, 400)})
	partial := known()
	partial.Missing()
	partial.Missing()
	noTokens := &Spend{}
	noTokens.Add(Usage{Model: "m", Tokens: tok(in, 5)})
	noTokens.Missing()
	nothing := &Spend{}
	nothing.Add()
	for _, tc := range []struct {
		name string
		s    *Spend
		want string
	}{
		{"nil", nil, "usage unknown"},
		{"priced", known(), "12.4k tokens · $0.031"},
		{"unpriced", unpriced, "12.4k tokens · cost unknown"},
		{"partial", partial, "≥ 12.4k tokens (2 of 3 unreported)"},
		{"tokens unknown", noTokens, "tokens unknown (1 of 2 unreported)"},
		{"nothing used", nothing, "0 tokens · $0"},
	} {
		if got := tc.s.Summary(); got != tc.want {
			t.Errorf("%s: Summary = %q, want %q", tc.name, got, tc.want)
		}
	}
}
