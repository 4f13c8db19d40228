// Package schemacheck validates a JSON value against a JSON Schema and
// says what is wrong with it, one problem per failing keyword, at the
// place in the value it concerns. It serves the checks a test makes of
// what it sends, before sending it: the arguments an edit of an interrupt
// changes, against the schema the interrupt (or the test) gives.
package schemacheck

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// Schema is a compiled JSON Schema.
type Schema struct{ s *jsonschema.Schema }

// Compile compiles the schema doc (JSON), draft 2020-12 unless it says
// otherwise; url names it in messages and resolves its relative $refs.
// It loads nothing from the network or the disk.
func Compile(doc []byte, url string) (*Schema, error) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(url, v); err != nil {
		return nil, err
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("not a valid JSON Schema: %s", oneLine(err.Error()))
	}
	return &Schema{s: s}, nil
}

// Of is a schema compiled elsewhere.
func Of(s *jsonschema.Schema) *Schema { return &Schema{s: s} }

// Problem is one way a value fails its schema.
type Problem struct {
	// Path is where in the value (JSON pointer tokens; none: the value
	// itself).
	Path []string
	// Message says what is wrong, as the validator words it.
	Message string
	// Missing are the required properties the value lacks, and Extra the
	// properties it has that the schema does not allow, when that is
	// the problem.
	Missing, Extra []string
}

// Pointer is the problem's place as a JSON pointer ("/amount"; "" for
// the value itself).
func (p Problem) Pointer() string {
	var b strings.Builder
	for _, t := range p.Path {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(t))
	}
	return b.String()
}

func (p Problem) String() string {
	at := p.Pointer()
	if at == "" {
		at = "the top"
	}
	return "at " + at + ": " + p.Message
}

// Check validates value (JSON) against s: no problems when it is valid.
// It returns an error when value is not JSON.
func (s *Schema) Check(value []byte) ([]Problem, error) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(value))
	if err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	err = s.s.Validate(v)
	if err == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Problem{{Message: oneLine(err.Error())}}, nil
	}
	out := leaves(ve, nil)
	// The validator visits properties in map order: sort for stable
	// messages.
	slices.SortStableFunc(out, func(a, b Problem) int {
		return cmp.Or(slices.Compare(a.Path, b.Path), strings.Compare(a.Message, b.Message))
	})
	return out, nil
}

// Join lists problems for a message: the first few, then how many more.
func Join(ps []Problem, few int) string {
	var parts []string
	for i, p := range ps {
		if i == few {
			parts = append(parts, fmt.Sprintf("%d more", len(ps)-few))
			break
		}
		parts = append(parts, p.String())
	}
	return strings.Join(parts, "; ")
}

// leaves flattens a validation error into the causes that say what is
// wrong, without the wrappers above them.
func leaves(e *jsonschema.ValidationError, out []Problem) []Problem {
	if len(e.Causes) == 0 {
		msg := e.Error()
		if u := e.BasicOutput(); u.Error != nil {
			msg = u.Error.String()
		}
		p := Problem{Path: e.InstanceLocation, Message: msg}
		switch k := e.ErrorKind.(type) {
		case *kind.Required:
			p.Missing = k.Missing
		case *kind.AdditionalProperties:
			p.Extra = k.Properties
		}
		return append(out, p)
	}
	for _, c := range e.Causes {
		out = leaves(c, out)
	}
	return out
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
