package bless

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/trace"
)

// Inferrer infers the checks of one kind over one scope of a trace.
type Inferrer struct {
	Kind Kind
	// PerTurn: it infers over each turn, its checks going on the turn (on
	// the whole test for a conversation without turns of its own: a
	// transcript); else over the whole test.
	PerTurn bool
	// Needs is the capability the trace must have (capability.*; "":
	// none); a trace without it gets no check of the kind.
	Needs string
	Infer func(c *Conversation, s trace.Scope, turn int) []Check
}

// Inferrers are the kinds of check bless infers, in the order they are
// written in each assert block and asked about. A new kind is one more
// entry (and its Kind).
var Inferrers = []Inferrer{
	{Kind: Require, PerTurn: true, Needs: capability.ToolTrace, Infer: inferRequire},
	{Kind: Args, PerTurn: true, Needs: capability.ToolTrace, Infer: inferArgs},
	{Kind: Order, PerTurn: true, Needs: capability.ToolTrace, Infer: inferOrder},
	{Kind: Text, PerTurn: true, Needs: capability.ToolTrace, Infer: inferText},
	{Kind: Forbid, Needs: capability.ToolTrace, Infer: inferForbid},
	{Kind: Snapshot, Needs: capability.ToolTrace, Infer: inferSnapshot},
}

// Infer returns the checks that hold in every trace of the conversation:
// each turn's, turn by turn, then the whole test's; and notes on what it
// left out and why (a snapshot, when the attempts' trajectories differ).
func Infer(c *Conversation) (checks []Check, notes []string) {
	if len(c.Traces) == 0 {
		return nil, nil
	}
	per := make([][]Check, len(c.Traces))
	for i, tr := range c.Traces {
		per[i] = inferTrace(c, tr)
	}
	return sameSnapshots(c, per, common(per))
}

// inferTrace infers every kind over one trace.
func inferTrace(c *Conversation, tr *trace.Trace) []Check {
	caps := tr.Caps()
	var out []Check
	run := func(in Inferrer, s trace.Scope, turn int) {
		if in.Needs == "" || slices.Contains(caps, in.Needs) {
			out = append(out, in.Infer(c, s, turn)...)
		}
	}
	if c.Source != nil { // a transcript: every check is on the whole test
		for _, in := range Inferrers {
			run(in, tr.TestScope(), Whole)
		}
		return out
	}
	for i := range tr.Turns {
		for _, in := range Inferrers {
			if in.PerTurn {
				run(in, tr.TurnScope(i), i)
			}
		}
	}
	for _, in := range Inferrers {
		if !in.PerTurn {
			run(in, tr.TestScope(), Whole)
		}
	}
	return out
}

// common keeps the checks of the first trace that every other trace also
// gave, once each.
func common(per [][]Check) []Check {
	counts := map[string]int{}
	for _, checks := range per {
		seen := map[string]bool{}
		for _, c := range checks {
			if k := c.key(); !seen[k] {
				seen[k] = true
				counts[k]++
			}
		}
	}
	var out []Check
	done := map[string]bool{}
	for _, c := range per[0] {
		if k := c.key(); counts[k] == len(per) && !done[k] {
			done[k] = true
			out = append(out, c)
		}
	}
	return out
}

// calls are the scope's tool calls in the order they started, without
// tool listings.
func calls(s trace.Scope) []trace.ToolCall {
	var out []trace.ToolCall
	for _, c := range s.ToolCalls() {
		if c.Name != trace.ListToolsCall {
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, func(a, b trace.ToolCall) int {
		switch {
		case a.StartSeq > 0 && b.StartSeq > 0:
			return cmp.Compare(a.StartSeq, b.StartSeq)
		case a.StartedMs != b.StartedMs:
			return cmp.Compare(a.StartedMs, b.StartedMs)
		}
		return 0
	})
	return out
}

// firstCalls are the tools of calls, each once, in the order first called.
func firstCalls(cs []trace.ToolCall) []string {
	var out []string
	for _, c := range cs {
		if !slices.Contains(out, c.Name) {
			out = append(out, c.Name)
		}
	}
	return out
}

// in says where a scope is, for a check's comment.
func in(turn int) string {
	if turn == Whole {
		return "in this test"
	}
	return fmt.Sprintf("in turn %d", turn)
}

// inferRequire: each tool called in the scope is required there.
func inferRequire(_ *Conversation, s trace.Scope, turn int) []Check {
	cs := calls(s)
	var out []Check
	for _, name := range firstCalls(cs) {
		what := "the agent called " + name
		if i := slices.IndexFunc(cs, func(c trace.ToolCall) bool { return c.Name == name }); cs[i].Client {
			what = "the agent called the client tool " + name
		}
		out = append(out, Check{Kind: Require, Turn: turn, Section: []string{"tools", "require"}, List: true,
			Value: mapping("name", str(name)), Why: what + " " + in(turn), Tool: name})
	}
	return out
}

// inferOrder: two or more tools called in the scope are called in the
// order they first were.
func inferOrder(_ *Conversation, s trace.Scope, turn int) []Check {
	names := firstCalls(calls(s))
	if len(names) < 2 {
		return nil
	}
	return []Check{{Kind: Order, Turn: turn, Section: []string{"tools", "order"}, Value: flowSeq(names...),
		Why: "the agent called " + strings.Join(names, ", then ") + " " + in(turn)}}
}

// inferForbid: a tool the agent had at hand and never called in the
// trace stays uncalled.
func inferForbid(c *Conversation, s trace.Scope, turn int) []Check {
	called := firstCalls(calls(s))
	avail := map[string]string{}
	maps.Copy(avail, c.available)
	for _, tool := range listed(s) {
		if _, ok := avail[tool]; !ok {
			avail[tool] = "the server listed it (tools/list)"
		}
	}
	if len(s.Turns) > 0 {
		for _, d := range declaredTools(&trace.Trace{Turns: s.Turns[:1]}) {
			if _, ok := avail[d.name]; !ok {
				avail[d.name] = "the run offered it as a client tool"
			}
		}
	}
	var out []Check
	for _, tool := range slices.Sorted(maps.Keys(avail)) {
		if slices.Contains(called, tool) {
			continue
		}
		out = append(out, Check{Kind: Forbid, Turn: turn, Section: []string{"tools", "forbid"}, List: true, Value: str(tool),
			Why: fmt.Sprintf("the agent never called %s %s, though %s", tool, in(turn), avail[tool])})
	}
	return out
}
