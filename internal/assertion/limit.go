package assertion

import (
	"math"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

// Limit is a bound: a number of milliseconds (timing) or of calls
// (max_calls), or false to disable an inherited one.
type Limit struct {
	Set bool // declared at this level
	Off bool // declared as false
	Ms  int64
	Pos diag.Pos
}

// Active reports whether the limit is declared and not disabled.
func (l Limit) Active() bool { return l.Set && !l.Off }

// Refs implements Payload: a limit holds no reference.
func (Limit) Refs() []vars.Ref { return nil }

// Bind implements Payload.
func (l Limit) Bind(*vars.Vars) (Payload, error) { return l, nil }

// off reports a limit set to false: it disables an inherited one.
func (l Limit) off() bool { return !l.Active() }

// Flag is a boolean as written: result.is_error, whose checks expect an
// error result or not.
type Flag struct {
	Pos   diag.Pos
	Value bool
}

// Refs implements Payload.
func (Flag) Refs() []vars.Ref { return nil }

// Bind implements Payload.
func (f Flag) Bind(*vars.Vars) (Payload, error) { return f, nil }

// Switch is a boolean that turns its check on (tools_list.valid_schemas):
// false makes no check.
type Switch Flag

// Refs implements Payload.
func (Switch) Refs() []vars.Ref { return nil }

// Bind implements Payload.
func (s Switch) Bind(*vars.Vars) (Payload, error) { return s, nil }

func (s Switch) off() bool { return !s.Value }

// readMs reads a timing limit: milliseconds, or false.
func readMs(l *reader, n *yaml.Node, what string) []Item {
	return limitItem(l.limitAt(n, what, "milliseconds"))
}

// readCalls reads tools.max_calls: a number of calls, or false.
func readCalls(l *reader, n *yaml.Node, what string) []Item {
	return limitItem(l.limitAt(n, what, "calls"))
}

func limitItem(lim Limit) []Item {
	if !lim.Set {
		return nil
	}
	return []Item{{Pos: lim.Pos, Payload: lim}}
}

// limit reads field key of f, a bound in milliseconds.
func (l *reader) limit(f map[string]decode.Pair, key, what string) Limit {
	p, ok := f[key]
	if !ok {
		return Limit{}
	}
	return l.limitAt(p.Val, what+"."+key, "milliseconds")
}

// limitAt reads a bound: a positive number of unit (milliseconds, or
// calls), or false.
func (l *reader) limitAt(n *yaml.Node, what, unit string) Limit {
	s, ok := l.Scalar(n, what, "a number of "+unit+" or false")
	if !ok {
		return Limit{}
	}
	if s.ShortTag() == "!!bool" {
		if b, _ := l.Boolean(s, what); b {
			l.Errorf(s, "%s: true is not a limit; write a number of %s, or false to disable an inherited one", what, unit)
			return Limit{}
		}
		return Limit{Set: true, Off: true, Pos: l.Pos(s)}
	}
	ms, ok := l.Integer(s, what, 1, math.MaxInt64)
	if !ok {
		return Limit{}
	}
	return Limit{Set: true, Ms: ms, Pos: l.Pos(s)}
}

// regexRefs lists the references of regexes (nil ones skipped).
func regexRefs(rs ...*vars.Regex) []vars.Ref {
	var refs []vars.Ref
	for _, r := range rs {
		if r != nil {
			refs = append(refs, r.Refs()...)
		}
	}
	return refs
}

func bindOpt(r *vars.Regex, v *vars.Vars) (*vars.Regex, error) {
	if r == nil {
		return nil, nil
	}
	return r.Bind(v)
}
