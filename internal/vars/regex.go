package vars

import (
	"fmt"
	"regexp"
	"strings"
)

// Regex is a regular expression from a file (Go RE2 syntax, unanchored,
// case-sensitive unless it starts with (?i)). It keeps the user's source
// text for messages.
//
// A pattern may reference variables: ${ORDER_ID} is replaced by the
// variable's value matched literally (regexp.QuoteMeta), so "^${ORDER_ID}$"
// asserts the exact value a hook produced. Such a pattern is syntax-checked
// at load time and compiled when bound to a test's Vars.
type Regex struct {
	Template
	re *regexp.Regexp
}

// MustRegex compiles a literal pattern; for tests and built-in checks.
func MustRegex(pattern string) *Regex {
	return &Regex{Template: Literal(pattern), re: regexp.MustCompile(pattern)}
}

// String returns the pattern as the user wrote it.
func (r *Regex) String() string { return r.Raw }

// Compiled returns the compiled expression, or nil when the pattern has
// references and was not bound yet.
func (r *Regex) Compiled() *regexp.Regexp { return r.re }

// Bind resolves the pattern's references and compiles it. A pattern without
// references is returned as is.
func (r *Regex) Bind(v *Vars) (*Regex, error) {
	if r.re != nil {
		return r, nil
	}
	src, err := r.resolve(v.Lookup, regexp.QuoteMeta)
	if err != nil {
		return nil, err
	}
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, &ResolveError{r.Pos, fmt.Sprintf("invalid regex %q after substitution: %s", src, RegexError(err))}
	}
	return &Regex{Template: r.Template, re: re}, nil
}

// NewRegex makes a Regex of a pattern read from a file: re is t compiled,
// or nil when t references variables (it is compiled when bound).
func NewRegex(t Template, re *regexp.Regexp) *Regex { return &Regex{Template: t, re: re} }

// placeholder answers every reference with a plain word, for checks made
// at load, before any variable has a value.
func placeholder(Ref) (string, error) { return "x", nil }

// Placeholder is the template with every reference replaced by a plain
// word: what a load-time syntax check compiles.
func (t Template) Placeholder() string {
	s, _ := t.resolve(placeholder, nil)
	return s
}

// RegexError is what a regexp error says, without the "error parsing
// regexp: " prefix Go puts on every one.
func RegexError(err error) string {
	return strings.TrimPrefix(err.Error(), "error parsing regexp: ")
}
