package assertion

import (
	"math"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
)

// The catalog of named checks (docs/imports.md): tool use, output, memory
// isolation, scheduler, retry and budget checks, on the generic language. Each is
// rewritten into the assert block it means, as the dataset vocabulary is
// (vocabulary.go), so its evidence and reports are those of the block. An
// item may use the envelope {id, type, severity, params: {...},
// requires_capabilities: [...]} or write its parameters inline.

// envelopeFields are the keys every vocabulary item may have.
var envelopeFields = []string{"type", "severity", "id", "requires", "requires_capabilities"}

// defaultGracefulPattern is what a graceful failure says when none is
// given: it owns up to the failure instead of making something up.
const defaultGracefulPattern = `(?i)\b(couldn't|could not|can't|cannot|unable|failed|unavailable|timed out|try again|sorry)\b`

// flattenParams lifts the keys of an item's params: mapping to the item.
// It reports false when params is not a mapping: the item's parameters
// are unknown, so nothing else about it is worth saying.
func (l *reader) flattenParams(m *yaml.Node, what string) (*yaml.Node, bool) {
	var params *yaml.Node
	found := false
	var rest []*yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == "params" {
			params, found = l.Deref(m.Content[i+1]), true
			continue
		}
		rest = append(rest, m.Content[i], m.Content[i+1])
	}
	switch {
	case !found:
		return m, true
	case params == nil:
		return nil, false // past the alias budget, reported
	case params.Kind != yaml.MappingNode:
		l.Errorf(params, "%s.params must be a mapping of the assertion's parameters, not %s", what, decode.KindName(params))
		return nil, false
	}
	out := *m
	out.Content = append(rest, params.Content...)
	return &out, true
}

// envelope applies an item's id and required capabilities to its block.
func (l *reader) envelope(f map[string]decode.Pair, what string, b *Block) {
	if p, ok := f["id"]; ok {
		if id, ok := l.Name(p.Val, what+".id"); ok {
			if builtinID(id.Value) {
				l.Errorf(l.DerefQuiet(p.Val), "%s.id %q would read as a built-in check's id; choose another", what, id.Value)
			} else {
				b.name, b.id = id.Value, id.Value
			}
		}
	}
	for _, k := range []string{"requires", "requires_capabilities"} {
		if p, ok := f[k]; ok {
			b.Requires = union(b.Requires, l.requires(p.Val, what+"."+k))
		}
	}
}

// builtinID reports whether an item's id could be taken for the id of a
// check the generic blocks make: a kind ("grounded", "tools.require"), a
// kind declared at a level ("target.grounded"), or an indexed one.
func builtinID(id string) bool {
	if strings.ContainsAny(id, "[]") {
		return true
	}
	for _, lv := range []Level{"", LevelTarget, LevelTest, LevelTurn} {
		rest, ok := strings.CutPrefix(id, string(lv)+".")
		if lv == "" {
			rest, ok = id, true
		}
		if ok && (Lookup(Kind(rest)) != nil || slices.Contains(Builtins, Kind(rest))) {
			return true
		}
	}
	return false
}

// catalogBlock rewrites one of the catalog's named checks into its block.
func (l *reader) catalogBlock(typ string, f map[string]decode.Pair, s synth, what string) *yaml.Node {
	val := func(k string) *yaml.Node {
		if p, ok := f[k]; ok {
			return p.Val
		}
		return nil
	}
	list := func(n *yaml.Node) *yaml.Node {
		if d := l.Deref(n); d != nil && d.Kind == yaml.SequenceNode {
			return n
		}
		return s.seq(n)
	}
	text := func(check string, n *yaml.Node) *yaml.Node {
		kv := []*yaml.Node{s.key(check), list(n)}
		if p, ok := f["case_sensitive"]; ok {
			kv = append(kv, s.key("case_sensitive"), p.Val)
		}
		return s.mapping(s.key("text"), s.mapping(kv...))
	}
	switch typ {
	case "must_call_tool":
		entry := []*yaml.Node{s.key("name"), val("tool")}
		if args := l.toolArgs(f, what); args != nil {
			entry = append(entry, s.key("args_match"), args)
		}
		return s.mapping(s.key("tools"), s.mapping(s.key("require"), s.seq(s.mapping(entry...))))
	case "must_not_call_tool":
		return s.mapping(s.key("tools"), s.mapping(s.key("forbid"), list(val("tool"))))
	case "tool_call_order":
		return s.mapping(s.key("tools"), s.mapping(s.key("order"), val("tools")))
	case "max_tool_calls":
		return s.mapping(s.key("tools"), s.mapping(s.key("max_calls"), val("max")))
	case "output_contains":
		return text("contains", val("value"))
	case "output_omits":
		return text("omits", val("value"))
	case "output_matches_format":
		return text("must_match", val("pattern"))
	case "memory_recall_same_group":
		// The group's own memory was read (holding the fact, when given)
		// and the output shows it was used.
		read := []*yaml.Node{s.key("group"), s.key(GroupOwn)}
		if n := val("fact"); n != nil {
			read = append(read, s.key("content_match"), n)
		}
		return s.mapping(
			s.key("memory"), s.mapping(s.key("reads"), s.seq(s.mapping(read...))),
			s.key("text"), s.mapping(s.key("must_match"), list(val("expect"))))
	case "no_cross_group_memory_use":
		// No other group's memory was read or written, and none of its
		// facts reached the output.
		block := []*yaml.Node{s.key("memory"), s.mapping(s.key("forbid"), s.seq(s.mapping(s.key("group"), s.key(GroupOther))))}
		if n := val("facts"); n != nil {
			block = append(block, s.key("text"), s.mapping(s.key("omits"), list(n)))
		}
		return s.mapping(block...)
	case "scheduler_task_runs":
		runs := []*yaml.Node{}
		if n := val("count"); n != nil {
			runs = append(runs, s.key("count"), n)
		}
		if n := val("status"); n != nil {
			runs = append(runs, s.key("status"), n)
		}
		return s.mapping(s.key("scheduler"), s.mapping(s.key("task_runs"), s.mapping(runs...)))
	case "scheduler_outbound_count":
		out := []*yaml.Node{s.key("count"), val("count")}
		if n := val("match"); n != nil {
			out = append(out, s.key("match"), n)
		}
		return s.mapping(s.key("scheduler"), s.mapping(s.key("outbound"), s.mapping(out...)))
	case "retry_policy_respected":
		// The tool was tried, and at most max_attempts times: at least
		// one attempt, said of max_attempts rather than of the count it
		// becomes.
		if _, ok := l.Integer(val("max_attempts"), what+".max_attempts", 1, math.MaxInt32); !ok {
			return nil
		}
		count := s.mapping(s.key("min"), &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: "1", Line: s.at.Line, Column: s.at.Column},
			s.key("max"), val("max_attempts"))
		entry := s.mapping(s.key("name"), val("tool"), s.key("count"), count)
		return s.mapping(s.key("tools"), s.mapping(s.key("require"), s.seq(entry)))
	case "budget":
		// The bounds given, as written; none is the budget section's own
		// error (it says what to add).
		var bounds []*yaml.Node
		for _, k := range vocabFields["budget"] {
			if n := val(k); n != nil {
				bounds = append(bounds, s.key(k), n)
			}
		}
		return s.mapping(s.key("budget"), s.mapping(bounds...))
	case "graceful_failure_output":
		pattern := val("pattern")
		if pattern == nil {
			pattern = s.key(defaultGracefulPattern)
		}
		return text("must_match", pattern)
	}
	return nil
}
