package cost

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// FormatTokens writes a count for people: 950, 12.4k, 3.1M. A count that
// rounds up to the next unit is written in it (999,960 is 1M, not 1000k).
func FormatTokens(n int64) string {
	switch {
	case n < 1000:
		return strconv.FormatInt(n, 10)
	case n < 999_950:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/1e3)) + "k"
	default:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/1e6)) + "M"
	}
}

// FormatCount writes a count in full with thousands separators, for
// evidence: 1,200.
func FormatCount(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

func trimZero(s string) string { return strings.TrimSuffix(s, ".0") }

// FormatUSD writes a cost for people: whole dollars from $100, cents from
// $1, two significant digits below $1, and never fewer than two decimals
// below $100: $0.031, $0.50, $1.24, $12.40, $0.00042, $240. A known zero
// is $0.
func FormatUSD(usd float64) string {
	if usd < 0 {
		return "-" + FormatUSD(-usd)
	}
	// Round first, so that a figure rounding up to the next form takes it
	// ($0.999 is $1.00, $99.999 is $100).
	if usd > 0 && usd < 1 {
		usd, _ = strconv.ParseFloat(strconv.FormatFloat(usd, 'g', 2, 64), 64)
	} else if usd < 100 {
		usd = math.Round(usd*100) / 100
	}
	switch {
	case usd == 0:
		return "$0"
	case usd >= 100:
		return fmt.Sprintf("$%.0f", usd)
	case usd >= 1:
		return fmt.Sprintf("$%.2f", usd)
	}
	s := strconv.FormatFloat(usd, 'f', -1, 64)
	if _, frac, _ := strings.Cut(s, "."); len(frac) < 2 {
		s += strings.Repeat("0", 2-len(frac))
	}
	return "$" + s
}

// Summary says what a spend used for people: "12.4k tokens · $0.031",
// "12.4k tokens · cost unknown", "≥ 1.2k tokens (1 of 3 unreported)",
// or "usage unknown" for a nil spend. It never prints a zero for what is
// not known.
func (s *Spend) Summary() string {
	if s == nil {
		return "usage unknown"
	}
	n, ok := s.TotalTokens()
	var b strings.Builder
	switch {
	case !ok:
		b.WriteString("tokens unknown")
	case s.Partial():
		fmt.Fprintf(&b, "≥ %s tokens", FormatTokens(n))
	default:
		fmt.Fprintf(&b, "%s tokens", FormatTokens(n))
	}
	if s.Partial() {
		fmt.Fprintf(&b, " (%d of %d unreported)", s.Unreported, s.Unreported+s.Reported)
		return b.String()
	}
	if usd, ok := s.CostUSD(); ok {
		b.WriteString(" · " + FormatUSD(usd))
	} else {
		b.WriteString(" · cost unknown")
	}
	return b.String()
}
