package engine

import (
	"encoding/json"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/attack/plant"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// Resolver resolves templates against one test's variables, keeping the
// first error (every error carries its file position): once one failed,
// the others resolve to nothing.
type Resolver struct {
	vars *vars.Vars
	err  error
}

// Err is the first error met, or nil.
func (r *Resolver) Err() error { return r.err }

// Str resolves a template.
func (r *Resolver) Str(t vars.Template) string {
	if r.err != nil || t.IsZero() {
		return ""
	}
	s, err := t.Resolve(r.vars)
	r.err = err
	return s
}

// URL resolves a URL field: its password and query values are its
// secrets, not a whole ${ENV.NAME} that fills it (vars.Template.ResolveURL).
func (r *Resolver) URL(t vars.Template) string {
	if r.err != nil || t.IsZero() {
		return ""
	}
	s, err := t.ResolveURL(r.vars)
	r.err = err
	return s
}

// JSON resolves a value to its JSON text; def when it is not set.
func (r *Resolver) JSON(v vars.Value, def string) json.RawMessage {
	if r.err != nil {
		return nil
	}
	if v.IsZero() {
		return json.RawMessage(def)
	}
	js, err := v.Resolve(r.vars)
	r.err = err
	return js
}

// Text resolves a value to text: a string as is, anything else as JSON.
func (r *Resolver) Text(v vars.Value) string {
	if r.err != nil {
		return ""
	}
	s, err := v.ResolveString(r.vars)
	r.err = err
	return s
}

// Args binds argument matchers' patterns.
func (r *Resolver) Args(ms []assertion.ArgMatch) []assertion.ArgMatch {
	if r.err != nil {
		return nil
	}
	out, err := assertion.BindArgs(ms, r.vars)
	r.err = err
	return out
}

// parts resolves a message's parts: the text parts' references, and what
// the trace records of its attachments. Nil for a plain message. An
// attack run's payload is planted in the textual file it names
// (plant.Attachment).
func (r *Resolver) parts(ps []spec.Part, attack *plant.Plant) ([]target.Part, []trace.Attachment) {
	if len(ps) == 0 {
		return nil, nil
	}
	var out []target.Part
	var atts []trace.Attachment
	for _, p := range ps {
		switch {
		case p.Text != nil:
			out = append(out, target.Part{Type: "text", Text: r.Str(*p.Text)})
		case p.File != nil:
			f := p.File
			data := plantFile(attack, f.Name, f.MIME, f.Data)
			out = append(out, target.Part{Type: f.Kind, MIME: f.MIME, Filename: f.Name, Data: data})
			atts = append(atts, trace.Attachment{Name: f.Name, MIME: f.MIME, Bytes: len(data)})
		}
	}
	return out, atts
}

func (r *Resolver) checks(cs []assertion.Check) []assertion.Check {
	if r.err != nil {
		return nil
	}
	out, err := assertion.BindChecks(cs, r.vars)
	r.err = err
	return out
}

// answers resolves a resume turn's answers: their payloads and edits.
func (r *Resolver) answers(es []spec.ResumeEntry) []target.Answer {
	var out []target.Answer
	for _, e := range es {
		a := target.Answer{What: e.What, ID: e.ID, Reason: e.Reason, Tool: e.Tool, Action: e.Answer}
		if !e.Payload.IsZero() {
			a.Payload = r.JSON(e.Payload, "null")
		}
		if !e.Edit.IsZero() {
			a.Edit = r.JSON(e.Edit, "{}")
		}
		out = append(out, a)
	}
	return out
}
