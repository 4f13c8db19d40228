package spec

import (
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/schemacheck"
	"github.com/ananke/action/internal/vars"
)

// Resume turns (docs/files.md, "Interrupts"): a turn that answers the
// interrupts the agent's last run ended with, instead of sending a
// message. `resume: approve` (or reject) answers every pending interrupt;
// a mapping or a list of them answers those each entry selects.

// Answers a resume entry gives (what `answer` takes; an entry with `edit`
// is an edit): the words of trace.AnswerApprove, AnswerReject and
// AnswerEdit.
const (
	AnswerApprove = "approve"
	AnswerReject  = "reject"
	AnswerEdit    = "edit"
)

// ResumeEntry is one answer of a resume turn: the pending interrupts it
// selects — by id, reason and the tool call they are about, every one
// when it names none — and how it answers them.
type ResumeEntry struct {
	Pos diag.Pos
	// What names it in messages ("resume[0]").
	What             string
	ID, Reason, Tool string
	// Answer is AnswerApprove, AnswerReject or AnswerEdit.
	Answer string
	// Payload is sent with the answer (zero: the default, docs/files.md);
	// literal YAML with ${…}, or a fixture file's value (payload_file).
	Payload vars.Value
	// Edit is an edit's changed arguments (a mapping whose strings may
	// hold ${…}).
	Edit vars.Value
}

var (
	resumeFields = []string{"id", "reason", "tool", "answer", "payload", "payload_file", "edit", "schema"}
	answers      = []string{AnswerApprove, AnswerReject, AnswerEdit}
)

// resume reads a turn's resume: approve or reject, one entry or a list.
func (l *loader) resume(n *yaml.Node, what string) []ResumeEntry {
	d := l.Deref(n)
	if d == nil {
		return nil
	}
	switch d.Kind {
	case yaml.ScalarNode:
		s, node, ok := l.Text(d, what)
		if !ok {
			return nil
		}
		if s != AnswerApprove && s != AnswerReject {
			l.Errorf(node, "%s %q is neither approve nor reject (every pending interrupt), nor a list of answers ({tool, answer, payload, edit})", what, s)
			return nil
		}
		return []ResumeEntry{{Pos: l.Pos(node), What: "resume", Answer: s}}
	case yaml.MappingNode:
		if e, ok := l.resumeEntry(d, what, "resume"); ok {
			return []ResumeEntry{e}
		}
		return nil
	}
	items, _ := l.List(d, what)
	if d.Kind == yaml.SequenceNode && len(d.Content) == 0 {
		l.Errorf(d, "%s is empty: answer the pending interrupts (approve, reject, or a list of answers)", what)
	}
	var out []ResumeEntry
	for i, item := range items {
		if e, ok := l.resumeEntry(item, decode.Index(what, i), decode.Index("resume", i)); ok {
			out = append(out, e)
		}
	}
	return out
}

// resumeEntry reads one answer; short is how a run's messages name it.
func (l *loader) resumeEntry(n *yaml.Node, what, short string) (ResumeEntry, bool) {
	before := len(*l.Diags)
	f, ok := l.Fields(n, what, resumeFields)
	if !ok {
		return ResumeEntry{}, false
	}
	e := ResumeEntry{Pos: l.Pos(l.DerefQuiet(n)), What: short}
	for key, dst := range map[string]*string{"id": &e.ID, "reason": &e.Reason} {
		if p, ok := f[key]; ok {
			if s, node, ok := l.Text(p.Val, what+"."+key); ok {
				if s == "" {
					l.Errorf(node, "%s.%s is empty", what, key)
				}
				*dst = s
			}
		}
	}
	if p, ok := f["tool"]; ok {
		if name, ok := l.Name(p.Val, what+".tool"); ok {
			e.Tool = name.Value
		}
	}
	edit, hasEdit := f["edit"]
	if p, ok := f["answer"]; ok {
		if s, node, ok := l.Text(p.Val, what+".answer"); ok {
			switch {
			case !slices.Contains(answers, s):
				l.Errorf(node, "%s.answer %q is not one of approve, reject, edit", what, s)
			case s == AnswerReject && hasEdit:
				l.Errorf(edit.Key, "%s: an edit approves the call with changed arguments; it cannot go with answer: reject", what)
			case s == AnswerEdit && !hasEdit:
				l.Errorf(node, "%s: answer: edit needs edit: the arguments to change", what)
			}
			e.Answer = s
		}
	} else if !hasEdit {
		l.Errorf(l.DerefQuiet(n), "%s needs answer: approve or reject (or edit: the arguments to change)", what)
	}
	if hasEdit {
		e.Answer = AnswerEdit
		e.Edit = l.object(edit.Val, what+".edit")
	}
	e.Payload = l.resumePayload(f, what, hasEdit)
	if p, ok := f["schema"]; ok {
		switch js := assertion.ReadJSONSchema(l.Decoder, p.Val, what+".schema"); {
		case js == nil:
		case !hasEdit:
			l.Errorf(p.Key, "%s: schema checks an edit's arguments; this answer has no edit", what)
		default:
			l.checkEdit(edit.Val, what+".edit", schemacheck.Of(js.Schema))
		}
	}
	return e, len(*l.Diags) == before
}

// resumePayload reads payload or payload_file (not both, nor with an
// edit, whose payload is the edited arguments).
func (l *loader) resumePayload(f map[string]decode.Pair, what string, hasEdit bool) vars.Value {
	p, hasPayload := f["payload"]
	file, hasFile := f["payload_file"]
	switch {
	case hasPayload && hasFile:
		l.Errorf(file.Key, "%s: set payload or payload_file, not both", what)
	case (hasPayload || hasFile) && hasEdit:
		key := p.Key
		if hasFile {
			key = file.Key
		}
		l.Errorf(key, "%s: an edit sends the call's arguments with its changes as the payload; set payload or edit, not both", what)
	case hasFile:
		v, _ := l.fixture(file.Val, what+".payload_file")
		return v
	case hasPayload:
		v, _ := l.Value(p.Val, what+".payload")
		return v
	}
	return vars.Value{}
}

// checkEdit reports, at its line, each argument of an edit that the
// schema the test declares does not allow: an argument it does not
// know, or a value outside its bounds. Arguments the edit leaves out are
// the call's own, so a required one missing is no error; an edit holding
// ${…} is checked when the run resolves it, against the interrupt's
// responseSchema.
func (l *loader) checkEdit(n *yaml.Node, what string, s *schemacheck.Schema) {
	d := l.Deref(n)
	if d == nil || d.Kind != yaml.MappingNode {
		return // reported by object
	}
	v, ok := l.Value(d, what)
	if !ok || len(v.Refs()) > 0 {
		return
	}
	raw, err := v.Resolve(vars.NewVars(nil))
	if err != nil {
		return
	}
	ps, err := s.Check(raw)
	if err != nil {
		return
	}
	for _, p := range ps {
		switch {
		case len(p.Missing) > 0 && len(p.Path) == 0:
			continue
		case len(p.Extra) > 0 && len(p.Path) == 0:
			for _, name := range p.Extra {
				l.Errorf(keyNode(d, name, true), "%s.%s: the schema takes no argument %q (%s)", what, name, name, p.Message)
			}
		case len(p.Path) > 0:
			l.Errorf(keyNode(d, p.Path[0], false), "%s.%s is outside the schema: %s", what, p.Path[0], p)
		default:
			l.Errorf(d, "%s is outside the schema: %s", what, p)
		}
	}
}

// keyNode is the key (or the value) of mapping m's entry name; m itself
// when it has none.
func keyNode(m *yaml.Node, name string, key bool) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == name {
			if key {
				return m.Content[i]
			}
			return m.Content[i+1]
		}
	}
	return m
}

// ShownResume says what a resume turn answers, for plans: "approve tool
// charge_card; reject every interrupt".
func ShownResume(es []ResumeEntry) string {
	parts := make([]string, len(es))
	for i, e := range es {
		var sel []string
		for _, kv := range [][2]string{{"id", e.ID}, {"reason", e.Reason}, {"tool", e.Tool}} {
			if kv[1] != "" {
				sel = append(sel, kv[0]+" "+kv[1])
			}
		}
		if len(sel) == 0 {
			sel = []string{"every interrupt"}
		}
		parts[i] = e.Answer + " " + strings.Join(sel, ", ")
	}
	return strings.Join(parts, "; ")
}
