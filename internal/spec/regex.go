package spec

import (
	"fmt"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
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
	src, err := r.resolve(v.lookup, regexp.QuoteMeta)
	if err != nil {
		return nil, err
	}
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, &ResolveError{r.Pos, fmt.Sprintf("invalid regex %q after substitution: %s", src, reason(err))}
	}
	return &Regex{Template: r.Template, re: re}, nil
}

// regex parses a scalar node as a Regex, reporting a bad pattern at its
// position.
func (l *loader) regex(n *yaml.Node, what string) (*Regex, bool) {
	t, ok := l.template(n, what)
	if !ok {
		return nil, false
	}
	r := &Regex{Template: t}
	// Check the syntax with each reference replaced by a plain word.
	src, _ := t.resolve(placeholder, nil)
	re := l.regexps[src]
	if re == nil {
		var err error
		if re, err = regexp.Compile(src); err != nil {
			l.errorf(l.derefQuiet(n), "%s: invalid regex %q: %s", what, t.Raw, reason(err))
			return nil, false
		}
		if l.regexps == nil {
			l.regexps = map[string]*regexp.Regexp{}
		}
		l.regexps[src] = re
	}
	if len(t.Refs()) == 0 {
		r.re = re
	}
	return r, true
}

// placeholder answers every reference with a plain word.
func placeholder(Ref) (string, error) { return "x", nil }

// reason strips the "error parsing regexp: " prefix Go puts on every error.
func reason(err error) string {
	return strings.TrimPrefix(err.Error(), "error parsing regexp: ")
}
