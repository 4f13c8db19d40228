package vars

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/diag"
)

// Value is free-form data from a file (forwardedProps, state, a client
// tool's parameters or result), turned into JSON when a test runs. String
// leaves may hold ${...} references; mapping keys are taken literally.
type Value struct {
	Pos  diag.Pos
	node *yaml.Node
	file string
	// lit, when set, is the value as literal JSON: a fixture file's, sent
	// as written.
	lit json.RawMessage
	// subst answers the references set aside (Substitute).
	subst func(Ref) (string, bool)
}

// Substitute returns v with each reference f answers replaced by f's
// text, as a literal (Template.Substitute); the others resolve as before.
func (v Value) Substitute(f func(Ref) (string, bool)) Value {
	v.subst = f
	return v
}

// lookup is how v resolves a reference against vars: the references set
// aside first.
func (v Value) lookup(vars *Vars) func(Ref) (string, error) {
	if v.subst == nil {
		return vars.Lookup
	}
	return func(r Ref) (string, error) {
		if s, ok := v.subst(r); ok {
			return s, nil
		}
		return vars.Lookup(r)
	}
}

// IsZero reports whether the value was absent from the file.
func (v Value) IsZero() bool { return v.node == nil && v.lit == nil }

// IsString reports whether the value is a YAML string (sent as text rather
// than as JSON by client tool results).
func (v Value) IsString() bool {
	if v.lit != nil {
		return v.lit[0] == '"'
	}
	n := derefAll(v.node)
	return n != nil && n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str"
}

// Resolve substitutes references and returns the value as JSON text. An
// absent value resolves to nil.
func (v Value) Resolve(vars *Vars) (json.RawMessage, error) {
	if v.lit != nil {
		return v.lit, nil
	}
	if v.node == nil {
		return nil, nil
	}
	w := jsonWriter{file: v.file, lookup: v.lookup(vars)}
	if err := w.write(v.node); err != nil {
		return nil, err
	}
	return w.buf.Bytes(), nil
}

// ResolveString resolves a string value to its text; other values resolve
// to their JSON text.
func (v Value) ResolveString(vars *Vars) (string, error) {
	if v.lit != nil && v.IsString() {
		var s string
		err := json.Unmarshal(v.lit, &s)
		return s, err
	}
	if v.IsString() {
		n := derefAll(v.node)
		t, _ := ParseTemplate(n.Value, OffsetPos(v.file, n))
		return t.resolve(v.lookup(vars), nil)
	}
	js, err := v.Resolve(vars)
	return string(js), err
}

// jsonWriter writes a YAML node as JSON. At load time (check set) deref
// charges aliases to the loader's budget and template records the
// diagnostics of each string.
type jsonWriter struct {
	buf    bytes.Buffer
	file   string
	lookup func(Ref) (string, error)
	check  *ValueCheck
}

// ValueCheck is how a loader checks a value it reads: deref follows an
// alias within the file's budget (nil once it is exhausted), and template
// parses a string, reporting its problems.
type ValueCheck struct {
	Deref    func(*yaml.Node) *yaml.Node
	Template func(*yaml.Node) (Template, bool)
}

// Check checks that n converts to JSON and that its strings parse as
// templates; problems of a string are reported by c.Template, and the
// error is what else is wrong.
func (c *ValueCheck) Check(n *yaml.Node, file string) error {
	w := jsonWriter{file: file, lookup: placeholder, check: c}
	return w.write(n)
}

// NewValue is the value of node n of file, checked by ValueCheck.Check.
func NewValue(n *yaml.Node, file string, pos diag.Pos) Value {
	return Value{Pos: pos, node: n, file: file}
}

// NewLiteral is a value held as literal JSON (a fixture file's), sent as
// written.
func NewLiteral(raw json.RawMessage, file string, pos diag.Pos) Value {
	return Value{Pos: pos, file: file, lit: raw}
}

func (w *jsonWriter) deref(n *yaml.Node) *yaml.Node {
	if w.check != nil {
		return w.check.Deref(n)
	}
	return derefAll(n)
}

func (w *jsonWriter) write(n *yaml.Node) error {
	if n = w.deref(n); n == nil {
		return nil // budget exhausted; already reported
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			w.buf.WriteString("null")
			return nil
		}
		return w.write(n.Content[0])
	case yaml.MappingNode:
		w.buf.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := w.deref(n.Content[i])
			if k == nil {
				return nil
			}
			if k.Kind != yaml.ScalarNode {
				return fmt.Errorf("line %d: mapping keys must be strings, not %s", k.Line, NodeKind(k))
			}
			if i > 0 {
				w.buf.WriteByte(',')
			}
			writeJSONString(&w.buf, k.Value)
			w.buf.WriteByte(':')
			if err := w.write(n.Content[i+1]); err != nil {
				return err
			}
		}
		w.buf.WriteByte('}')
	case yaml.SequenceNode:
		w.buf.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				w.buf.WriteByte(',')
			}
			if err := w.write(c); err != nil {
				return err
			}
		}
		w.buf.WriteByte(']')
	case yaml.ScalarNode:
		return w.scalar(n)
	}
	return nil
}

func (w *jsonWriter) scalar(n *yaml.Node) error {
	switch n.ShortTag() {
	case "!!null":
		w.buf.WriteString("null")
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return fmt.Errorf("line %d: %q is not a boolean", n.Line, n.Value)
		}
		w.buf.WriteString(strconv.FormatBool(b))
	case "!!int":
		i, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64)
		if err != nil {
			return fmt.Errorf("line %d: number %s does not fit in 64 bits", n.Line, n.Value)
		}
		w.buf.WriteString(strconv.FormatInt(i, 10))
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return fmt.Errorf("line %d: %s has no JSON form", n.Line, n.Value)
		}
		if json.Valid([]byte(n.Value)) {
			w.buf.WriteString(n.Value)
		} else {
			w.buf.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
		}
	default:
		// At load time the loader parses (reporting syntax errors) and
		// lookup answers every reference with a placeholder.
		var t Template
		if w.check != nil {
			var ok bool
			if t, ok = w.check.Template(n); !ok {
				return nil
			}
		} else {
			t, _ = ParseTemplate(n.Value, OffsetPos(w.file, n))
		}
		s, err := t.resolve(w.lookup, nil)
		if err != nil {
			return err
		}
		writeJSONString(&w.buf, s)
	}
	return nil
}

// writeJSONString writes s as a JSON string without HTML escaping, so "<"
// reaches the agent (and the trace) as typed.
func writeJSONString(buf *bytes.Buffer, s string) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)           // a string always encodes
	buf.Truncate(buf.Len() - 1) // Encode adds a newline
}

// derefAll follows aliases; only used on values the loader already walked
// within its alias budget.
func derefAll(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// Refs lists the references inside the value's strings.
func (v Value) Refs() []Ref {
	if v.node == nil {
		return nil
	}
	var refs []Ref
	w := jsonWriter{file: v.file, lookup: func(r Ref) (string, error) {
		if v.subst != nil {
			if _, ok := v.subst(r); ok {
				return "", nil
			}
		}
		refs = append(refs, r)
		return "", nil
	}}
	_ = w.write(v.node) // the value was checked when loaded
	return refs
}

// NodeKind names a node's kind for messages: "a mapping", "a list", "a
// string"…
func NodeKind(n *yaml.Node) string {
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
