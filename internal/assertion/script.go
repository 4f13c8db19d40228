package assertion

import (
	"math"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

// DefaultScriptTimeoutMs bounds a script assertion that sets no timeout.
const DefaultScriptTimeoutMs = 30_000

// Script is a script assertion: a command that reads the scope's
// transcript as JSON on stdin and exits 0 (the check passes), 1 (it fails,
// its stdout the message) or anything else (the check could not be made:
// an error). It runs in the directory of the file that declares it.
type Script struct {
	Pos       diag.Pos
	Cmd       []vars.Template
	TimeoutMs int64
	// Severity is the script's own severity ("": the block's).
	Severity Severity
}

var scriptFields = []string{"cmd", "timeout_ms", "severity"}

// scripts reads one script or a list of them.
func (l *reader) scripts(n *yaml.Node, what string) []Script {
	if m := l.Deref(n); m != nil && m.Kind == yaml.SequenceNode {
		var out []Script
		for i, item := range m.Content {
			if s, ok := l.script(item, decode.Index(what, i)); ok {
				out = append(out, s)
			}
		}
		return out
	}
	if s, ok := l.script(n, what); ok {
		return []Script{s}
	}
	return nil
}

func (l *reader) script(n *yaml.Node, what string) (Script, bool) {
	s := Script{TimeoutMs: DefaultScriptTimeoutMs}
	f, ok := l.Fields(n, what, scriptFields)
	if !ok {
		return s, false
	}
	s.Pos = l.Pos(l.DerefQuiet(n))
	l.Require(n, f, what, "cmd")
	if p, ok := f["cmd"]; ok {
		s.Cmd = l.Argv(p.Val, what+".cmd")
	}
	if p, ok := f["timeout_ms"]; ok {
		s.TimeoutMs, _ = l.Integer(p.Val, what+".timeout_ms", 1, math.MaxInt64)
	}
	if p, ok := f["severity"]; ok {
		s.Severity = l.severity(p.Val, what+".severity")
	}
	return s, len(s.Cmd) > 0
}

// rawArgv is a command as written, for checks not bound yet.
func rawArgv(ts []vars.Template) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Raw
	}
	return out
}

// ScriptCheck is a script with its command resolved (BindChecks; as
// written until then).
type ScriptCheck struct {
	Script *Script
	Argv   []string
}

func readScripts(l *reader, n *yaml.Node, what string) []Item {
	var out []Item
	for _, s := range l.scripts(n, what) {
		out = append(out, Item{Pos: s.Pos, Severity: s.Severity, Payload: &ScriptCheck{Script: &s, Argv: rawArgv(s.Cmd)}})
	}
	return out
}

// Refs implements Payload.
func (sc *ScriptCheck) Refs() []vars.Ref {
	var refs []vars.Ref
	for _, t := range sc.Script.Cmd {
		refs = append(refs, t.Refs()...)
	}
	return refs
}

// Bind implements Payload: the command resolved.
func (sc *ScriptCheck) Bind(v *vars.Vars) (Payload, error) {
	b := &ScriptCheck{Script: sc.Script}
	for _, t := range sc.Script.Cmd {
		arg, err := t.Resolve(v)
		if err != nil {
			return nil, err
		}
		b.Argv = append(b.Argv, arg)
	}
	return b, nil
}

// Script returns c's script, nil when c is not a script check.
func (c Check) Script() *ScriptCheck {
	sc, _ := c.Payload.(*ScriptCheck)
	return sc
}
