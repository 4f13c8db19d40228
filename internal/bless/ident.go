package bless

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// maxIdent bounds an identifier's length: longer values are data, not a
// name for something.
const maxIdent = 64

// The patterns, compiled at first use (start-up allocates nothing).
var (
	email   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}$`) })
	isoDate = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`) })
	// code is a run of letters and digits joined by - _ . / : #, as
	// order ids, SKUs, charge ids and UUIDs are written.
	code = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9]+(?:[-_./:#][A-Za-z0-9]+)*$`) })
	// identKey names an argument that holds an identifier whatever its
	// value looks like: id, orderId, order_id, sku, email, code, ….
	identKey = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(^|[_.\-])(id|sku|email|code|ref|number)$|[a-z](Id|ID|Sku|SKU|Email|Code|Ref|Number)$`)
	})
)

// Identifier reports whether an argument value names something — an
// order id, a SKU, an email address, a date — rather than saying
// something: the values worth pinning in a blessed test, because the
// agent must pass them on exactly. Docs/bless.md states the rule:
//
//   - an email address;
//   - a code: letters and digits, possibly joined by - _ . / : #, with at
//     least one digit and at least one letter (A-1001, SKU-42, ch_1,
//     ord_8f3a, a UUID);
//   - under an argument whose name says it holds one (id, order_id,
//     orderId, sku, email, code, ref, number): any such code, or a whole
//     number.
//
// Never free text (anything with a space), a URL, a plain word (Paris),
// a number under another name (an amount, a count), or a value longer
// than 64 characters. A date (2026-03-14) is one only where the user
// wrote it (IsDate; the inference checks).
func Identifier(key, value string, isString bool) bool {
	if value == "" || len(value) > maxIdent || strings.Contains(value, "://") || strings.IndexFunc(value, unicode.IsSpace) >= 0 {
		return false
	}
	named := identKey().MatchString(key)
	if !isString {
		return named && wholeNumber(value)
	}
	switch {
	case email().MatchString(value):
		return true
	case !code().MatchString(value):
		return false
	case named:
		return true
	}
	return strings.ContainsFunc(value, unicode.IsDigit) && strings.ContainsFunc(value, unicode.IsLetter)
}

func wholeNumber(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// IsDate reports whether value is an ISO 8601 calendar date.
func IsDate(value string) bool { return isoDate().MatchString(value) }
