package cost

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// FormatTokens writes a count for people: 950, 1.2k, 12.4k, 124k, 3.1M —
// one decimal below a hundred of a unit, none from there on — and never
// "1000k": a count that rounds to a thousand of a unit is written in the
// next one.
func FormatTokens(n int64) string {
	if -1000 < n && n < 1000 {
		return strconv.FormatInt(n, 10)
	}
	if s := short(float64(n) / 1e3); len(strings.TrimPrefix(strings.SplitN(s, ".", 2)[0], "-")) < 4 {
		return s + "k"
	}
	return short(float64(n)/1e6) + "M"
}

// short writes v with one decimal below 100, none from there on.
func short(v float64) string {
	if math.Abs(v) >= 99.95 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return trimZero(strconv.FormatFloat(v, 'f', 1, 64))
}

func trimZero(s string) string { return strings.TrimSuffix(s, ".0") }

// FormatUSD writes a cost for people, with two decimals at least: from a
// dollar on, cents ($1.24, $12.40) and whole dollars from a hundred
// ($124); below a dollar, two significant digits ($0.031, $0.50,
// $0.00042). A known zero is $0.00: it is never written for a cost that
// is not known, which callers say in words.
func FormatUSD(usd float64) string {
	switch {
	case usd == 0:
		return "$0.00"
	case usd < 0:
		return "-" + FormatUSD(-usd)
	case usd >= 99.995:
		return fmt.Sprintf("$%.0f", usd)
	case usd >= 0.995:
		return fmt.Sprintf("$%.2f", usd)
	}
	// Two significant digits, written without an exponent.
	r, _ := strconv.ParseFloat(strconv.FormatFloat(usd, 'e', 1, 64), 64)
	s := strconv.FormatFloat(r, 'f', -1, 64)
	if i := strings.IndexByte(s, '.'); i < 0 {
		s += ".00"
	} else if d := len(s) - i - 1; d < 2 {
		s += strings.Repeat("0", 2-d)
	}
	return "$" + s
}

// Summary says what a spend used for people: "12.4k tokens · $0.031",
// "12.4k tokens · cost unknown", "≥ 1.2k tokens (1 of 3 unreported)" (a
// partial spend: 1 of its 3 parts reported nothing), or "usage unknown"
// for a nil spend. It never prints a zero for what is
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
