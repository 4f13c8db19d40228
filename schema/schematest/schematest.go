// Package schematest compiles the JSON Schemas of package schema for tests
// that validate files against them.
package schematest

import (
	"bytes"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Base is where the published schemas live: their $id is Base + their
// file name.
const Base = "https://raw.githubusercontent.com/ananke/action/main/schema/"

// Compile compiles doc, the schema published as schema/file, with formats
// asserted.
func Compile(tb testing.TB, doc []byte, file string) *jsonschema.Schema {
	tb.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		tb.Fatalf("%s: %v", file, err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(Base+file, v); err != nil {
		tb.Fatalf("%s: %v", file, err)
	}
	s, err := c.Compile(Base + file)
	if err != nil {
		tb.Fatalf("%s: %v", file, err)
	}
	return s
}

// Validate validates data, a JSON document, against s.
func Validate(s *jsonschema.Schema, data []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return s.Validate(v)
}
