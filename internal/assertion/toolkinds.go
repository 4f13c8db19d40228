package assertion

import (
	"fmt"
	"math"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/vars"
)

// The tools section's kinds: which tools are called, how, how often and in
// what order.

// Require is one tools.require entry. Every field after Name is a filter; a
// call satisfies the entry when it passes all of them, and Count is checked
// against the number of satisfying calls.
type Require struct {
	Pos            diag.Pos
	Name           vars.Name
	Count          Count
	ArgsMatch      []ArgMatch
	ResultMatch    *vars.Regex
	ResultNotMatch *vars.Regex
	After          *vars.Name
	// Agent, when set, keeps the calls a sub-agent of that name (or run
	// id) made: trace.ToolCall.Agent or SubagentRunID.
	Agent *vars.Name
	// MaxDurationMs bounds how long each satisfying call takes, from its
	// start to its completion (0: no bound).
	MaxDurationMs int64
	// Severity is the entry's own severity ("": the block's).
	Severity Severity
}

// CallFilter is one tools.forbid_calls entry (no call may satisfy it), or
// the call of a stop_after_success.
type CallFilter struct {
	Pos         diag.Pos
	Name        vars.Name
	ArgsMatch   []ArgMatch
	ResultMatch *vars.Regex
	// Agent, when set, keeps the calls a sub-agent of that name (or run
	// id) made (forbid_calls only).
	Agent *vars.Name
	// Severity is the entry's own severity ("": the block's).
	Severity Severity
}

// ArgMatch matches one argument, reached by a dotted path
// ("customer.email", "items.0.sku"), against a regex.
type ArgMatch struct {
	Path  string
	Pos   diag.Pos
	Regex *vars.Regex
}

// Count is how many satisfying calls a require entry accepts. Max < 0 means
// no upper bound. The default is at least one.
type Count struct {
	Pos   diag.Pos
	Min   int64
	Max   int64
	Exact bool
}

// DefaultCount is the count of a require entry that declares none.
var DefaultCount = Count{Min: 1, Max: -1}

// Allows reports whether n satisfying calls meet the count.
func (c Count) Allows(n int) bool {
	return int64(n) >= c.Min && (c.Max < 0 || int64(n) <= c.Max)
}

// String describes the count for messages: "exactly 1 time", "at least 2
// times", "between 1 and 3 times", "at most 3 times".
func (c Count) String() string {
	switch {
	case c.Exact || c.Min == c.Max:
		return "exactly " + plural.Count(int(c.Min), "time")
	case c.Max < 0:
		return "at least " + plural.Count(int(c.Min), "time")
	case c.Min == 0:
		return "at most " + plural.Count(int(c.Max), "time")
	}
	return fmt.Sprintf("between %d and %s", c.Min, plural.Count(int(c.Max), "time"))
}

// Tool is a tool's name: of a tools.forbid entry, or of a tools_list
// include or exclude entry.
type Tool struct{ Name vars.Name }

// Order is tools.order: tools that must be called, the first call of each
// after the first call of the one before it.
type Order struct{ Tools []vars.Name }

// Refs implements Payload: a name holds no reference.
func (Tool) Refs() []vars.Ref { return nil }

// Bind implements Payload.
func (t Tool) Bind(*vars.Vars) (Payload, error) { return t, nil }

// Refs implements Payload: names hold no reference.
func (Order) Refs() []vars.Ref { return nil }

// Bind implements Payload.
func (o Order) Bind(*vars.Vars) (Payload, error) { return o, nil }

// Refs implements Payload.
func (r *Require) Refs() []vars.Ref {
	return append(ArgsRefs(r.ArgsMatch), regexRefs(r.ResultMatch, r.ResultNotMatch)...)
}

// Bind implements Payload.
func (r *Require) Bind(v *vars.Vars) (Payload, error) {
	b := *r
	var err error
	if b.ArgsMatch, err = BindArgs(r.ArgsMatch, v); err != nil {
		return nil, err
	}
	if b.ResultMatch, err = bindOpt(r.ResultMatch, v); err != nil {
		return nil, err
	}
	if b.ResultNotMatch, err = bindOpt(r.ResultNotMatch, v); err != nil {
		return nil, err
	}
	return &b, nil
}

// Refs implements Payload.
func (f *CallFilter) Refs() []vars.Ref {
	return append(ArgsRefs(f.ArgsMatch), regexRefs(f.ResultMatch)...)
}

// Bind implements Payload.
func (f *CallFilter) Bind(v *vars.Vars) (Payload, error) {
	b := *f
	var err error
	if b.ArgsMatch, err = BindArgs(f.ArgsMatch, v); err != nil {
		return nil, err
	}
	if b.ResultMatch, err = bindOpt(f.ResultMatch, v); err != nil {
		return nil, err
	}
	return &b, nil
}

var (
	reqFields    = []string{"name", "count", "args_match", "result_match", "result_not_match", "after", "agent", "max_duration_ms", "severity"}
	filterFields = []string{"name", "args_match", "result_match", "agent", "severity"}
	stopFields   = []string{"name", "args_match", "result_match"}
	countFields  = []string{"exact", "min", "max"}
)

func readRequire(l *reader, n *yaml.Node, what string) []Item {
	items, _ := l.List(n, what)
	var out []Item
	for i, item := range items {
		if r, ok := l.require1(item, decode.Index(what, i)); ok {
			out = append(out, Item{Pos: r.Pos, Severity: r.Severity, Payload: &r})
		}
	}
	return out
}

func readForbidCalls(l *reader, n *yaml.Node, what string) []Item {
	items, _ := l.List(n, what)
	var out []Item
	for i, item := range items {
		if c, ok := l.callFilter(item, decode.Index(what, i), filterFields); ok {
			out = append(out, Item{Pos: c.Pos, Severity: c.Severity, Payload: &c})
		}
	}
	return out
}

func readStopAfterSuccess(l *reader, n *yaml.Node, what string) []Item {
	if c, ok := l.callFilter(n, what, stopFields); ok {
		return []Item{{Pos: c.Pos, Payload: &c}}
	}
	return nil
}

func readOrder(l *reader, n *yaml.Node, what string) []Item {
	tools, pos := l.order(n, what)
	if tools == nil {
		return nil
	}
	return []Item{{Pos: pos, Payload: Order{Tools: tools}}}
}

// order reads a list of at least two distinct tool names.
func (l *reader) order(n *yaml.Node, what string) ([]vars.Name, diag.Pos) {
	items, ok := l.List(n, what)
	if !ok {
		return nil, diag.Pos{}
	}
	pos := l.Pos(l.DerefQuiet(n))
	if len(items) < 2 {
		l.Errorf(l.DerefQuiet(n), "%s needs at least two tools to order; to require one tool, use tools.require", what)
		return nil, pos
	}
	var out []vars.Name
	seen := map[string]int{}
	for i, item := range items {
		name, ok := l.Name(item, decode.Index(what, i))
		if !ok {
			continue
		}
		if j, dup := seen[name.Value]; dup {
			l.Errorf(l.DerefQuiet(item), "%s: `%s` is listed twice (also at %s[%d]); each tool appears once in an order", what, name.Value, what, j)
			continue
		}
		seen[name.Value] = i
		out = append(out, name)
	}
	return out, pos
}

func (l *reader) require1(n *yaml.Node, what string) (Require, bool) {
	before := len(*l.Diags)
	f, ok := l.Fields(n, what, reqFields)
	if !ok {
		return Require{}, false
	}
	l.Require(n, f, what, "name")
	r := Require{Pos: l.Pos(l.DerefQuiet(n)), Count: DefaultCount}
	if p, ok := f["name"]; ok {
		r.Name, _ = l.Name(p.Val, what+".name")
	}
	if p, ok := f["count"]; ok {
		r.Count = l.count(p.Val, what+".count")
	}
	r.ArgsMatch = l.argsMatch(f, what)
	r.ResultMatch = l.OptRegex(f, "result_match", what)
	r.ResultNotMatch = l.OptRegex(f, "result_not_match", what)
	if p, ok := f["after"]; ok {
		if name, ok := l.Name(p.Val, what+".after"); ok {
			r.After = &name
		}
	}
	r.Agent = l.agent(f, what)
	if lim := l.limit(f, "max_duration_ms", what); lim.Off {
		l.Errorf(f["max_duration_ms"].Val, "%s.max_duration_ms: false has nothing to disable here; remove it", what)
	} else {
		r.MaxDurationMs = lim.Ms
	}
	if p, ok := f["severity"]; ok {
		r.Severity = l.severity(p.Val, what+".severity")
	}
	return r, len(*l.Diags) == before
}

func (l *reader) callFilter(n *yaml.Node, what string, known []string) (CallFilter, bool) {
	before := len(*l.Diags)
	f, ok := l.Fields(n, what, known)
	if !ok {
		return CallFilter{}, false
	}
	l.Require(n, f, what, "name")
	c := CallFilter{Pos: l.Pos(l.DerefQuiet(n))}
	if p, ok := f["name"]; ok {
		c.Name, _ = l.Name(p.Val, what+".name")
	}
	c.ArgsMatch = l.argsMatch(f, what)
	c.ResultMatch = l.OptRegex(f, "result_match", what)
	c.Agent = l.agent(f, what)
	if p, ok := f["severity"]; ok {
		c.Severity = l.severity(p.Val, what+".severity")
	}
	return c, len(*l.Diags) == before
}

// agent reads an entry's agent: the sub-agent whose calls it keeps.
func (l *reader) agent(f map[string]decode.Pair, what string) *vars.Name {
	p, ok := f["agent"]
	if !ok {
		return nil
	}
	if name, ok := l.Name(p.Val, what+".agent"); ok {
		return &name
	}
	return nil
}

// count reads {exact: N} or {min: A, max: B}. min defaults to 1 (a require
// entry requires a call); write min: 0 or exact: 0 to allow none.
func (l *reader) count(n *yaml.Node, what string) Count {
	f, ok := l.Fields(n, what, countFields)
	if !ok {
		return DefaultCount
	}
	c := Count{Pos: l.Pos(l.DerefQuiet(n)), Min: 1, Max: -1}
	num := func(key string) (int64, bool) {
		p, ok := f[key]
		if !ok {
			return 0, false
		}
		v, ok := l.Integer(p.Val, what+"."+key, 0, math.MaxInt32)
		return v, ok
	}
	exact, hasExact := num("exact")
	lo, hasMin := num("min")
	hi, hasMax := num("max")
	switch {
	case len(f) == 0:
		l.Errorf(l.DerefQuiet(n), "%s is empty: write {exact: N} or {min: A, max: B}", what)
	case hasExact && (hasMin || hasMax):
		l.Errorf(f["exact"].Key, "%s: exact cannot be combined with min or max", what)
	case hasExact:
		c.Min, c.Max, c.Exact = exact, exact, true
	default:
		if hasMin {
			c.Min = lo
		}
		if hasMax {
			c.Max = hi
		}
		if hasMax && c.Min > c.Max {
			if hasMin {
				l.Errorf(f["min"].Key, "%s: min %d is greater than max %d", what, c.Min, c.Max)
			} else {
				l.Errorf(f["max"].Key, "%s: max %d is below the default min 1; write exact: 0 to require no call", what, c.Max)
			}
		}
	}
	return c
}

// ReadArgsMatch reads the args_match field of mapping f (a require entry,
// a forbid_calls entry, a client tool's result): argument paths to regexes.
func ReadArgsMatch(d *decode.Decoder, f map[string]decode.Pair, what string) []ArgMatch {
	return (&reader{Decoder: d}).argsMatch(f, what)
}

func (l *reader) argsMatch(f map[string]decode.Pair, what string) []ArgMatch {
	p, ok := f["args_match"]
	if !ok {
		return nil
	}
	what += ".args_match"
	var out []ArgMatch
	l.namedEntries(p.Val, what, "argument name to regex", "argument", func(k, v *yaml.Node) {
		if strings.HasPrefix(k.Value, ".") || strings.HasSuffix(k.Value, ".") || strings.Contains(k.Value, "..") {
			l.Errorf(k, "%s: %q is not a valid dotted path (use a.b or items.0.sku)", what, k.Value)
			return
		}
		if re, ok := l.Regex(v, what+"."+k.Value); ok {
			out = append(out, ArgMatch{Path: k.Value, Pos: l.Pos(k), Regex: re})
		}
	})
	return out
}

// namedEntries walks a mapping of names (argument names, attribute
// names) to what each takes, calling fn with each key and value; the
// mapping's problems — not a mapping, a name that is not a non-empty
// string, a name listed twice — are reported at their place; shape says
// what the mapping holds ("argument name to regex").
func (l *reader) namedEntries(n *yaml.Node, what, shape, noun string, fn func(k, v *yaml.Node)) {
	m := l.Deref(n)
	if m == nil {
		return
	}
	if m.Kind != yaml.MappingNode {
		l.Errorf(m, "%s must be a mapping of %s, not %s", what, shape, decode.KindName(m))
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := l.Deref(m.Content[i]), m.Content[i+1]
		if k == nil {
			continue
		}
		if k.Kind != yaml.ScalarNode || k.Value == "" {
			l.Errorf(k, "%s: %s names must be non-empty strings", what, noun)
			continue
		}
		if seen[k.Value] {
			l.Errorf(k, "%s: %s %q is listed twice", what, noun, k.Value)
			continue
		}
		seen[k.Value] = true
		fn(k, v)
	}
}

// BindArgs binds the regexes of an args_match list.
func BindArgs(ms []ArgMatch, v *vars.Vars) ([]ArgMatch, error) {
	if len(ms) == 0 {
		return ms, nil
	}
	out := make([]ArgMatch, len(ms))
	for i, m := range ms {
		re, err := m.Regex.Bind(v)
		if err != nil {
			return nil, err
		}
		out[i] = ArgMatch{Path: m.Path, Pos: m.Pos, Regex: re}
	}
	return out, nil
}

// ArgsRefs lists the references of an args_match list.
func ArgsRefs(ms []ArgMatch) []vars.Ref {
	var refs []vars.Ref
	for _, m := range ms {
		refs = append(refs, m.Regex.Refs()...)
	}
	return refs
}
