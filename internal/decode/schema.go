package decode

import "fmt"

// Obj is a JSON Schema, or a part of one. The published schemas are built
// from the same field lists a Decoder checks, so they cannot drift.
type Obj = map[string]any

// Object builds a closed object schema; props must describe exactly the
// fields listed in known (the Decoder's list): it panics otherwise, so a
// test that builds the schemas catches a field without a schema.
func Object(desc string, known []string, props Obj, required ...string) Obj {
	o := Obj{"type": "object", "additionalProperties": false, "properties": props}
	if desc != "" {
		o["description"] = desc
	}
	if len(required) > 0 {
		o["required"] = required
	}
	for _, k := range known {
		if _, ok := props[k]; !ok {
			panic("schema: no property for field " + k)
		}
	}
	if len(props) != len(known) {
		panic(fmt.Sprintf("schema: %d properties for %d fields", len(props), len(known)))
	}
	return o
}

// Str is a string with a description.
func Str(desc string) Obj { return Obj{"type": "string", "description": desc} }

// Ref refers to one of the document's $defs.
func Ref(def string) Obj { return Obj{"$ref": "#/$defs/" + def} }

// Positive is a whole number of at least 1.
func Positive(desc string) Obj { return Obj{"type": "integer", "minimum": 1, "description": desc} }

// Bool is true or false.
func Bool(desc string) Obj { return Obj{"type": "boolean", "description": desc} }

// OneOrMany is one item, or a list of them.
func OneOrMany(item Obj) Obj { return Obj{"oneOf": []any{item, Obj{"type": "array", "items": item}}} }

// List is a list of items.
func List(item Obj, d string) Obj { return Obj{"type": "array", "items": item, "description": d} }

// StringMap is a mapping of names to strings.
func StringMap(desc string) Obj {
	return Obj{"type": "object", "additionalProperties": Obj{"type": "string"}, "description": desc}
}
