package assertion

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// claim is a number or URL the reply states, which grounded checks
// against what the test supplied.
type claim struct {
	Text  string // as written: "$3,500.00", "12%", "https://x.example/a/"
	Value string // normalized: "3500", "12", "https://x.example/a"
	URL   bool
	// Start and End are byte offsets in the reply; Char is Start in
	// characters (runes), for messages.
	Start, End, Char int
}

// largestTrivial is the largest whole number that is not a claim: small
// counts ("2 products", "step 3") are too common to need a source.
const largestTrivial = 10

var (
	// urlRe finds URLs: http:// or https:// up to white space or one of
	// <>"'`)] (trailing punctuation is trimmed after).
	urlRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("(?i)https?://[^\\s\\p{Z}<>\"'`)\\]]+") })
	// groupedRe and plainRe are the two spellings of a number: with
	// thousands separators, or without.
	groupedRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d{1,3}(?:,\d{3})+(?:\.\d+)?$`) })
	plainRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d+(?:\.\d+)?$`) })
)

// currencies are the symbols a number claim may start with.
var currencies = []string{"$", "€", "£"}

// findClaims returns the reply's claims in order: URLs (urls) and numbers
// (numbers). Digits inside a URL belong to the URL and are never number
// claims.
func findClaims(text string, numbers, urls bool) []claim {
	us := findURLs(text)
	var out []claim
	if urls {
		out = append(out, us...)
	}
	if numbers {
		// Both lists are in text order: walk the URLs alongside.
		j := 0
		for _, n := range findNumbers(text) {
			for j < len(us) && us[j].End <= n.Start {
				j++
			}
			if j == len(us) || n.End <= us[j].Start {
				out = append(out, n)
			}
		}
	}
	slices.SortFunc(out, func(a, b claim) int { return a.Start - b.Start })
	char, at := 0, 0
	for i := range out {
		char += utf8.RuneCountInString(text[at:out[i].Start])
		at = out[i].Start
		out[i].Char = char
	}
	return out
}

// findURLs returns the URL claims: urlRe's matches with trailing .,;:!?
// removed (sentence punctuation), normalized by dropping one trailing
// slash. A bare "https://" is not a URL.
func findURLs(text string) []claim {
	var out []claim
	for _, loc := range urlRe().FindAllStringIndex(text, -1) {
		u := strings.TrimRight(text[loc[0]:loc[1]], ".,;:!?")
		if rest := u[strings.Index(u, "://")+3:]; rest == "" {
			continue
		}
		out = append(out, claim{Text: u, Value: strings.TrimSuffix(u, "/"), URL: true, Start: loc[0], End: loc[0] + len(u)})
	}
	return out
}

// findNumbers returns the number claims. A number is a maximal run of ASCII
// digits joined by single '.' or ',' that spells a number (digits with an
// optional decimal part, or digits grouped in thousands: "3,500.25"; a run
// like "1.2.3" is a version, not a number), optionally preceded by $, € or
// £ and followed by %. It is not a claim when it is part of a word or an
// identifier: followed by a letter, digit or underscore ("5km", "2x"), or,
// without a currency symbol, preceded by one ("v2", "ch_1") or by a '-'
// that follows one ("A-100", "ORD-2024-0042"). Whole numbers from 0 to
// largestTrivial are not claims. The value is the number without currency,
// separators or %, in canonical form: "3,500", "3500" and "$3,500.00" are
// all 3500.
func findNumbers(text string) []claim {
	var out []claim
	for i := 0; i < len(text); {
		if !isDigit(text[i]) {
			i++
			continue
		}
		start, end := i, digitRun(text, i)
		i = end
		if c, ok := numberClaim(text, start, end); ok {
			out = append(out, c)
		}
	}
	return out
}

// digitRun returns the end of the run of digits, joined by single '.' or
// ',', that starts at i.
func digitRun(text string, i int) int {
	for i < len(text) {
		switch {
		case isDigit(text[i]):
			i++
		case (text[i] == '.' || text[i] == ',') && i+1 < len(text) && isDigit(text[i+1]):
			i++
		default:
			return i
		}
	}
	return i
}

// numberClaim turns the digit run text[start:end] into a claim, if it is one.
func numberClaim(text string, start, end int) (claim, bool) {
	run := text[start:end]
	if !groupedRe().MatchString(run) && !plainRe().MatchString(run) {
		return claim{}, false
	}
	if r, _ := utf8.DecodeRuneInString(text[end:]); end < len(text) && wordRune(r) {
		return claim{}, false
	}
	from, to := start, end
	if sym := currencyBefore(text[:start]); sym != "" {
		from -= len(sym)
	} else if identifierBefore(text[:start]) {
		return claim{}, false
	}
	if to < len(text) && text[to] == '%' {
		to++
	}
	value, ok := normalizeNumber(run)
	if !ok || trivial(value) {
		return claim{}, false
	}
	return claim{Text: text[from:to], Value: value, Start: from, End: to}, true
}

// normalizeNumber renders a number without separators in canonical form.
func normalizeNumber(run string) (string, bool) {
	v, err := strconv.ParseFloat(strings.ReplaceAll(run, ",", ""), 64)
	if err != nil || math.IsInf(v, 0) {
		return "", false
	}
	return strconv.FormatFloat(v, 'f', -1, 64), true
}

// trivial reports whether a normalized number is a whole number from 0 to
// largestTrivial.
func trivial(value string) bool {
	n, err := strconv.Atoi(value)
	return err == nil && n >= 0 && n <= largestTrivial
}

func currencyBefore(before string) string {
	for _, sym := range currencies {
		if strings.HasSuffix(before, sym) {
			return sym
		}
	}
	return ""
}

// identifierBefore reports whether what precedes a number makes it part of
// a word or identifier: a letter, digit or underscore, or a '-' after one.
func identifierBefore(before string) bool {
	r, n := utf8.DecodeLastRuneInString(before)
	if n == 0 {
		return false
	}
	if r == '-' {
		r, n = utf8.DecodeLastRuneInString(before[:len(before)-1])
		return n > 0 && wordRune(r)
	}
	return wordRune(r)
}

func wordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

func isDigit(b byte) bool { return '0' <= b && b <= '9' }
