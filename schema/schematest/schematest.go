// Package schematest compiles the JSON Schemas of package schema for tests
// that validate files against them, and checks that a schema refuses what
// its file's reader refuses.
package schematest

import (
	"bytes"
	"strings"
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

// Refused says which of a file's reader and its schema refuse a file.
type Refused int

const (
	Both       Refused = iota // the reader and the schema refuse it
	Neither                   // both take it
	SchemaOnly                // the schema refuses it, the reader takes it
	ReaderOnly                // the reader refuses it, the schema takes it
)

// Change is a file changed one way: a good file with Old replaced by New,
// or File, and who refuses it.
type Change struct {
	Name     string
	Old, New string
	File     string
	Refused  Refused
}

// AgreesWithReader reads good and each change of it with read and
// validates them against s: good must pass both, and each change be
// refused by whom its Refused says, in a subtest of its name.
func AgreesWithReader(t *testing.T, s *jsonschema.Schema, read func(string) error, good string, changes []Change) {
	t.Helper()
	if err := read(good); err != nil {
		t.Fatalf("the good file does not read: %v", err)
	}
	if err := Validate(s, []byte(good)); err != nil {
		t.Fatalf("the good file does not match the schema: %v", err)
	}
	for _, c := range changes {
		t.Run(c.Name, func(t *testing.T) {
			bad := c.File
			if bad == "" {
				bad = strings.Replace(good, c.Old, c.New, 1)
				if bad == good {
					t.Fatalf("the file has no %s", c.Old)
				}
			}
			rerr := read(bad)
			serr := Validate(s, []byte(bad))
			wantRead := c.Refused == Both || c.Refused == ReaderOnly
			wantSchema := c.Refused == Both || c.Refused == SchemaOnly
			if (rerr != nil) != wantRead {
				t.Errorf("Read: %v; want refused %v", rerr, wantRead)
			}
			if (serr != nil) != wantSchema {
				t.Errorf("the schema: %v; want refused %v", serr, wantSchema)
			}
		})
	}
}
