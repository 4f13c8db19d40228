package spec

import (
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
)

// Variant is one entry of the config's variants: the suite run against
// another agent, model or prompt (docs/variants.md).
type Variant struct {
	Pos  diag.Pos
	Name string
	// Target is the config's target with the variant's target: mapping
	// merged over it, read and checked as the target itself is.
	Target *Target
	// Overrides are the keys the variant sets, as paths ("endpoint",
	// "server.env.MODEL_BEHAVIOUR", "gateway.model"), for reports.
	Overrides []string
	// GatewayModel, when set, is the model the gateway asks its upstream
	// for, in place of the one each request names.
	GatewayModel string
	// Stability overrides the config's runs, min_pass_rate and retries
	// for this variant (a test file's still win).
	Stability Stability
}

// variantFields are the keys of one entry of variants:.
var variantFields = append([]string{"name", "target", "gateway"}, stabilityFields...)

// variantGatewayFields are the keys of a variant's gateway:.
var variantGatewayFields = []string{"model"}

// reservedVariantNames are names the command line gives a meaning of its
// own (--variants all).
var reservedVariantNames = []string{"all"}

// variants reads the config's variants:, once its target and gateway are
// read: base is the config's target node (nil without one).
func (l *loader) variants(f map[string]decode.Pair, c *Config, base *yaml.Node) {
	p, ok := f["variants"]
	if !ok {
		return
	}
	items, ok := l.List(p.Val, "variants")
	if !ok {
		return
	}
	if len(items) == 0 {
		l.Errorf(l.DerefQuiet(p.Val), "variants must list at least one variant: - name: NAME")
		return
	}
	c.Variants = []*Variant{}
	seen := map[string]diag.Pos{}
	for i, item := range items {
		v, at := l.variant(item, decode.Index("variants", i), c, base)
		if v == nil {
			continue
		}
		if v.Name != "" {
			if first, dup := seen[v.Name]; dup {
				l.Diags.Add(at, "variant %q is named twice (first at line %d)", v.Name, first.Line)
			} else {
				seen[v.Name] = at
			}
		}
		c.Variants = append(c.Variants, v)
	}
}

// variant reads one entry of variants:, and says where its name is.
func (l *loader) variant(n *yaml.Node, what string, c *Config, base *yaml.Node) (*Variant, diag.Pos) {
	f, ok := l.Fields(n, what, variantFields)
	if !ok {
		return nil, diag.Pos{}
	}
	m := l.DerefQuiet(n)
	v := &Variant{Pos: l.Pos(m)}
	l.Require(n, f, what, "name")
	var at diag.Pos
	if p, ok := f["name"]; ok {
		v.Name, at = l.variantName(p.Val, what+".name")
	}
	if p, ok := f["target"]; ok {
		v.Target = l.variantTarget(p.Val, base, v.label(what), lineSpan(m))
		v.Overrides = append(v.Overrides, overridePaths(l.DerefQuiet(p.Val), "")...)
	} else {
		t := c.Target
		v.Target = &t
	}
	if p, ok := f["gateway"]; ok {
		v.GatewayModel = l.variantGateway(p.Val, what+".gateway", c)
		if v.GatewayModel != "" {
			v.Overrides = append(v.Overrides, "gateway.model")
		}
	}
	v.Stability = l.stability(f, what+".")
	for _, k := range stabilityFields {
		if _, ok := f[k]; ok {
			v.Overrides = append(v.Overrides, k)
		}
	}
	return v, at
}

// label names a variant in messages: by its name when it has one.
func (v *Variant) label(what string) string {
	if v.Name != "" {
		return "variant " + v.Name
	}
	return what
}

// variantName reads a variant's name: an identifier of letters, digits,
// '-', '_' and '.', which reports join to test ids (id@name).
func (l *loader) variantName(n *yaml.Node, what string) (string, diag.Pos) {
	name, ok := l.Name(n, what)
	if !ok {
		return "", diag.Pos{}
	}
	if !validVariantName(name.Value) {
		l.Diags.Add(name.Pos, "%s %q may hold only letters, digits, '-', '_' and '.'", what, name.Value)
		return "", diag.Pos{}
	}
	if slices.Contains(reservedVariantNames, name.Value) {
		l.Diags.Add(name.Pos, "%s %q is reserved: --variants all runs every variant", what, name.Value)
		return "", diag.Pos{}
	}
	return name.Value, name.Pos
}

func validVariantName(s string) bool {
	for _, r := range s {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.'
		if !ok {
			return false
		}
	}
	return s != ""
}

// variantGateway reads a variant's gateway: {model}: the model the
// gateway asks its upstream for.
func (l *loader) variantGateway(n *yaml.Node, what string, c *Config) string {
	f, ok := l.Fields(n, what, variantGatewayFields)
	if !ok {
		return ""
	}
	l.Require(n, f, what, "model")
	p, ok := f["model"]
	if !ok {
		return ""
	}
	model, ok := l.Name(p.Val, what+".model")
	if !ok {
		return ""
	}
	if c.Gateway == nil {
		l.Errorf(l.DerefQuiet(p.Key), "%s.model: the config has no gateway:, so no model call goes through one", what)
		return ""
	}
	return model.Value
}

// variantTarget merges a variant's target: over the config's (base) and
// reads the result as target: is read. A problem the config's target has
// alone is reported once, for the config; one the merge brings about
// outside the variant's lines (span) names the variant.
func (l *loader) variantTarget(over, base *yaml.Node, label string, span [2]int) *Target {
	o := l.Deref(over)
	if o == nil {
		return nil
	}
	if o.Kind != yaml.MappingNode {
		l.Errorf(o, "%s: target must be a mapping, not %s", label, decode.KindName(o))
		return nil
	}
	if typ, node := mappingValue(o, "type"); node != nil && base != nil && typ != peekType(base) {
		l.Errorf(node, "%s: a variant cannot change target.type (the config's is %q); write another config for a target of type %q", label, peekType(base), typ)
		return nil
	}
	merged := o
	if base != nil {
		merged = mergeNodes(l.DerefQuiet(base), o)
	}
	outer := l.Diags
	var own diag.Diagnostics
	l.Diags = &own
	t := l.target(merged)
	l.Diags = outer
	for _, d := range own {
		if slices.Contains(*outer, d) {
			continue
		}
		if d.Pos.Line < span[0] || d.Pos.Line > span[1] {
			d.Message += " (in " + label + ")"
		}
		*outer = append(*outer, d)
	}
	return &t
}

// mappingValue returns the scalar value of key in mapping m, and its
// node (nil when m does not set it to a scalar).
func mappingValue(m *yaml.Node, key string) (string, *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key && m.Content[i+1].Kind == yaml.ScalarNode {
			return m.Content[i+1].Value, m.Content[i+1]
		}
	}
	return "", nil
}

// mergeNodes merges mapping over onto mapping base, key by key and
// recursively where both values are mappings; any other value of over
// replaces base's. The result shares the nodes of both, so every value
// keeps the position it is written at; base's merge keys (<<) are
// expanded first, so a key over sets wins over a merged one.
func mergeNodes(base, over *yaml.Node) *yaml.Node {
	b, o := derefAll(base), derefAll(over)
	if b == nil || o == nil || b.Kind != yaml.MappingNode || o.Kind != yaml.MappingNode {
		return over
	}
	out := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: o.Style, Line: o.Line, Column: o.Column}
	pairs := flatPairs(b, true)
	index := map[string]int{}
	for i, p := range pairs {
		index[p.Key.Value] = i
	}
	set := map[string]bool{}
	for _, p := range flatPairs(o, false) {
		// A key over writes twice is kept twice, for the reader to report.
		if i, ok := index[p.Key.Value]; ok && !set[p.Key.Value] {
			pairs[i] = decode.Pair{Key: p.Key, Val: mergeNodes(pairs[i].Val, p.Val)}
			set[p.Key.Value] = true
			continue
		}
		set[p.Key.Value] = true
		pairs = append(pairs, p)
	}
	for _, p := range pairs {
		out.Content = append(out.Content, p.Key, p.Val)
	}
	return out
}

// flatPairs returns a mapping's entries with its merge keys (<<)
// expanded, written keys winning over merged ones; a key written twice is
// kept once (the first) when once is set; keys that are not strings are
// kept for the reader to report.
func flatPairs(m *yaml.Node, once bool) []decode.Pair {
	var own, merged []decode.Pair
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			for _, src := range mergeSources(v) {
				for j := 0; j+1 < len(src.Content); j += 2 {
					merged = append(merged, decode.Pair{Key: src.Content[j], Val: src.Content[j+1]})
				}
			}
			continue
		}
		if k.Kind == yaml.ScalarNode {
			if once && seen[k.Value] {
				continue
			}
			seen[k.Value] = true
		}
		own = append(own, decode.Pair{Key: k, Val: v})
	}
	for _, p := range merged {
		if p.Key.Kind == yaml.ScalarNode && !seen[p.Key.Value] {
			seen[p.Key.Value] = true
			own = append(own, p)
		}
	}
	return own
}

// mergeSources are the mappings a merge key (<<) names: one, or a list.
func mergeSources(v *yaml.Node) []*yaml.Node {
	v = derefAll(v)
	if v == nil {
		return nil
	}
	var list []*yaml.Node
	switch v.Kind {
	case yaml.MappingNode:
		list = []*yaml.Node{v}
	case yaml.SequenceNode:
		list = v.Content
	}
	var out []*yaml.Node
	for _, m := range list {
		if m = derefAll(m); m != nil && m.Kind == yaml.MappingNode {
			out = append(out, m)
		}
	}
	return out
}

// derefAll follows aliases; the file's reader has charged them already.
func derefAll(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// overridePaths lists the leaves a variant's target: sets, as dotted
// paths under prefix: a mapping's keys are walked, any other value is a
// leaf.
func overridePaths(n *yaml.Node, prefix string) []string {
	n = derefAll(n)
	if n == nil || n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		if prefix == "" {
			return nil
		}
		return []string{prefix}
	}
	var out []string
	for _, p := range flatPairs(n, true) {
		if p.Key.Kind != yaml.ScalarNode {
			continue
		}
		path := p.Key.Value
		if prefix != "" {
			path = prefix + "." + path
		}
		out = append(out, overridePaths(p.Val, path)...)
	}
	return out
}

// lineSpan is the first and last line n's subtree is written on.
func lineSpan(n *yaml.Node) [2]int {
	span := [2]int{n.Line, n.Line}
	var walk func(*yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil {
			return
		}
		span[1] = max(span[1], n.Line)
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	return span
}
