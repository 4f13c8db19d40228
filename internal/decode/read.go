package decode

import (
	"regexp"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/vars"
)

// Template parses a scalar node as a Template.
func (d *Decoder) Template(n *yaml.Node, what string) (vars.Template, bool) {
	s, node, ok := d.Text(n, what)
	if !ok {
		return vars.Template{}, false
	}
	t, diags := vars.ParseTemplate(s, vars.OffsetPos(d.File, node))
	*d.Diags = append(*d.Diags, diags...)
	return t, len(diags) == 0
}

// Regex parses a scalar node as a Regex, reporting a bad pattern at its
// position.
func (d *Decoder) Regex(n *yaml.Node, what string) (*vars.Regex, bool) {
	t, ok := d.Template(n, what)
	if !ok {
		return nil, false
	}
	// Check the syntax with each reference replaced by a plain word.
	src := t.Placeholder()
	re := d.regexps[src]
	if re == nil {
		var err error
		if re, err = regexp.Compile(src); err != nil {
			d.Errorf(d.DerefQuiet(n), "%s: invalid regex %q: %s", what, t.Raw, vars.RegexError(err))
			return nil, false
		}
		if d.regexps == nil {
			d.regexps = map[string]*regexp.Regexp{}
		}
		d.regexps[src] = re
	}
	if len(t.Refs()) > 0 {
		re = nil // compiled when bound
	}
	return vars.NewRegex(t, re), true
}

// Value checks that n converts to JSON and that its strings parse as
// templates.
func (d *Decoder) Value(n *yaml.Node, what string) (vars.Value, bool) {
	before := len(*d.Diags)
	check := vars.ValueCheck{Deref: d.Deref, Template: func(n *yaml.Node) (vars.Template, bool) { return d.Template(n, "value") }}
	if err := check.Check(n, d.File); err != nil {
		d.Errorf(d.DerefQuiet(n), "%s: %v", what, err)
	}
	if len(*d.Diags) > before {
		return vars.Value{}, false
	}
	return vars.NewValue(n, d.File, d.Pos(d.DerefQuiet(n))), true
}

// Argv reads a non-empty command list.
func (d *Decoder) Argv(n *yaml.Node, what string) []vars.Template {
	items, ok := d.List(n, what)
	if !ok {
		return nil
	}
	if len(items) == 0 {
		d.Errorf(d.DerefQuiet(n), "%s must name a program: write [program, arg, ...]", what)
		return nil
	}
	out := make([]vars.Template, 0, len(items))
	for i, item := range items {
		if t, ok := d.Template(item, Index(what, i)); ok {
			out = append(out, t)
		}
	}
	return out
}

// OptRegex reads the regex of field key of mapping f, if it is there.
func (d *Decoder) OptRegex(f map[string]Pair, key, what string) *vars.Regex {
	p, ok := f[key]
	if !ok {
		return nil
	}
	re, _ := d.Regex(p.Val, what+"."+key)
	return re
}

// Regexes reads field key of mapping f: a regex or a list of them (what
// "" for a top-level field).
func (d *Decoder) Regexes(f map[string]Pair, key, what string) []*vars.Regex {
	p, ok := f[key]
	if !ok {
		return nil
	}
	path := key
	if what != "" {
		path = what + "." + key
	}
	items, _ := d.OneOrList(p.Val, path)
	var out []*vars.Regex
	for i, item := range items {
		if re, ok := d.Regex(item, Index(path, i)); ok {
			out = append(out, re)
		}
	}
	return out
}
