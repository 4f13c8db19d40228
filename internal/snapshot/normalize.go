package snapshot

import (
	"regexp"
	"strings"
	"sync"
)

// Placeholders the normalisation writes (docs/snapshots.md).
const (
	Ignored   = "<ignored>"
	UUID      = "<uuid>"
	Timestamp = "<timestamp>"
	ID        = "<id>"
)

var (
	uuidRE = lazyRE(`(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`)
	// timestampRE is an RFC 3339 / ISO 8601 date with a time: T or a space
	// between them, seconds and their fraction and the offset optional.
	timestampRE = lazyRE(`\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?`)
	// tokenRE is a run of base64url characters long enough to be a random
	// id; randomID decides.
	tokenRE = lazyRE(`[A-Za-z0-9_-]{16,}`)
	ulidRE  = lazyRE(`^[0-9A-HJKMNP-TV-Z]{26}$`)
)

// randomID reports whether a token reads as a random id: 16 or more hex
// digits with both digits and letters, a ULID, or 20 or more base64url
// characters with digits, capitals and small letters. Words, numbers and
// names joined with underscores are none of these.
func randomID(tok string) bool {
	var digit, lower, upper, hexOnly = false, false, false, true
	for i := range len(tok) {
		switch c := tok[i]; {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'z':
			lower = true
			hexOnly = hexOnly && c <= 'f'
		case c >= 'A' && c <= 'Z':
			upper = true
			hexOnly = hexOnly && c <= 'F'
		default:
			hexOnly = false
		}
	}
	switch {
	case hexOnly && digit && (lower || upper):
		return true
	case ulidRE().MatchString(tok):
		return true
	}
	return len(tok) >= 20 && digit && lower && upper
}

// normalizer applies a snapshot's rules to what it holds.
type normalizer struct {
	rules Rules
}

// text normalises one string: bytes that are not UTF-8 become U+FFFD,
// then the user's replacements apply in order, then UUIDs, timestamps
// and random ids become placeholders.
func (n normalizer) text(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD") // a snapshot file is UTF-8
	for _, r := range n.rules.Replace {
		s = r.Pattern.ReplaceAllString(s, r.With)
	}
	s = uuidRE().ReplaceAllString(s, UUID)
	s = timestampRE().ReplaceAllString(s, Timestamp)
	return tokenRE().ReplaceAllStringFunc(s, func(tok string) string {
		if randomID(tok) {
			return ID
		}
		return tok
	})
}

// args normalises a call's arguments: the ignored paths of the tool
// first, then every string (member names are kept as they are).
func (n normalizer) args(tool string, v any) any {
	for _, in := range n.rules.Ignore {
		if in.applies(tool) {
			v = in.apply(v)
		}
	}
	return n.value(v)
}

func (n normalizer) value(v any) any {
	switch x := v.(type) {
	case string:
		if x == Ignored {
			return x
		}
		return n.text(x)
	case map[string]any:
		for k, mv := range x {
			x[k] = n.value(mv)
		}
	case []any:
		for i := range x {
			x[i] = n.value(x[i])
		}
	}
	return v
}

// exactLines are a reply's words as an exact snapshot keeps them: each
// line with its spaces collapsed and trimmed, blank lines left out, then
// normalised.
func (n normalizer) exactLines(s string) []string {
	out := []string{}
	for line := range strings.Lines(s) {
		if l := strings.Join(strings.Fields(line), " "); l != "" {
			out = append(out, n.text(l))
		}
	}
	return out
}

// lazyRE compiles a regex at its first use, not at start-up: most runs
// take no snapshot.
func lazyRE(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
