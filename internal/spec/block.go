package spec

import (
	"fmt"
	"math"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

// Block is one AssertBlock as written at one level (seed 001, "AssertBlock"),
// or one named block of the config's `assertions:`.
type Block struct {
	Pos diag.Pos
	// Severity is the block's own severity; "" when it does not say, and it
	// takes the severity of the block that includes it (critical at the top).
	Severity Severity
	// Extends names config `assertions:` blocks merged as if written here.
	Extends []vars.Name
	// parts is the block with everything it extends, flattened: itself
	// first, then each extended block (and what those extend), each with
	// its effective severity. Set when the suite loads (resolveExtends).
	parts []blockPart

	Forbid      []vars.Name
	Require     []Require
	ForbidCalls []CallFilter
	// Order lists tools that must be called, the first call of each after
	// the first call of the one before it; nil when unset.
	Order []vars.Name
	// OrderPos is where order is written.
	OrderPos diag.Pos
	// MaxCalls bounds all tool calls in scope (a number, or false).
	MaxCalls Limit
	// StopAfterSuccess: after the first call to its tool whose result
	// matches, no tool call starts.
	StopAfterSuccess *CallFilter

	MaxDurationMs   Limit
	MaxIdleMs       Limit
	MaxFirstEventMs Limit
	MaxFirstTextMs  Limit

	MustMatch    []*vars.Regex
	MustNotMatch []*vars.Regex
	// Contains, Omits and Equals compare literally, ignoring case unless
	// CaseSensitive.
	Contains      []vars.Template
	Omits         []vars.Template
	Equals        *vars.Template
	CaseSensitive bool
	JSONSchema    *JSONSchema
	JSONPath      []JSONPathCheck
	Grounded      *Grounded
	State         []StateCheck
	// Judge asks the config's model about the transcript (nil: none).
	Judge *Judge
	// Scripts are commands that judge the scope's transcript.
	Scripts []Script
	// Result and ToolsList check tool results and tools/list listings
	// (nil: none).
	Result    *ResultChecks
	ToolsList *ToolsListChecks
	// Memory and scheduler checks, on traces that observe them.
	MemoryReads, MemoryWrites, MemoryForbid []MemoryEntry
	TaskRuns, Outbound                      *Counted
	// Requires are capabilities the block's checks need besides their
	// kinds' own: without them, the checks are skipped (or errors).
	Requires []string
	// Includes are blocks merged as if written here, each with its own
	// severity: a dataset case's assertions, one block each.
	Includes []*Block
	// name is what messages call an included block ("assertions[2]").
	name string
	// id is the id an assertions: item was given: the id of its checks.
	id string
}

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
		return "exactly " + Times(c.Min)
	case c.Max < 0:
		return "at least " + Times(c.Min)
	case c.Min == 0:
		return "at most " + Times(c.Max)
	}
	return fmt.Sprintf("between %d and %s", c.Min, Times(c.Max))
}

// Times renders a number of times for messages: "1 time", "3 times".
func Times(n int64) string {
	if n == 1 {
		return "1 time"
	}
	return fmt.Sprintf("%d times", n)
}

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

var (
	blockFields  = []string{"severity", "extends", "requires", "tools", "timing", "text", "grounded", "state", "memory", "scheduler", "judge", "script", "result", "tools_list"}
	toolsFields  = []string{"forbid", "require", "forbid_calls", "order", "max_calls", "stop_after_success"}
	timingFields = []string{"max_duration_ms", "max_idle_ms", "max_first_event_ms", "max_first_text_ms"}
	reqFields    = []string{"name", "count", "args_match", "result_match", "result_not_match", "after", "max_duration_ms", "severity"}
	filterFields = []string{"name", "args_match", "result_match", "severity"}
	stopFields   = []string{"name", "args_match", "result_match"}
	countFields  = []string{"exact", "min", "max"}
)

func (l *loader) block(n *yaml.Node, what string) *Block {
	f, ok := l.Fields(n, what, blockFields)
	if !ok {
		return nil
	}
	b := &Block{Pos: l.Pos(l.DerefQuiet(n))}
	if p, ok := f["severity"]; ok {
		b.Severity = l.severity(p.Val, what+".severity")
	}
	if p, ok := f["extends"]; ok {
		items, _ := l.OneOrList(p.Val, what+".extends")
		for i, item := range items {
			if name, ok := l.Name(item, decode.Index(what+".extends", i)); ok {
				b.Extends = append(b.Extends, name)
			}
		}
	}
	if p, ok := f["tools"]; ok {
		l.tools(p.Val, what+".tools", b)
	}
	if p, ok := f["timing"]; ok {
		if tf, ok := l.Fields(p.Val, what+".timing", timingFields); ok {
			b.MaxDurationMs = l.limit(tf, "max_duration_ms", what+".timing")
			b.MaxIdleMs = l.limit(tf, "max_idle_ms", what+".timing")
			b.MaxFirstEventMs = l.limit(tf, "max_first_event_ms", what+".timing")
			b.MaxFirstTextMs = l.limit(tf, "max_first_text_ms", what+".timing")
		}
	}
	if p, ok := f["text"]; ok {
		l.text1(p.Val, what+".text", b)
	}
	if p, ok := f["grounded"]; ok {
		b.Grounded = l.grounded(p.Val, what+".grounded")
	}
	if p, ok := f["state"]; ok {
		b.State = l.state(p.Val, what+".state")
	}
	if p, ok := f["memory"]; ok {
		l.memory(p.Val, what+".memory", b)
	}
	if p, ok := f["scheduler"]; ok {
		l.scheduler(p.Val, what+".scheduler", b)
	}
	if p, ok := f["requires"]; ok {
		b.Requires = l.requires(p.Val, what+".requires")
	}
	if p, ok := f["judge"]; ok {
		b.Judge = l.judge(p.Val, what+".judge")
	}
	if p, ok := f["script"]; ok {
		b.Scripts = l.scripts(p.Val, what+".script")
	}
	if p, ok := f["result"]; ok {
		b.Result = l.resultChecks(p.Val, what+".result")
	}
	if p, ok := f["tools_list"]; ok {
		b.ToolsList = l.toolsListChecks(p.Val, what+".tools_list")
	}
	return b
}

func (l *loader) tools(n *yaml.Node, what string, b *Block) {
	f, ok := l.Fields(n, what, toolsFields)
	if !ok {
		return
	}
	if p, ok := f["forbid"]; ok {
		items, _ := l.OneOrList(p.Val, what+".forbid")
		for i, item := range items {
			if name, ok := l.Name(item, decode.Index(what+".forbid", i)); ok {
				b.Forbid = append(b.Forbid, name)
			}
		}
	}
	if p, ok := f["require"]; ok {
		items, _ := l.List(p.Val, what+".require")
		for i, item := range items {
			if r, ok := l.require1(item, decode.Index(what+".require", i)); ok {
				b.Require = append(b.Require, r)
			}
		}
	}
	if p, ok := f["forbid_calls"]; ok {
		items, _ := l.List(p.Val, what+".forbid_calls")
		for i, item := range items {
			if c, ok := l.callFilter(item, decode.Index(what+".forbid_calls", i), filterFields); ok {
				b.ForbidCalls = append(b.ForbidCalls, c)
			}
		}
	}
	if p, ok := f["order"]; ok {
		b.Order, b.OrderPos = l.order(p.Val, what+".order")
	}
	if _, ok := f["max_calls"]; ok {
		b.MaxCalls = l.limit(f, "max_calls", what)
	}
	if p, ok := f["stop_after_success"]; ok {
		if c, ok := l.callFilter(p.Val, what+".stop_after_success", stopFields); ok {
			b.StopAfterSuccess = &c
		}
	}
}

// order reads a list of at least two distinct tool names.
func (l *loader) order(n *yaml.Node, what string) ([]vars.Name, diag.Pos) {
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

func (l *loader) require1(n *yaml.Node, what string) (Require, bool) {
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
	r.ResultMatch = l.optRegex(f, "result_match", what)
	r.ResultNotMatch = l.optRegex(f, "result_not_match", what)
	if p, ok := f["after"]; ok {
		if name, ok := l.Name(p.Val, what+".after"); ok {
			r.After = &name
		}
	}
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

func (l *loader) callFilter(n *yaml.Node, what string, known []string) (CallFilter, bool) {
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
	c.ResultMatch = l.optRegex(f, "result_match", what)
	if p, ok := f["severity"]; ok {
		c.Severity = l.severity(p.Val, what+".severity")
	}
	return c, len(*l.Diags) == before
}

// count reads {exact: N} or {min: A, max: B}. min defaults to 1 (a require
// entry requires a call); write min: 0 or exact: 0 to allow none.
func (l *loader) count(n *yaml.Node, what string) Count {
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

func (l *loader) argsMatch(f map[string]decode.Pair, what string) []ArgMatch {
	p, ok := f["args_match"]
	if !ok {
		return nil
	}
	what += ".args_match"
	m := l.Deref(p.Val)
	if m == nil {
		return nil
	}
	if m.Kind != yaml.MappingNode {
		l.Errorf(m, "%s must be a mapping of argument name to regex, not %s", what, decode.KindName(m))
		return nil
	}
	var out []ArgMatch
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := l.Deref(m.Content[i]), m.Content[i+1]
		if k == nil {
			continue
		}
		if k.Kind != yaml.ScalarNode || k.Value == "" {
			l.Errorf(k, "%s: argument names must be non-empty strings", what)
			continue
		}
		if seen[k.Value] {
			l.Errorf(k, "%s: argument %q is listed twice", what, k.Value)
			continue
		}
		seen[k.Value] = true
		if strings.HasPrefix(k.Value, ".") || strings.HasSuffix(k.Value, ".") || strings.Contains(k.Value, "..") {
			l.Errorf(k, "%s: %q is not a valid dotted path (use a.b or items.0.sku)", what, k.Value)
			continue
		}
		if re, ok := l.Regex(v, what+"."+k.Value); ok {
			out = append(out, ArgMatch{Path: k.Value, Pos: l.Pos(k), Regex: re})
		}
	}
	return out
}

func (l *loader) optRegex(f map[string]decode.Pair, key, what string) *vars.Regex {
	p, ok := f[key]
	if !ok {
		return nil
	}
	re, _ := l.Regex(p.Val, what+"."+key)
	return re
}

func (l *loader) regexes(f map[string]decode.Pair, key, what string) []*vars.Regex {
	p, ok := f[key]
	if !ok {
		return nil
	}
	path := key
	if what != "" {
		path = what + "." + key
	}
	items, _ := l.OneOrList(p.Val, path)
	var out []*vars.Regex
	for i, item := range items {
		if re, ok := l.Regex(item, decode.Index(path, i)); ok {
			out = append(out, re)
		}
	}
	return out
}

// limit reads a bound: a positive number of milliseconds (or of calls, for
// max_calls), or false.
func (l *loader) limit(f map[string]decode.Pair, key, what string) Limit {
	p, ok := f[key]
	if !ok {
		return Limit{}
	}
	unit := "milliseconds"
	if key == "max_calls" {
		unit = "calls"
	}
	what += "." + key
	n, ok := l.Scalar(p.Val, what, "a number of "+unit+" or false")
	if !ok {
		return Limit{}
	}
	if n.ShortTag() == "!!bool" {
		if b, _ := l.Boolean(n, what); b {
			l.Errorf(n, "%s: true is not a limit; write a number of %s, or false to disable an inherited one", what, unit)
			return Limit{}
		}
		return Limit{Set: true, Off: true, Pos: l.Pos(n)}
	}
	ms, ok := l.Integer(n, what, 1, math.MaxInt64)
	if !ok {
		return Limit{}
	}
	return Limit{Set: true, Ms: ms, Pos: l.Pos(n)}
}

// requires reads an assert block's `requires:` list of capabilities.
func (l *loader) requires(n *yaml.Node, what string) []string {
	items, _ := l.OneOrList(n, what)
	var out []string
	for i, item := range items {
		v, node, ok := l.Text(item, decode.Index(what, i))
		if !ok {
			continue
		}
		if !capability.Known(v) {
			l.Errorf(node, "%s: %q is not a capability (known: %s)%s", what, v, capability.Join(capability.All), decode.DidYouMean(v, capability.All))
			continue
		}
		out = append(out, v)
	}
	return out
}
