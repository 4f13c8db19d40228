package assertion

import (
	"bytes"
	"encoding/json"
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
	// Want is Equals as JSON, once bound (nil: unset, or not bound yet).
	Want json.RawMessage
}

// ReadJSONSchema reads a JSON Schema written as text.json_schema is: a
// schema file's path (relative to the file) or an inline schema, compiled
// now (nil when it is invalid, which is reported).
func ReadJSONSchema(d *decode.Decoder, n *yaml.Node, what string) *JSONSchema {
	return (&reader{Decoder: d}).jsonSchema(n, what)
}

// jsonSchema reads a schema file's path (relative to this file) or an
// inline schema, and compiles it now, so a broken schema is a load error.
func (l *reader) jsonSchema(n *yaml.Node, what string) *JSONSchema {
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

func (l *reader) jsonPath(n *yaml.Node, what string) (JSONPathCheck, bool) {
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
	c.Match = l.OptRegex(f, "match", what)
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
func (l *reader) conditions(n *yaml.Node, f map[string]decode.Pair, what string, exists *bool) {
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

// readLiterals reads a string or a list of non-empty strings (templates):
// text.contains, text.omits.
func readLiterals(l *reader, n *yaml.Node, what string) []Item {
	items, _ := l.OneOrList(n, what)
	var out []Item
	for i, item := range items {
		t, ok := l.Template(item, decode.Index(what, i))
		if !ok {
			continue
		}
		if strings.TrimSpace(t.Raw) == "" {
			l.Errorf(l.DerefQuiet(item), "%s is empty; every text contains the empty string", decode.Index(what, i))
			continue
		}
		out = append(out, Item{Pos: t.Pos, Payload: l.textCheck(t)})
	}
	return out
}

// readEquals reads text.equals: the whole reply.
func readEquals(l *reader, n *yaml.Node, what string) []Item {
	if t, ok := l.Template(n, what); ok {
		return []Item{{Pos: t.Pos, Payload: l.textCheck(t)}}
	}
	return nil
}

func (l *reader) textCheck(t vars.Template) *TextCheck {
	return &TextCheck{Value: t, CaseSensitive: l.caseSensitive, Text: t.Raw}
}

// readPatterns reads a regex or a list of them: text.must_match,
// text.must_not_match.
func readPatterns(l *reader, n *yaml.Node, what string) []Item {
	items, _ := l.OneOrList(n, what)
	var out []Item
	for i, item := range items {
		if re, ok := l.Regex(item, decode.Index(what, i)); ok {
			out = append(out, Item{Pos: re.Pos, Payload: Pattern{Regex: re}})
		}
	}
	return out
}

// readPattern reads one regex: result.match, result.not_match.
func readPattern(l *reader, n *yaml.Node, what string) []Item {
	if re, ok := l.Regex(n, what); ok {
		return []Item{{Pos: re.Pos, Payload: Pattern{Regex: re}}}
	}
	return nil
}

func readJSONSchema(l *reader, n *yaml.Node, what string) []Item {
	if js := l.jsonSchema(n, what); js != nil {
		return []Item{{Pos: js.Pos, Payload: js}}
	}
	return nil
}

// readJSONPaths reads a list of json_path entries: text.json_path,
// result.json_path.
func readJSONPaths(l *reader, n *yaml.Node, what string) []Item {
	items, _ := l.List(n, what)
	var out []Item
	for i, item := range items {
		if c, ok := l.jsonPath(item, decode.Index(what, i)); ok {
			out = append(out, Item{Pos: c.Pos, Payload: &c})
		}
	}
	return out
}

// textOptions reads text.case_sensitive, which applies to the section's
// contains, omits and equals.
func textOptions(l *reader, f map[string]decode.Pair, what string) {
	l.caseSensitive = false
	p, ok := f["case_sensitive"]
	if !ok {
		return
	}
	l.caseSensitive, _ = l.Boolean(p.Val, what+".case_sensitive")
	if _, lit := f["contains"]; !lit {
		if _, lit = f["omits"]; !lit {
			if _, lit = f["equals"]; !lit {
				l.Errorf(p.Key, "%s.case_sensitive applies to contains, omits and equals, and this block has none", what)
			}
		}
	}
}

// Pattern is a regex a check matches: text.must_match, text.must_not_match,
// result.match, result.not_match.
type Pattern struct{ Regex *vars.Regex }

// Refs implements Payload.
func (p Pattern) Refs() []vars.Ref { return p.Regex.Refs() }

// Bind implements Payload.
func (p Pattern) Bind(v *vars.Vars) (Payload, error) {
	re, err := p.Regex.Bind(v)
	if err != nil {
		return nil, err
	}
	return Pattern{Regex: re}, nil
}

// TextCheck is a literal text check: contains, omits or equals.
type TextCheck struct {
	Value         vars.Template
	CaseSensitive bool
	// Text is Value resolved (BindChecks); Value.Raw until then.
	Text string
}

// Refs implements Payload.
func (t *TextCheck) Refs() []vars.Ref { return t.Value.Refs() }

// Bind implements Payload.
func (t *TextCheck) Bind(v *vars.Vars) (Payload, error) {
	b := *t
	var err error
	if b.Text, err = t.Value.Resolve(v); err != nil {
		return nil, err
	}
	return &b, nil
}

// Refs implements Payload: a schema takes no reference.
func (*JSONSchema) Refs() []vars.Ref { return nil }

// Bind implements Payload.
func (js *JSONSchema) Bind(*vars.Vars) (Payload, error) { return js, nil }

// Refs implements Payload.
func (c *JSONPathCheck) Refs() []vars.Ref { return valueRefs(c.Match, c.Equals) }

// Bind implements Payload: the match regex, and equals as JSON.
func (c *JSONPathCheck) Bind(v *vars.Vars) (Payload, error) {
	b := *c
	var err error
	if b.Match, b.Want, err = bindValue(c.Match, c.Equals, v); err != nil {
		return nil, err
	}
	return &b, nil
}
