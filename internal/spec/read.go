package spec

import (
	"regexp"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/vars"
)

// template parses a scalar node as a Template.
func (l *loader) template(n *yaml.Node, what string) (vars.Template, bool) {
	s, node, ok := l.text(n, what)
	if !ok {
		return vars.Template{}, false
	}
	t, diags := vars.ParseTemplate(s, vars.OffsetPos(l.file, node))
	*l.diags = append(*l.diags, diags...)
	return t, len(diags) == 0
}

// regex parses a scalar node as a Regex, reporting a bad pattern at its
// position.
func (l *loader) regex(n *yaml.Node, what string) (*vars.Regex, bool) {
	t, ok := l.template(n, what)
	if !ok {
		return nil, false
	}
	// Check the syntax with each reference replaced by a plain word.
	src := t.Placeholder()
	re := l.regexps[src]
	if re == nil {
		var err error
		if re, err = regexp.Compile(src); err != nil {
			l.errorf(l.derefQuiet(n), "%s: invalid regex %q: %s", what, t.Raw, vars.RegexError(err))
			return nil, false
		}
		if l.regexps == nil {
			l.regexps = map[string]*regexp.Regexp{}
		}
		l.regexps[src] = re
	}
	if len(t.Refs()) > 0 {
		re = nil // compiled when bound
	}
	return vars.NewRegex(t, re), true
}

// value checks that n converts to JSON and that its strings parse as
// templates.
func (l *loader) value(n *yaml.Node, what string) (vars.Value, bool) {
	before := len(*l.diags)
	check := vars.ValueCheck{Deref: l.deref, Template: func(n *yaml.Node) (vars.Template, bool) { return l.template(n, "value") }}
	if err := check.Check(n, l.file); err != nil {
		l.errorf(l.derefQuiet(n), "%s: %v", what, err)
	}
	if len(*l.diags) > before {
		return vars.Value{}, false
	}
	return vars.NewValue(n, l.file, l.pos(l.derefQuiet(n))), true
}
