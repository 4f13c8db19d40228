package assertion

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// Interrupt checks (docs/files.md, "Interrupts"), on traces that record
// the interrupts a run ended with and the resumes that answered them:
// interrupts.require and interrupts.forbid select interrupts by reason,
// by the tool call they are about and by their message;
// interrupts.before_tool holds a tool to running only once an approval
// for it resumed the run.

// InterruptEntry is one interrupts.require entry (some interrupt must
// match it) or interrupts.forbid entry (none may): each field set must
// hold; an entry with none matches every interrupt.
type InterruptEntry struct {
	Pos diag.Pos
	// Reason is the interrupt's reason, exactly; Tool the name of the
	// call it is about; MessageMatch a regex over its message.
	Reason       string
	Tool         string
	MessageMatch *vars.Regex
	// Severity is the entry's own severity ("": the block's).
	Severity Severity
}

var interruptFields = []string{"reason", "tool", "message_match", "severity"}

// readInterrupts reads interrupts.require or interrupts.forbid: a list of
// entries.
func readInterrupts(l *reader, n *yaml.Node, what string) []Item {
	items, _ := l.List(n, what)
	var out []Item
	for i, item := range items {
		w := decode.Index(what, i)
		before := len(*l.Diags)
		f, ok := l.Fields(item, w, interruptFields)
		if !ok {
			continue
		}
		e := InterruptEntry{Pos: l.Pos(l.DerefQuiet(item))}
		if p, ok := f["reason"]; ok {
			if s, node, ok := l.Text(p.Val, w+".reason"); ok {
				if s == "" {
					l.Errorf(node, "%s.reason is empty", w)
				}
				e.Reason = s
			}
		}
		if p, ok := f["tool"]; ok {
			if name, ok := l.Name(p.Val, w+".tool"); ok {
				e.Tool = name.Value
			}
		}
		e.MessageMatch = l.OptRegex(f, "message_match", w)
		if p, ok := f["severity"]; ok {
			e.Severity = l.severity(p.Val, w+".severity")
		}
		if len(*l.Diags) == before {
			out = append(out, Item{Pos: e.Pos, Severity: e.Severity, Payload: &e})
		}
	}
	return out
}

func interruptEntrySchema() decode.Obj {
	return decode.Object("", interruptFields, decode.Obj{
		"reason":        decode.Str("The interrupt's reason, exactly (tool_approval)."),
		"tool":          decode.Str("The name of the tool call the interrupt is about."),
		"message_match": decode.Ref("regex"),
		"severity":      severitySchema(),
	})
}

func interruptsRequireSchema() decode.Obj {
	return decode.List(interruptEntrySchema(), "Each must match an interrupt a run ended with: by reason, by the tool call it is about, by its message ({}: any interrupt).")
}

func interruptsForbidSchema() decode.Obj {
	return decode.List(interruptEntrySchema(), "No interrupt may match any ({}: no interrupt at all).")
}

func beforeToolSchema() decode.Obj {
	return decode.OneOrMany(decode.Obj{"type": "string", "description": "A tool that runs only once an approval for it resumed the run, and never after a rejection."})
}

// Refs implements Payload.
func (e *InterruptEntry) Refs() []vars.Ref { return regexRefs(e.MessageMatch) }

// Bind implements Payload.
func (e *InterruptEntry) Bind(v *vars.Vars) (Payload, error) {
	if e.MessageMatch == nil {
		return e, nil
	}
	b := *e
	var err error
	if b.MessageMatch, err = e.MessageMatch.Bind(v); err != nil {
		return nil, err
	}
	return &b, nil
}

func (e *InterruptEntry) matches(in *trace.Interrupt) bool {
	return (e.Reason == "" || in.Reason == e.Reason) && (e.Tool == "" || in.Tool == e.Tool) &&
		(e.MessageMatch == nil || e.MessageMatch.Compiled().MatchString(in.Message))
}

// describe says what the entry selects: "an interrupt with reason
// tool_approval about a charge_card call whose message matches `42`".
func (e *InterruptEntry) describe() string {
	s := "an interrupt"
	if e.Reason != "" {
		s += " with reason " + e.Reason
	}
	if e.Tool != "" {
		s += " about a `" + e.Tool + "` call"
	}
	if e.MessageMatch != nil {
		s += fmt.Sprintf(" whose message matches `%s`", e.MessageMatch.Raw)
	}
	return s
}

// interruptEvidence shows an interrupt: where the run ended with it, and
// the call it is about.
func interruptEvidence(note string, in *trace.Interrupt, calls map[string]*trace.ToolCall) Evidence {
	return Evidence{Note: fmt.Sprintf("%s: interrupt %s at event #%d", note, in.Describe(), in.Seq), Text: shorten(in.Message, excerptLen),
		Call: calls[in.ToolCallID], EventRefs: seqRef(in.Seq)}
}

// interruptsRequire: some interrupt of the scope matches the entry.
func interruptsRequire(r *Result, e *InterruptEntry, s trace.Scope) {
	r.Expected = e.describe()
	ins, calls := s.Interrupts(), callsByID(s)
	for i := range ins {
		if e.matches(&ins[i]) {
			r.Observed = "interrupt " + ins[i].Describe()
			r.Evidence = append(r.Evidence, interruptEvidence("matches", &ins[i], calls))
			r.set(status.Pass, "%s: interrupt %s", s.Name, ins[i].Describe())
			return
		}
	}
	r.Observed = plural.Count(len(ins), "interrupt")
	if len(ins) == 0 {
		r.set(status.Fail, "%s has no interrupt; expected %s", s.Name, r.Expected)
		return
	}
	var seen []string
	for i := range ins {
		if i == maxReasons {
			seen = append(seen, fmt.Sprintf("%d more", len(ins)-maxReasons))
			break
		}
		seen = append(seen, ins[i].Describe())
		r.Evidence = append(r.Evidence, interruptEvidence("does not match", &ins[i], calls))
	}
	r.set(status.Fail, "%s has no matching interrupt (expected %s); seen: %s", s.Name, r.Expected, strings.Join(seen, ", "))
}

// interruptsForbid: no interrupt of the scope matches the entry.
func interruptsForbid(r *Result, e *InterruptEntry, s trace.Scope) {
	r.Expected = "no " + strings.TrimPrefix(e.describe(), "an ")
	ins, calls := s.Interrupts(), callsByID(s)
	var bad []string
	n := 0
	for i := range ins {
		if !e.matches(&ins[i]) {
			continue
		}
		n++
		if len(bad) < maxReasons {
			bad = append(bad, ins[i].Describe())
		}
		if len(r.Evidence) < maxEvidence {
			r.Evidence = append(r.Evidence, interruptEvidence("forbidden", &ins[i], calls))
		}
	}
	r.Observed = plural.Count(n, "matching interrupt")
	if n == 0 {
		r.set(status.Pass, "%s has no interrupt it must not (%s)", s.Name, plural.Count(len(ins), "interrupt"))
		return
	}
	if extra := n - len(bad); extra > 0 {
		bad = append(bad, fmt.Sprintf("%d more", extra))
	}
	r.set(status.Fail, "%s has %s it must not: %s", s.Name, plural.Count(n, "interrupt"), strings.Join(bad, ", "))
}
