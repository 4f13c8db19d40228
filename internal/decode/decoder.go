package decode

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
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

// Decoder walks the yaml.Node tree of one file, recording every problem:
// the loader of the file model reads with it, and so does each assertion
// kind its part of an assert block.
type Decoder struct {
	File     string
	Diags    *diag.Diagnostics
	expanded int
	// tooDeep is set once the alias budget is exhausted, so the problem is
	// reported once and the walk stops descending into aliases.
	tooDeep bool
	// regexps are the patterns compiled so far: a dataset of thousands of
	// cases repeats a handful.
	regexps map[string]*regexp.Regexp
	// declared is the file's version as written and minor its minor
	// number, once read and valid ("" until then, and in datasets).
	declared string
	minor    int
}

// Pos is where n is written.
func (d *Decoder) Pos(n *yaml.Node) diag.Pos {
	return diag.Pos{File: d.File, Line: n.Line, Col: n.Column}
}

// Errorf reports a problem at n.
func (d *Decoder) Errorf(n *yaml.Node, format string, args ...any) {
	d.Diags.Add(d.Pos(n), format, args...)
}

// Deref follows an alias to the node it names, within the alias budget. It
// returns nil when the budget is exhausted.
func (d *Decoder) Deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		d.expanded += countNodes(n.Alias, maxAliasExpansions-d.expanded+1)
		if d.expanded > maxAliasExpansions {
			if !d.tooDeep {
				d.Errorf(n, "aliases expand to more than %d nodes; this file is too large to load", maxAliasExpansions)
				d.tooDeep = true
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

// KindName names a node's kind for messages.
func KindName(n *yaml.Node) string { return vars.NodeKind(n) }

// Pair is one key/value of a mapping.
type Pair struct{ Key, Val *yaml.Node }

// Fields checks that n is a mapping whose keys are all in known, and returns
// its entries by key. YAML merge keys ("<<: *base") are expanded; keys written
// in the mapping itself win over merged ones.
func (d *Decoder) Fields(n *yaml.Node, what string, known []string) (map[string]Pair, bool) {
	return d.FieldsShown(n, what, known, known)
}

// FieldsShown is fields, suggesting only the names in shown for an unknown
// key (a target of one type lists that type's fields).
func (d *Decoder) FieldsShown(n *yaml.Node, what string, known, shown []string) (map[string]Pair, bool) {
	n = d.Deref(n)
	if n == nil {
		return nil, false
	}
	if n.Kind != yaml.MappingNode {
		d.Errorf(n, "%s must be a mapping, not %s", what, KindName(n))
		return nil, false
	}
	out := map[string]Pair{}
	var merged []Pair
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			merged = append(merged, d.mergePairs(v, what)...)
			continue
		}
		if k.Kind != yaml.ScalarNode {
			d.Errorf(k, "%s has a key that is %s; keys must be strings", what, KindName(k))
			continue
		}
		if strings.HasPrefix(k.Value, extensionPrefix) {
			continue
		}
		if prev, dup := out[k.Value]; dup {
			d.Errorf(k, "%q is set twice in %s (first at line %d)", k.Value, what, prev.Key.Line)
			continue
		}
		if !slices.Contains(known, k.Value) {
			d.Errorf(k, "unknown field %q in %s%s", k.Value, what, Suggest(k.Value, shown))
			continue
		}
		out[k.Value] = Pair{k, v}
	}
	for _, p := range merged {
		if _, set := out[p.Key.Value]; set {
			continue
		}
		if !slices.Contains(known, p.Key.Value) {
			d.Errorf(p.Key, "unknown field %q in %s%s", p.Key.Value, what, Suggest(p.Key.Value, shown))
			continue
		}
		out[p.Key.Value] = p
	}
	return out, true
}

// mergePairs returns the entries a merge key brings in: one mapping or a
// List of mappings (earlier ones win).
func (d *Decoder) mergePairs(v *yaml.Node, what string) []Pair {
	v = d.Deref(v)
	if v == nil {
		return nil
	}
	var maps []*yaml.Node
	switch v.Kind {
	case yaml.MappingNode:
		maps = []*yaml.Node{v}
	case yaml.SequenceNode:
		for _, m := range v.Content {
			if m = d.Deref(m); m != nil {
				maps = append(maps, m)
			}
		}
	}
	var out []Pair
	seen := map[string]bool{}
	for _, m := range maps {
		if m.Kind != yaml.MappingNode {
			d.Errorf(m, "a merge key (<<) in %s must name a mapping, not %s", what, KindName(m))
			continue
		}
		for i := 0; i+1 < len(m.Content); i += 2 {
			k := m.Content[i]
			if k.Kind == yaml.ScalarNode && !seen[k.Value] {
				seen[k.Value] = true
				out = append(out, Pair{k, m.Content[i+1]})
			}
		}
	}
	return out
}

// Require reports each missing required field at the mapping's position.
func (d *Decoder) Require(n *yaml.Node, f map[string]Pair, what string, names ...string) {
	for _, name := range names {
		if _, ok := f[name]; !ok {
			d.Errorf(d.DerefQuiet(n), "%s is missing required field %q", what, name)
		}
	}
}

// DerefQuiet follows aliases without charging the budget again; used only
// for positions of nodes already walked.
func (d *Decoder) DerefQuiet(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// Scalar returns n when it is a non-null scalar.
func (d *Decoder) Scalar(n *yaml.Node, what, want string) (*yaml.Node, bool) {
	n = d.Deref(n)
	if n == nil {
		return nil, false
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() == "!!null" {
		d.Errorf(n, "%s must be %s, not %s", what, want, KindName(n))
		return nil, false
	}
	return n, true
}

// Text reads a string. Numbers and booleans are accepted as their source
// text, so `user: 42` sends "42".
func (d *Decoder) Text(n *yaml.Node, what string) (string, *yaml.Node, bool) {
	s, ok := d.Scalar(n, what, "a string")
	if !ok {
		return "", nil, false
	}
	return s.Value, s, true
}

// Name reads an identifier-like string (names, ids, tags): non-empty and
// without ${...} references, which are resolved too late to name anything.
func (d *Decoder) Name(n *yaml.Node, what string) (vars.Name, bool) {
	s, node, ok := d.Text(n, what)
	if !ok {
		return vars.Name{}, false
	}
	if strings.TrimSpace(s) == "" {
		d.Errorf(node, "%s must not be empty", what)
		return vars.Name{}, false
	}
	if strings.Contains(s, "${") {
		d.Errorf(node, "%s cannot contain ${...}: names are fixed when the file is loaded", what)
		return vars.Name{}, false
	}
	return vars.Name{Value: s, Pos: d.Pos(node)}, true
}

// Integer reads a whole number within [lo, hi].
func (d *Decoder) Integer(n *yaml.Node, what string, lo, hi int64) (int64, bool) {
	s, ok := d.Scalar(n, what, "a whole number")
	if !ok {
		return 0, false
	}
	if s.ShortTag() != "!!int" {
		d.Errorf(s, "%s must be a whole number, not %s", what, KindName(s))
		return 0, false
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(s.Value, "_", ""), 0, 64)
	if err != nil || v < lo || v > hi {
		if hi == math.MaxInt64 {
			d.Errorf(s, "%s must be at least %d, got %s", what, lo, s.Value)
		} else {
			d.Errorf(s, "%s must be between %d and %d, got %s", what, lo, hi, s.Value)
		}
		return 0, false
	}
	return v, true
}

// Number reads a finite number, whole or not (1, 0.15, 2.5e-3), and
// returns it with its node, for range messages at its place.
func (d *Decoder) Number(n *yaml.Node, what string) (float64, *yaml.Node, bool) {
	s, ok := d.Scalar(n, what, "a number")
	if !ok {
		return 0, nil, false
	}
	if tag := s.ShortTag(); tag != "!!int" && tag != "!!float" {
		d.Errorf(s, "%s must be a number, not %s", what, KindName(s))
		return 0, nil, false
	}
	text := strings.ReplaceAll(s.Value, "_", "")
	v, err := strconv.ParseFloat(text, 64)
	if i, ierr := strconv.ParseInt(text, 0, 64); ierr == nil && s.ShortTag() == "!!int" {
		v, err = float64(i), nil // 0x10, 0o17 as YAML reads them
	}
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		d.Errorf(s, "%s must be a finite number, got %s", what, s.Value)
		return 0, nil, false
	}
	return v, s, true
}

// Boolean reads true or false.
func (d *Decoder) Boolean(n *yaml.Node, what string) (bool, bool) {
	s, ok := d.Scalar(n, what, "true or false")
	if !ok {
		return false, false
	}
	if s.ShortTag() != "!!bool" {
		d.Errorf(s, "%s must be true or false, not %s", what, KindName(s))
		return false, false
	}
	var b bool
	if err := s.Decode(&b); err != nil {
		d.Errorf(s, "%s must be true or false", what)
		return false, false
	}
	return b, true
}

// List returns the items of a sequence, following aliases.
func (d *Decoder) List(n *yaml.Node, what string) ([]*yaml.Node, bool) {
	n = d.Deref(n)
	if n == nil {
		return nil, false
	}
	if n.Kind != yaml.SequenceNode {
		d.Errorf(n, "%s must be a list, not %s", what, KindName(n))
		return nil, false
	}
	return n.Content, true
}

// OneOrList accepts a single scalar or a list of them.
func (d *Decoder) OneOrList(n *yaml.Node, what string) ([]*yaml.Node, bool) {
	v := d.Deref(n)
	if v == nil {
		return nil, false
	}
	if v.Kind == yaml.SequenceNode {
		return v.Content, true
	}
	if v.Kind == yaml.ScalarNode && v.ShortTag() != "!!null" {
		return []*yaml.Node{v}, true
	}
	d.Errorf(v, "%s must be a string or a list of strings, not %s", what, KindName(v))
	return nil, false
}

// Index formats "what[i]".
func Index(what string, i int) string { return fmt.Sprintf("%s[%d]", what, i) }

// UnwrapPath drops the path an *os.PathError repeats.
func UnwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
