package vars

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/secret"
)

// Template is a string value that may hold variable references:
//
//	${NAME}      a variable set by a hook
//	${ENV.NAME}  an environment variable (its value is a secret)
//	$${          a literal "${"
//
// References are parsed when the file is loaded and resolved against a Vars
// when a test runs.
type Template struct {
	Raw   string
	Pos   diag.Pos
	parts []part
}

type part struct {
	lit string
	ref *Ref
}

// Ref is one ${...} reference.
type Ref struct {
	Name string // without the ENV. prefix
	Env  bool
	Pos  diag.Pos
}

func (r Ref) String() string {
	if r.Env {
		return "${ENV." + r.Name + "}"
	}
	return "${" + r.Name + "}"
}

var identRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// IsIdent reports whether s is a variable name: letters, digits and _, not
// starting with a digit.
func IsIdent(s string) bool { return identRE().MatchString(s) }

// Literal makes a template with no references (for defaults and tests).
func Literal(s string) Template { return Template{Raw: s, parts: []part{{lit: s}}} }

// ParseTemplate splits s into literal text and references. at maps a byte
// offset of s to its source position.
func ParseTemplate(s string, at func(off int) diag.Pos) (Template, []diag.Diagnostic) {
	t := Template{Raw: s, Pos: at(0)}
	var lit strings.Builder
	var diags []diag.Diagnostic
	flush := func() {
		if lit.Len() > 0 {
			t.parts = append(t.parts, part{lit: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "$${"):
			lit.WriteString("${")
			i += 3
		case strings.HasPrefix(s[i:], "${"):
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				diags = append(diags, diag.Diagnostic{Pos: at(i), Message: `unterminated "${": close it with "}" or write "$${" for a literal "${"`})
				return t, diags
			}
			body := s[i+2 : i+end]
			ref := Ref{Name: body, Pos: at(i)}
			if rest, ok := strings.CutPrefix(body, "ENV."); ok {
				ref.Name, ref.Env = rest, true
			}
			if !IsIdent(ref.Name) {
				diags = append(diags, diag.Diagnostic{Pos: at(i), Message: fmt.Sprintf("invalid variable reference %q: use ${NAME} or ${ENV.NAME} (letters, digits, _)", "${"+body+"}")})
			} else {
				flush()
				t.parts = append(t.parts, part{ref: &ref})
			}
			i += end + 1
		default:
			lit.WriteByte(s[i])
			i++
		}
	}
	flush()
	return t, diags
}

// OffsetPos maps a byte offset inside a scalar's value to a source position.
// It is exact for single-line plain and quoted scalars without escapes; for
// anything else it falls back to the scalar's own position.
func OffsetPos(file string, n *yaml.Node) func(int) diag.Pos {
	base := diag.Pos{File: file, Line: n.Line, Col: n.Column}
	return func(off int) diag.Pos {
		before := n.Value[:off]
		if off == 0 || strings.ContainsAny(before, "\n\r\t") {
			return base
		}
		col := base.Col + utf8.RuneCountInString(before)
		switch n.Style {
		case 0:
		case yaml.DoubleQuotedStyle:
			if strings.ContainsAny(before, `"\`) {
				return base
			}
			col++
		case yaml.SingleQuotedStyle:
			col += 1 + strings.Count(before, "'")
		default:
			return base
		}
		return diag.Pos{File: base.File, Line: base.Line, Col: col}
	}
}

// Refs lists the template's references.
func (t Template) Refs() []Ref {
	var refs []Ref
	for _, p := range t.parts {
		if p.ref != nil {
			refs = append(refs, *p.ref)
		}
	}
	return refs
}

// IsZero reports whether the template was never set.
func (t Template) IsZero() bool { return t.Raw == "" && t.parts == nil && !t.Pos.IsValid() }

// Resolve substitutes every reference.
func (t Template) Resolve(v *Vars) (string, error) { return t.resolve(v.Lookup, nil) }

// ResolveURL substitutes every reference of a URL field (target.endpoint,
// target.agentCardUrl, target.server.ready_url, model.endpoint), which
// messages and reports show so that a failure says where it happened: the
// secrets it adds to v are the URL's userinfo password and query values,
// whatever they came from, and the whole value of an ${ENV.NAME} that lies
// in the userinfo or the query — not an ${ENV.NAME} that fills the host or
// path, or the whole URL (docs/files.md, "Variables").
func (t Template) ResolveURL(v *Vars) (string, error) {
	var b strings.Builder
	type span struct{ from, to int }
	var env []span
	for _, p := range t.parts {
		if p.ref == nil {
			b.WriteString(p.lit)
			continue
		}
		val, err := v.get(*p.ref)
		if err != nil {
			return "", err
		}
		if p.ref.Env {
			env = append(env, span{b.Len(), b.Len() + len(val)})
		}
		b.WriteString(val)
	}
	u := b.String()
	for _, e := range env {
		if secret.Private(u, e.from, e.to) {
			v.secret(u[e.from:e.to])
		}
	}
	for _, s := range secret.In(u) {
		v.secret(s)
	}
	return u, nil
}

func (t Template) resolve(lookup func(Ref) (string, error), quote func(string) string) (string, error) {
	var b strings.Builder
	for _, p := range t.parts {
		if p.ref == nil {
			b.WriteString(p.lit)
			continue
		}
		val, err := lookup(*p.ref)
		if err != nil {
			return "", err
		}
		if quote != nil {
			val = quote(val)
		}
		b.WriteString(val)
	}
	return b.String(), nil
}

// Substitute returns t with each reference f answers replaced by f's
// text, as a literal: the references a session resolves itself (an http
// target's per-turn variables, docs/http.md) are set aside before the rest
// resolves against a test's variables. The others stay references.
func (t Template) Substitute(f func(Ref) (string, bool)) Template {
	out := Template{Raw: t.Raw, Pos: t.Pos, parts: make([]part, 0, len(t.parts))}
	for _, p := range t.parts {
		if p.ref != nil {
			if s, ok := f(*p.ref); ok {
				p = part{lit: s}
			}
		}
		out.parts = append(out.parts, p)
	}
	return out
}

// JoinTemplates concatenates templates with sep between them, keeping
// their references; the result is at the first one's position.
func JoinTemplates(ts []Template, sep string) Template {
	var out Template
	raws := make([]string, 0, len(ts))
	for i, t := range ts {
		if i == 0 {
			out.Pos = t.Pos
		} else if sep != "" {
			out.parts = append(out.parts, part{lit: sep})
		}
		out.parts = append(out.parts, t.parts...)
		raws = append(raws, t.Raw)
	}
	out.Raw = strings.Join(raws, sep)
	return out
}

// refRE finds ${...} references (and the $${ escape) in a value.
var refRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\$\{|\$\{[^}]*\}`) })

// RefSpans returns where s holds a ${...} reference or a $${ escape, as
// [start, end) byte offsets, in order: for text that is rewritten around
// its references.
func RefSpans(s string) [][]int { return refRE().FindAllStringIndex(s, -1) }
