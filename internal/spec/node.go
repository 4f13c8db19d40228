package spec

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

// maxAliasExpansions bounds how many nodes may be reached through YAML
// aliases in one file. Without it a few lines of anchors ("billion laughs")
// would make the walk below exponential; real files reuse a block a few
// dozen times at most.
const maxAliasExpansions = 10_000

// extensionPrefix marks keys Ananke ignores, as docker compose does: a
// place to define YAML anchors ("x-common: &common {...}") for reuse.
const extensionPrefix = "x-"

// loader walks the yaml.Node tree of one file, recording every problem.
type loader struct {
	file  string
	diags *diag.Diagnostics
	// env reads the environment a source path's ~ and ${ENV.NAME} name
	// (nil: an empty one).
	env      func(string) (string, bool)
	expanded int
	// tooDeep is set once the alias budget is exhausted, so the problem is
	// reported once and the walk stops descending into aliases.
	tooDeep bool
	// files are the attachments read so far, by path: a file named by
	// many parts is read once.
	files map[string]*Attachment
	// dataset is set while reading a dataset: checkpoints also take the
	// assertion vocabulary.
	dataset bool
	// regexps are the patterns compiled so far: a dataset of thousands of
	// cases repeats a handful.
	regexps map[string]*regexp.Regexp
	// declared is the file's version as written and minor its minor
	// number, once read and valid ("" until then, and in datasets).
	declared string
	minor    int
}

func (l *loader) pos(n *yaml.Node) diag.Pos {
	return diag.Pos{File: l.file, Line: n.Line, Col: n.Column}
}

func (l *loader) errorf(n *yaml.Node, format string, args ...any) {
	l.diags.Add(l.pos(n), format, args...)
}

// deref follows an alias to the node it names, within the alias budget. It
// returns nil when the budget is exhausted.
func (l *loader) deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		l.expanded += countNodes(n.Alias, maxAliasExpansions-l.expanded+1)
		if l.expanded > maxAliasExpansions {
			if !l.tooDeep {
				l.errorf(n, "aliases expand to more than %d nodes; this file is too large to load", maxAliasExpansions)
				l.tooDeep = true
			}
			return nil
		}
		n = n.Alias
	}
	return n
}

// countNodes counts the nodes under n, stopping once limit is reached.
func countNodes(n *yaml.Node, limit int) int {
	if n == nil || limit <= 0 {
		return 0
	}
	total := 1
	for _, c := range n.Content {
		total += countNodes(c, limit-total)
		if total >= limit {
			break
		}
	}
	if n.Kind == yaml.AliasNode {
		total += countNodes(n.Alias, limit-total)
	}
	return total
}

// kindName names a node's kind for messages.
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return "null"
		case "!!bool":
			return "a boolean"
		case "!!int", "!!float":
			return "a number"
		}
		return "a string"
	}
	return "an unsupported node"
}

// pair is one key/value of a mapping.
type pair struct{ key, val *yaml.Node }

// fields checks that n is a mapping whose keys are all in known, and returns
// its entries by key. YAML merge keys ("<<: *base") are expanded; keys written
// in the mapping itself win over merged ones.
func (l *loader) fields(n *yaml.Node, what string, known []string) (map[string]pair, bool) {
	return l.fieldsShown(n, what, known, known)
}

// fieldsShown is fields, suggesting only the names in shown for an unknown
// key (a target of one type lists that type's fields).
func (l *loader) fieldsShown(n *yaml.Node, what string, known, shown []string) (map[string]pair, bool) {
	n = l.deref(n)
	if n == nil {
		return nil, false
	}
	if n.Kind != yaml.MappingNode {
		l.errorf(n, "%s must be a mapping, not %s", what, kindName(n))
		return nil, false
	}
	out := map[string]pair{}
	var merged []pair
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			merged = append(merged, l.mergePairs(v, what)...)
			continue
		}
		if k.Kind != yaml.ScalarNode {
			l.errorf(k, "%s has a key that is %s; keys must be strings", what, kindName(k))
			continue
		}
		if strings.HasPrefix(k.Value, extensionPrefix) {
			continue
		}
		if prev, dup := out[k.Value]; dup {
			l.errorf(k, "%q is set twice in %s (first at line %d)", k.Value, what, prev.key.Line)
			continue
		}
		if !contains(known, k.Value) {
			l.errorf(k, "unknown field %q in %s%s", k.Value, what, suggest(k.Value, shown))
			continue
		}
		out[k.Value] = pair{k, v}
	}
	for _, p := range merged {
		if _, set := out[p.key.Value]; set {
			continue
		}
		if !contains(known, p.key.Value) {
			l.errorf(p.key, "unknown field %q in %s%s", p.key.Value, what, suggest(p.key.Value, shown))
			continue
		}
		out[p.key.Value] = p
	}
	return out, true
}

// mergePairs returns the entries a merge key brings in: one mapping or a
// list of mappings (earlier ones win).
func (l *loader) mergePairs(v *yaml.Node, what string) []pair {
	v = l.deref(v)
	if v == nil {
		return nil
	}
	var maps []*yaml.Node
	switch v.Kind {
	case yaml.MappingNode:
		maps = []*yaml.Node{v}
	case yaml.SequenceNode:
		for _, m := range v.Content {
			if m = l.deref(m); m != nil {
				maps = append(maps, m)
			}
		}
	}
	var out []pair
	seen := map[string]bool{}
	for _, m := range maps {
		if m.Kind != yaml.MappingNode {
			l.errorf(m, "a merge key (<<) in %s must name a mapping, not %s", what, kindName(m))
			continue
		}
		for i := 0; i+1 < len(m.Content); i += 2 {
			k := m.Content[i]
			if k.Kind == yaml.ScalarNode && !seen[k.Value] {
				seen[k.Value] = true
				out = append(out, pair{k, m.Content[i+1]})
			}
		}
	}
	return out
}

// require reports each missing required field at the mapping's position.
func (l *loader) require(n *yaml.Node, f map[string]pair, what string, names ...string) {
	for _, name := range names {
		if _, ok := f[name]; !ok {
			l.errorf(l.derefQuiet(n), "%s is missing required field %q", what, name)
		}
	}
}

// derefQuiet follows aliases without charging the budget again; used only
// for positions of nodes already walked.
func (l *loader) derefQuiet(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// scalar returns n when it is a non-null scalar.
func (l *loader) scalar(n *yaml.Node, what, want string) (*yaml.Node, bool) {
	n = l.deref(n)
	if n == nil {
		return nil, false
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() == "!!null" {
		l.errorf(n, "%s must be %s, not %s", what, want, kindName(n))
		return nil, false
	}
	return n, true
}

// text reads a string. Numbers and booleans are accepted as their source
// text, so `user: 42` sends "42".
func (l *loader) text(n *yaml.Node, what string) (string, *yaml.Node, bool) {
	s, ok := l.scalar(n, what, "a string")
	if !ok {
		return "", nil, false
	}
	return s.Value, s, true
}

// name reads an identifier-like string (names, ids, tags): non-empty and
// without ${...} references, which are resolved too late to name anything.
func (l *loader) name(n *yaml.Node, what string) (vars.Name, bool) {
	s, node, ok := l.text(n, what)
	if !ok {
		return vars.Name{}, false
	}
	if strings.TrimSpace(s) == "" {
		l.errorf(node, "%s must not be empty", what)
		return vars.Name{}, false
	}
	if strings.Contains(s, "${") {
		l.errorf(node, "%s cannot contain ${...}: names are fixed when the file is loaded", what)
		return vars.Name{}, false
	}
	return vars.Name{Value: s, Pos: l.pos(node)}, true
}

// integer reads a whole number within [lo, hi].
func (l *loader) integer(n *yaml.Node, what string, lo, hi int64) (int64, bool) {
	s, ok := l.scalar(n, what, "a whole number")
	if !ok {
		return 0, false
	}
	if s.ShortTag() != "!!int" {
		l.errorf(s, "%s must be a whole number, not %s", what, kindName(s))
		return 0, false
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(s.Value, "_", ""), 0, 64)
	if err != nil || v < lo || v > hi {
		if hi == math.MaxInt64 {
			l.errorf(s, "%s must be at least %d, got %s", what, lo, s.Value)
		} else {
			l.errorf(s, "%s must be between %d and %d, got %s", what, lo, hi, s.Value)
		}
		return 0, false
	}
	return v, true
}

// boolean reads true or false.
func (l *loader) boolean(n *yaml.Node, what string) (bool, bool) {
	s, ok := l.scalar(n, what, "true or false")
	if !ok {
		return false, false
	}
	if s.ShortTag() != "!!bool" {
		l.errorf(s, "%s must be true or false, not %s", what, kindName(s))
		return false, false
	}
	var b bool
	if err := s.Decode(&b); err != nil {
		l.errorf(s, "%s must be true or false", what)
		return false, false
	}
	return b, true
}

// list returns the items of a sequence, following aliases.
func (l *loader) list(n *yaml.Node, what string) ([]*yaml.Node, bool) {
	n = l.deref(n)
	if n == nil {
		return nil, false
	}
	if n.Kind != yaml.SequenceNode {
		l.errorf(n, "%s must be a list, not %s", what, kindName(n))
		return nil, false
	}
	return n.Content, true
}

// oneOrList accepts a single scalar or a list of them.
func (l *loader) oneOrList(n *yaml.Node, what string) ([]*yaml.Node, bool) {
	d := l.deref(n)
	if d == nil {
		return nil, false
	}
	if d.Kind == yaml.SequenceNode {
		return d.Content, true
	}
	if d.Kind == yaml.ScalarNode && d.ShortTag() != "!!null" {
		return []*yaml.Node{d}, true
	}
	l.errorf(d, "%s must be a string or a list of strings, not %s", what, kindName(d))
	return nil, false
}

// index formats "what[i]".
func index(what string, i int) string { return fmt.Sprintf("%s[%d]", what, i) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
