package cost

import (
	"fmt"
	"strconv"
	"strings"
)

// FormatTokens writes a count for people: 950, 12.4k, 3.1M.
func FormatTokens(n int64) string {
	switch {
	case n < 1000:
		return strconv.FormatInt(n, 10)
	case n < 1_000_000:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/1e3)) + "k"
	default:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/1e6)) + "M"
	}
}

func trimZero(s string) string { return strings.TrimSuffix(s, ".0") }

// FormatUSD writes a cost for people with three significant digits at
// most and never fewer than two decimals: $0.031, $1.24, $12.40, $0.00042.
func FormatUSD(usd float64) string {
	switch {
	case usd == 0:
		return "$0"
	case usd >= 100:
		return fmt.Sprintf("$%.0f", usd)
	case usd >= 1:
		return fmt.Sprintf("$%.2f", usd)
	}
	s := strconv.FormatFloat(usd, 'g', 2, 64)
	if strings.Contains(s, "e") {
		s = strconv.FormatFloat(usd, 'f', -1, 64)
		if f, err := strconv.ParseFloat(strconv.FormatFloat(usd, 'g', 2, 64), 64); err == nil {
			s = strconv.FormatFloat(f, 'f', -1, 64)
		}
	}
	return "$" + s
}

// Summary says what a spend used for people: "12.4k tokens · $0.031",
// "12.4k tokens · cost unknown", "≥ 1.2k tokens (1 of 3 runs unreported)",
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
