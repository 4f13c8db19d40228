package spec

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ohler55/ojg/jp"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

var (
	textFields     = []string{"must_match", "must_not_match", "contains", "omits", "equals", "case_sensitive", "json_schema", "json_path"}
	jsonPathFields = []string{"path", "equals", "match", "type", "exists"}
	// JSONTypes are the values of json_path's type.
	JSONTypes = []string{"string", "number", "boolean", "object", "array", "null"}
)

// JSONSchema is a text.json_schema: the reply (or its ```json block) must
// validate against it.
type JSONSchema struct {
	Pos diag.Pos
	// File is the schema's path as written (relative to the file that
	// declares it); "" for an inline schema.
	File   string
	Schema *jsonschema.Schema
}

// JSONPathCheck is one text.json_path entry: the nodes path selects in the
// reply's JSON must each pass every condition set.
type JSONPathCheck struct {
	Pos  diag.Pos
	Path string
	Expr jp.Expr
	// Equals is a JSON value (zero: unset); Match a regex over the value's
	// text (strings as they are, other JSON compact); Type one of
	// JSONTypes; Exists false requires that path selects nothing.
	Equals vars.Value
	Match  *vars.Regex
	Type   string
	Exists *bool
}

func (l *loader) text1(n *yaml.Node, what string, b *Block) {
	tf, ok := l.Fields(n, what, textFields)
	if !ok {
		return
	}
	b.MustMatch = l.regexes(tf, "must_match", what)
	b.MustNotMatch = l.regexes(tf, "must_not_match", what)
	b.Contains = l.literals(tf, "contains", what)
	b.Omits = l.literals(tf, "omits", what)
	if p, ok := tf["equals"]; ok {
		if t, ok := l.Template(p.Val, what+".equals"); ok {
			b.Equals = &t
		}
	}
	if p, ok := tf["case_sensitive"]; ok {
		b.CaseSensitive, _ = l.Boolean(p.Val, what+".case_sensitive")
		if _, lit := tf["contains"]; !lit {
			if _, lit = tf["omits"]; !lit {
				if _, lit = tf["equals"]; !lit {
					l.Errorf(p.Key, "%s.case_sensitive applies to contains, omits and equals, and this block has none", what)
				}
			}
		}
	}
	if p, ok := tf["json_schema"]; ok {
		b.JSONSchema = l.jsonSchema(p.Val, what+".json_schema")
	}
	if p, ok := tf["json_path"]; ok {
		items, _ := l.List(p.Val, what+".json_path")
		for i, item := range items {
			if c, ok := l.jsonPath(item, decode.Index(what+".json_path", i)); ok {
				b.JSONPath = append(b.JSONPath, c)
			}
		}
	}
}

// literals reads a string or a list of non-empty strings (templates).
func (l *loader) literals(f map[string]decode.Pair, key, what string) []vars.Template {
	p, ok := f[key]
	if !ok {
		return nil
	}
	path := what + "." + key
	items, _ := l.OneOrList(p.Val, path)
	var out []vars.Template
	for i, item := range items {
		t, ok := l.Template(item, decode.Index(path, i))
		if !ok {
			continue
		}
		if strings.TrimSpace(t.Raw) == "" {
			l.Errorf(l.DerefQuiet(item), "%s is empty; every text contains the empty string", decode.Index(path, i))
			continue
		}
		out = append(out, t)
	}
	return out
}

// jsonSchema reads a schema file's path (relative to this file) or an
// inline schema, and compiles it now, so a broken schema is a load error.
func (l *loader) jsonSchema(n *yaml.Node, what string) *JSONSchema {
	d := l.Deref(n)
	if d == nil {
		return nil
	}
	js := &JSONSchema{Pos: l.Pos(d)}
	var doc any
	var err error
	// The schema's URL is its file's (so a relative $ref finds its
	// neighbours), or for an inline schema one naming where it is written.
	base, _ := filepath.Abs(l.File)
	url := fmt.Sprintf("file://%s.%d.%d.schema.json", filepath.ToSlash(base), d.Line, d.Column)
	switch {
	case d.Kind == yaml.ScalarNode && d.ShortTag() == "!!str":
		js.File = d.Value
		path := filepath.Join(filepath.Dir(l.File), filepath.FromSlash(d.Value))
		if abs, err := filepath.Abs(path); err == nil {
			url = "file://" + filepath.ToSlash(abs)
		}
		data, rerr := os.ReadFile(path)
		if rerr != nil {
			l.Errorf(d, "%s: cannot read schema file %s: %v", what, d.Value, decode.UnwrapPath(rerr))
			return nil
		}
		if doc, err = jsonschema.UnmarshalJSON(bytes.NewReader(data)); err != nil {
			l.Errorf(d, "%s: %s is not JSON: %v", what, d.Value, err)
			return nil
		}
	case d.Kind == yaml.MappingNode:
		v, ok := l.Value(d, what)
		if !ok {
			return nil
		}
		raw, rerr := v.Resolve(vars.NewVars(nil))
		if rerr != nil {
			l.Errorf(d, "%s: a schema cannot reference variables", what)
			return nil
		}
		doc, err = jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			l.Errorf(d, "%s: %v", what, err)
			return nil
		}
	default:
		l.Errorf(d, "%s must be a schema file's path or an inline schema (a mapping), not %s", what, decode.KindName(d))
		return nil
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(url, doc); err != nil {
		l.Errorf(d, "%s: %v", what, err)
		return nil
	}
	if js.Schema, err = c.Compile(url); err != nil {
		l.Errorf(d, "%s is not a valid JSON Schema: %s", what, oneLine(err.Error()))
		return nil
	}
	return js
}

func (l *loader) jsonPath(n *yaml.Node, what string) (JSONPathCheck, bool) {
	before := len(*l.Diags)
	f, ok := l.Fields(n, what, jsonPathFields)
	if !ok {
		return JSONPathCheck{}, false
	}
	c := JSONPathCheck{Pos: l.Pos(l.DerefQuiet(n))}
	l.Require(n, f, what, "path")
	if p, ok := f["path"]; ok {
		if s, node, ok := l.Text(p.Val, what+".path"); ok {
			expr, err := jp.ParseString(s)
			switch {
			case err != nil:
				l.Errorf(node, "%s %q is not a JSONPath: %v", what+".path", s, err)
			case !strings.HasPrefix(s, "$"):
				l.Errorf(node, "%s %q must start at the root, $ (e.g. $.status)", what+".path", s)
			default:
				c.Path, c.Expr = s, expr
			}
		}
	}
	if p, ok := f["equals"]; ok {
		c.Equals, _ = l.Value(p.Val, what+".equals")
	}
	c.Match = l.optRegex(f, "match", what)
	if p, ok := f["type"]; ok {
		if s, node, ok := l.Text(p.Val, what+".type"); ok {
			if !slices.Contains(JSONTypes, s) {
				l.Errorf(node, "%s.type %q is not one of %s", what, s, strings.Join(JSONTypes, ", "))
			}
			c.Type = s
		}
	}
	if p, ok := f["exists"]; ok {
		if v, ok := l.Boolean(p.Val, what+".exists"); ok {
			c.Exists = &v
		}
	}
	l.conditions(n, f, what, c.Exists)
	return c, len(*l.Diags) == before
}

// conditions checks that a json_path or state entry says what to check:
// equals, match, type or exists, and nothing else beside exists: false.
func (l *loader) conditions(n *yaml.Node, f map[string]decode.Pair, what string, exists *bool) {
	var set []string
	for _, k := range []string{"equals", "match", "type"} {
		if _, ok := f[k]; ok {
			set = append(set, k)
		}
	}
	switch {
	case len(set) == 0 && exists == nil:
		l.Errorf(l.DerefQuiet(n), "%s says nothing to check: add equals, match, type or exists", what)
	case exists != nil && !*exists && len(set) > 0:
		l.Errorf(f["exists"].Key, "%s: exists: false cannot be combined with %s", what, strings.Join(set, ", "))
	}
}

// oneLine keeps the first line of a multi-line error.
func oneLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}
