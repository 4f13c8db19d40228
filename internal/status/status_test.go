package status

import "testing"

func TestSymbolAndColor(t *testing.T) {
	for _, tc := range []struct {
		s             Status
		symbol, color string
		failed        bool
	}{
		{Pass, "✓", "32", false},
		{Fail, "✗", "31", true},
		{Error, "!", "33", true},
		{Warn, "⚠", "33", false},
		{Skipped, "-", "2", false},
		{Skip, "-", "2", false},
		{"other", "-", "", false},
	} {
		if got := tc.s.Symbol(); got != tc.symbol {
			t.Errorf("%s.Symbol() = %q; want %q", tc.s, got, tc.symbol)
		}
		if got := tc.s.Color(); got != tc.color {
			t.Errorf("%s.Color() = %q; want %q", tc.s, got, tc.color)
		}
		if got := tc.s.Failed(); got != tc.failed {
			t.Errorf("%s.Failed() = %v; want %v", tc.s, got, tc.failed)
		}
	}
}
