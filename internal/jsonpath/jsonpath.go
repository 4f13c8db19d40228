// Package jsonpath reads a value out of a decoded JSON document by a path
// written in a small subset of JSONPath (RFC 9535) — $, .name, ['name'],
// [n], [*] and .* — or as a JSON Pointer (RFC 6901: /a/b/0, with ~0 for
// "~" and ~1 for "/"). It is a leaf package: the http target's response
// mapping reads its paths with it (docs/http.md).
//
// A path is parsed once (Parse, whose error names the offending byte) and
// evaluated over documents decoded by encoding/json, numbers as
// json.Number or float64 (Eval).
package jsonpath

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
)

// Path is a parsed path.
type Path struct {
	raw   string
	steps []step
}

// step is one selector: a member name, an array index (negative: from the
// end), every member or element, or a JSON Pointer's token (a member, or
// an element by its index).
type step struct {
	kind  kind
	name  string
	index int
}

type kind uint8

const (
	member kind = iota
	index
	wildcard
	pointer
)

// Error is a path that does not parse: Offset is the byte of the path the
// problem is at.
type Error struct {
	Offset int
	Msg    string
}

func (e *Error) Error() string { return fmt.Sprintf("at byte %d: %s", e.Offset, e.Msg) }

// Parse reads a JSONPath (starting with $) or a JSON Pointer (starting
// with /).
func Parse(s string) (*Path, error) {
	var steps []step
	var err error
	switch {
	case s == "":
		return nil, &Error{0, "a path is empty: write $ for the whole document, $.name or /name for a member"}
	case s[0] == '$':
		steps, err = parseJSONPath(s)
	case s[0] == '/':
		steps, err = parsePointer(s)
	default:
		return nil, &Error{0, fmt.Sprintf("a path starts with $ (JSONPath, $.reply) or / (JSON Pointer, /reply), not %s", quoteByte(s, 0))}
	}
	if err != nil {
		return nil, err
	}
	return &Path{raw: s, steps: steps}, nil
}

// String is the path as written.
func (p *Path) String() string { return p.raw }

// Definite reports whether the path selects one value at most: it has no
// wildcard.
func (p *Path) Definite() bool {
	for _, s := range p.steps {
		if s.kind == wildcard {
			return false
		}
	}
	return true
}

// Eval returns the values the path selects in doc, in document order (an
// object's members by name, sorted: a decoded object keeps no order).
// None is not an error: the caller says what a path that matches nothing
// means.
func (p *Path) Eval(doc any) []any {
	cur := []any{doc}
	for _, s := range p.steps {
		var next []any
		for _, v := range cur {
			next = s.apply(v, next)
		}
		if len(next) == 0 {
			return nil
		}
		cur = next
	}
	return cur
}

// apply appends to out what step s selects in v.
func (s step) apply(v any, out []any) []any {
	switch s.kind {
	case member:
		if m, ok := v.(map[string]any); ok {
			if x, ok := m[s.name]; ok {
				out = append(out, x)
			}
		}
	case index:
		if a, ok := v.([]any); ok {
			i := s.index
			if i < 0 {
				i += len(a)
			}
			if i >= 0 && i < len(a) {
				out = append(out, a[i])
			}
		}
	case pointer:
		switch x := v.(type) {
		case map[string]any:
			if y, ok := x[s.name]; ok {
				out = append(out, y)
			}
		case []any:
			if i, ok := arrayIndex(s.name); ok && i < len(x) {
				out = append(out, x[i])
			}
		}
	case wildcard:
		switch x := v.(type) {
		case []any:
			out = append(out, x...)
		case map[string]any:
			for _, k := range sortedKeys(x) {
				out = append(out, x[k])
			}
		}
	}
	return out
}

// Decode decodes a JSON document as Eval reads it: numbers as
// json.Number, so large integers keep their digits.
func Decode(data []byte) (any, error) {
	// Unmarshal first: it rejects what follows the value, and says where.
	if err := json.Unmarshal(data, new(json.RawMessage)); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// arrayIndex reads a JSON Pointer's token as an array index: digits
// without a leading zero (RFC 6901 §4; "-", past the end, selects
// nothing).
func arrayIndex(tok string) (int, bool) {
	if tok == "" || tok[0] == '0' && len(tok) > 1 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if c < '0' || c > '9' || n > (math.MaxInt-9)/10 {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func sortedKeys(m map[string]any) []string {
	return slices.Sorted(maps.Keys(m))
}
