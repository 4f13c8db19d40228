package assertion

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// maxSchemaEvidence bounds the validation errors kept as evidence; the
// message names the first maxReasons.
const maxSchemaEvidence = 20

// schemaError is one leaf of a validation error tree.
type schemaError struct {
	tokens []string
	msg    string
}

func (e schemaError) String() string { return "at " + jsonPointer(e.tokens) + ": " + e.msg }

// jsonSchema passes when the reply's JSON (replyJSON) validates against the
// schema. A failure lists the validation errors: the leaves of the error
// tree, each with its instance location, sorted by location.
func jsonSchema(r *Result, js *JSONSchema, s trace.Scope) {
	name := "the inline schema"
	if js.File != "" {
		name = js.File
	}
	r.Expected = "the reply's JSON validates against " + name
	doc := replyJSON(s.Text())
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(doc.text))
	if err != nil {
		notJSON(r, doc, err, s, "it cannot validate against "+name)
		return
	}
	err = js.Schema.Validate(v)
	if err == nil {
		r.Observed = "valid"
		r.set(status.Pass, "%s validates against %s", doc.where, name)
		return
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		r.Observed = "not validated"
		r.set(status.Fail, "%s could not be validated against %s: %s", doc.where, name, oneLine(err.Error()))
		return
	}
	leaves := schemaErrors(ve, nil)
	// The validator visits properties in map order; sort for stable reports.
	slices.SortStableFunc(leaves, func(a, b schemaError) int {
		return cmp.Or(slices.Compare(a.tokens, b.tokens), strings.Compare(a.msg, b.msg))
	})
	r.Observed = plural.Count(len(leaves), "validation error")
	var parts []string
	refs := textRefs(s)
	for i, e := range leaves {
		if i < maxReasons {
			parts = append(parts, e.String())
		}
		if i < maxSchemaEvidence {
			at, _ := valueAt(v, e.tokens)
			r.Evidence = append(r.Evidence, Evidence{Note: e.String(), Text: shorten(compact(at), 400), EventRefs: refs})
		}
	}
	if len(leaves) > maxReasons {
		parts = append(parts, fmt.Sprintf("%d more", len(leaves)-maxReasons))
	}
	r.set(status.Fail, "%s in %s does not validate against %s: %s", doc.where, s.Name, name, strings.Join(parts, "; "))
}

// schemaErrors flattens a validation error into its leaves, in order: the
// causes that say what is wrong, without the "validation failed" and $ref
// wrappers above them.
func schemaErrors(e *jsonschema.ValidationError, out []schemaError) []schemaError {
	if len(e.Causes) == 0 {
		msg := e.Error()
		if u := e.BasicOutput(); u.Error != nil {
			msg = u.Error.String()
		}
		return append(out, schemaError{tokens: e.InstanceLocation, msg: msg})
	}
	for _, c := range e.Causes {
		out = schemaErrors(c, out)
	}
	return out
}
