package assertion

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/ananke/action/internal/vars"
)

// valueCheck holds the conditions json_path and state put on one JSON value
// (decoded by encoding/json: numbers are float64, so 89.5 equals 89.50).
type valueCheck struct {
	want     any
	hasWant  bool
	wantText string
	// unbound: equals could not be resolved — it references variables
	// that were never bound (a plan describes checks before any hook ran).
	unbound bool
	match   *vars.Regex
	typ     string
}

// newValueCheck takes the bound equals value, or resolves the declared one
// when it needs no variable (plans describe checks before binding).
func newValueCheck(want json.RawMessage, declared vars.Value, match *vars.Regex, typ string) valueCheck {
	vc := valueCheck{match: match, typ: typ}
	if want == nil && !declared.IsZero() {
		var err error
		if want, err = declared.Resolve(vars.NewVars(nil)); err != nil {
			vc.unbound = true
			return vc
		}
	}
	if want != nil {
		if err := json.Unmarshal(want, &vc.want); err != nil {
			vc.unbound = true
			return vc
		}
		vc.hasWant, vc.wantText = true, display(vc.want)
	}
	return vc
}

// describe lists the conditions: "equals 89.5 and is a number".
func (vc valueCheck) describe() string {
	var parts []string
	switch {
	case vc.unbound:
		parts = append(parts, "equals the given value (resolved when the test runs)")
	case vc.hasWant:
		parts = append(parts, "equals "+vc.wantText)
	}
	if vc.match != nil {
		parts = append(parts, fmt.Sprintf("matches `%s`", vc.match))
	}
	if vc.typ != "" {
		parts = append(parts, "is "+article(vc.typ))
	}
	return strings.Join(parts, " and ")
}

// failure says why v fails the conditions, as the end of "X is v, …", or
// returns "" when it passes. Equals is checked first, then type, then match.
func (vc valueCheck) failure(v any) string {
	switch {
	case vc.unbound:
		return "and its equals value could not be resolved"
	case vc.hasWant && !reflect.DeepEqual(v, vc.want):
		return "expected " + vc.wantText
	case vc.typ != "" && jsonType(v) != vc.typ:
		return fmt.Sprintf("%s, expected %s", article(jsonType(v)), article(vc.typ))
	case vc.match != nil && !matches(vc.match, valueText(v)):
		return fmt.Sprintf("which does not match `%s`", vc.match)
	}
	return ""
}

// jsonType names the JSON type of a decoded value, as json_path's type does.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64, json.Number:
		return "number"
	case string:
		return "string"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	return fmt.Sprintf("%T", v)
}

func article(typ string) string {
	switch typ {
	case "null":
		return "null"
	case "object", "array":
		return "an " + typ
	}
	return "a " + typ
}

// compact renders a decoded value as compact JSON (object keys sorted, no
// HTML escaping).
func compact(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// valueText is the text a match sees: a string as itself, anything else as
// compact JSON (the rule args_match follows).
func valueText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return compact(v)
}

// display shows a value in a message: compact JSON, strings quoted,
// shortened.
func display(v any) string { return shorten(compact(v), excerptLen) }
