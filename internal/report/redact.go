package report

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"

	"github.com/ananke/action/internal/secret"
)

// Mask replaces every secret in every output: the same as a URL's masked
// parts (internal/secret).
const Mask = secret.Mask

// minSecretLen is the shortest value masked: masking a one- or two-letter
// value would rewrite every word containing it and hide the whole report,
// while such a value protects nothing.
const minSecretLen = 3

// Redactor masks secret values and patterns.
type Redactor struct {
	values   *strings.Replacer
	patterns []*regexp.Regexp
	secrets  []string
}

// NewRedactor masks each value (and its JSON-escaped form, as it appears in
// traces) and each pattern's matches.
func NewRedactor(values []string, patterns []*regexp.Regexp) *Redactor {
	var uniq []string
	for _, v := range values {
		if len(v) >= minSecretLen {
			uniq = append(uniq, v)
			if esc := jsonEscaped(v); esc != v {
				uniq = append(uniq, esc)
			}
		}
	}
	// Longest first, so a secret containing another is masked whole.
	slices.SortFunc(uniq, func(a, b string) int { return len(b) - len(a) })
	uniq = slices.Compact(uniq)
	var pairs []string
	for _, v := range uniq {
		pairs = append(pairs, v, Mask)
	}
	return &Redactor{values: strings.NewReplacer(pairs...), patterns: patterns, secrets: uniq}
}

// jsonEscaped is v as it appears inside a JSON string written by
// encoding/json without HTML escaping (as Ananke writes traces).
func jsonEscaped(v string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // a string always encodes
	s := strings.TrimSuffix(b.String(), "\n")
	return s[1 : len(s)-1]
}

// JSON masks raw JSON text (the recorder keeps every event JSON). When
// masking broke its syntax (a pattern that matched a quote), the masked
// text is kept as a JSON string instead.
func (r *Redactor) JSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || r.Empty() {
		return raw
	}
	in := string(raw)
	s := r.String(in)
	if s == in {
		return raw // nothing masked: no copy
	}
	if json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	b, _ := json.Marshal(s)
	return b
}

// Longest is the length of the longest secret value (0: none).
func (r *Redactor) Longest() int {
	if len(r.secrets) == 0 {
		return 0
	}
	return len(r.secrets[0]) // sorted longest first
}

// Empty reports whether the redactor masks nothing: no secret, no pattern.
func (r *Redactor) Empty() bool { return len(r.secrets) == 0 && len(r.patterns) == 0 }

// String masks s.
func (r *Redactor) String(s string) string {
	if s == "" || r.Empty() {
		return s
	}
	s = r.values.Replace(s)
	for _, p := range r.patterns {
		s = p.ReplaceAllString(s, Mask)
	}
	return s
}

// Strings masks each element.
func (r *Redactor) Strings(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = r.String(s)
	}
	return out
}

// Secrets are the values masked (for ::add-mask::).
func (r *Redactor) Secrets() []string { return r.secrets }
