package decl

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ananke/action/internal/diag"
)

// A tool's input_schema and output_schema are JSON Schemas (draft 2020-12
// unless they say otherwise). They are compiled at load; their $refs may
// point only inside them — Ananke loads no other document.

// compileSchema compiles a schema written at loc, reporting why it is not
// a valid JSON Schema at the keyword that is wrong.
func compileSchema(raw []byte, what string, loc locator, diags *diag.Diagnostics) (*jsonschema.Schema, bool) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		diags.Add(loc.at, "%s: %v", what, err)
		return nil, false
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		diags.Add(loc.at, "%s must be a mapping (a JSON Schema of an object)", what)
		return nil, false
	}
	switch typ, ok := obj["type"]; {
	case !ok:
		diags.Add(loc.at, `%s has no type; MCP requires type: object`, what)
		return nil, false
	case typ != "object":
		diags.Add(loc.pos([]string{"type"}), `%s's type is %s; MCP requires type: object`, what, display(typ))
		return nil, false
	}
	const url = "mem:///schema.json"
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(jsonschema.SchemeURLLoader{})
	if err := c.AddResource(url, doc); err != nil {
		diags.Add(loc.at, "%s: %s", what, oneLine(err.Error()))
		return nil, false
	}
	s, err := c.Compile(url)
	if err == nil {
		return s, true
	}
	var sve *jsonschema.SchemaValidationError
	var ve *jsonschema.ValidationError
	var le *jsonschema.LoadURLError
	switch {
	case errors.As(err, &le):
		diags.Add(loc.at, "%s is not a valid JSON Schema: $ref %s points outside the schema, and Ananke loads no other document", what, le.URL)
	case errors.As(err, &sve) && errors.As(sve.Err, &ve):
		leaves := leafErrors(ve, nil)
		if len(leaves) == 0 {
			diags.Add(loc.at, "%s is not a valid JSON Schema: %s", what, oneLine(err.Error()))
		}
		for _, e := range leaves {
			diags.Add(loc.pos(e.tokens), "%s is not a valid JSON Schema: %s", what, e)
		}
	default:
		diags.Add(loc.at, "%s is not a valid JSON Schema: %s", what, oneLine(err.Error()))
	}
	return nil, false
}

// checkResult reports each way a result does not match its tool's output
// schema, at the part of the result that is wrong.
func checkResult(s *jsonschema.Schema, r *Reply, what, tool string, diags *diag.Diagnostics) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(r.Result))
	if err != nil {
		diags.Add(r.at.at, "%s: %v", what, err)
		return
	}
	err = s.Validate(v)
	var ve *jsonschema.ValidationError
	if err == nil {
		return
	}
	if !errors.As(err, &ve) {
		diags.Add(r.at.at, "%s does not match the output schema of %s: %s", what, tool, oneLine(err.Error()))
		return
	}
	for _, e := range leafErrors(ve, nil) {
		diags.Add(r.at.pos(e.tokens), "%s does not match the output schema of %s: %s", what, tool, e)
	}
}

// schemaError is one leaf of a validation error tree.
type schemaError struct {
	tokens []string
	msg    string
}

func (e schemaError) String() string {
	if len(e.tokens) == 0 {
		return e.msg
	}
	return "at /" + strings.Join(e.tokens, "/") + ": " + e.msg
}

// leafErrors flattens a validation error into its leaves, sorted by
// place: the causes that say what is wrong, without the wrappers above.
func leafErrors(e *jsonschema.ValidationError, out []schemaError) []schemaError {
	out = leaves(e, out)
	slices.SortStableFunc(out, func(a, b schemaError) int {
		return cmp.Or(slices.Compare(a.tokens, b.tokens), strings.Compare(a.msg, b.msg))
	})
	return out
}

func leaves(e *jsonschema.ValidationError, out []schemaError) []schemaError {
	if len(e.Causes) == 0 {
		msg := e.Error()
		if u := e.BasicOutput(); u.Error != nil {
			msg = u.Error.String()
		}
		return append(out, schemaError{tokens: e.InstanceLocation, msg: msg})
	}
	for _, c := range e.Causes {
		out = leaves(c, out)
	}
	return out
}

// display shows a schema's type for a message.
func display(v any) string {
	switch v := v.(type) {
	case string:
		return fmt.Sprintf("%q", v)
	case nil:
		return "null"
	}
	return fmt.Sprint(v)
}

// oneLine keeps an error's first line.
func oneLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}
