package assertion

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// maxReasons bounds how many eliminated calls a message explains; the
// evidence lists all of them.
const maxReasons = 3

func forbid(r *Result, tool vars.Name, s trace.Scope) {
	calls := s.ToolCalls()
	var bad []string
	for i := range calls {
		if calls[i].Name == tool.Value {
			bad = append(bad, callRef(&calls[i]))
			r.Evidence = append(r.Evidence, Evidence{Note: "forbidden call", Call: &calls[i]})
		}
	}
	r.Expected = fmt.Sprintf("no call to `%s`", tool.Value)
	r.Observed = plural.Count(len(bad), "call")
	if len(bad) == 0 {
		r.set(status.Pass, "`%s` was not called", tool.Value)
		return
	}
	r.set(status.Fail, "`%s` is forbidden but was called %s: %s", tool.Value, plural.Count(len(bad), "time"), strings.Join(bad, ", "))
}

func require(r *Result, req *Require, s trace.Scope) {
	calls := s.ToolCalls()
	var satisfying []*trace.ToolCall
	var seen int
	var reasons []string
	for k := range calls {
		c := &calls[k]
		if c.Name != req.Name.Value {
			continue
		}
		seen++
		if why := requireMismatch(req, calls, k, s.Before); why != "" {
			reasons = append(reasons, callRef(c)+" failed "+why)
			r.Evidence = append(r.Evidence, Evidence{Note: "eliminated: " + why, Call: c})
			continue
		}
		satisfying = append(satisfying, c)
		r.Evidence = append(r.Evidence, Evidence{Note: "satisfies the entry", Call: c})
	}
	satisfied := len(satisfying)
	r.Expected = fmt.Sprintf("`%s`%s %s%s", req.Name.Value, describeFilters(req), req.Count, within(req))
	r.Observed = fmt.Sprintf("%s satisfying the entry (%s to `%s`)", plural.Count(satisfied, "call"), plural.Count(seen, "call"), req.Name.Value)
	if req.Count.Allows(satisfied) {
		if slow := slowCalls(req, satisfying); len(slow) > 0 {
			tooSlow(r, req, slow)
			return
		}
		r.set(status.Pass, "`%s` called %s, expected %s%s", req.Name.Value, plural.Count(satisfied, "time"), req.Count, within(req))
		return
	}
	msg := fmt.Sprintf("expected `%s`%s %s, saw %d", req.Name.Value, describeFilters(req), req.Count, satisfied)
	switch {
	case seen == 0:
		msg += fmt.Sprintf(": `%s` was never called (%s)", req.Name.Value, inScope(calls, s.Name))
		for k := range calls {
			r.Evidence = append(r.Evidence, Evidence{Note: "called instead", Call: &calls[k]})
		}
	case len(reasons) > 0:
		if len(reasons) > maxReasons {
			reasons = append(reasons[:maxReasons], fmt.Sprintf("%d more", len(reasons)-maxReasons))
		}
		msg += "; " + strings.Join(reasons, "; ")
	}
	r.set(status.Fail, "%s", msg)
}

// within describes a require entry's max_duration_ms: ", each within
// 2000 ms".
func within(req *Require) string {
	if req.MaxDurationMs <= 0 {
		return ""
	}
	return fmt.Sprintf(", each within %d ms", req.MaxDurationMs)
}

// slowCalls returns the satisfying calls that took longer than the entry's
// max_duration_ms, from their start to their completion (TimestampMs). A
// call with no completion time recorded cannot be timed and is not slow.
func slowCalls(req *Require, satisfying []*trace.ToolCall) []*trace.ToolCall {
	if req.MaxDurationMs <= 0 {
		return nil
	}
	var slow []*trace.ToolCall
	for _, c := range satisfying {
		if c.TimestampMs > 0 && c.TimestampMs-c.StartedMs > req.MaxDurationMs {
			slow = append(slow, c)
		}
	}
	return slow
}

// tooSlow fails a require entry whose count was met by calls that took too
// long; the evidence is the slow calls.
func tooSlow(r *Result, req *Require, slow []*trace.ToolCall) {
	var parts []string
	r.Evidence = nil
	for i, c := range slow {
		took := c.TimestampMs - c.StartedMs
		if i < maxReasons {
			parts = append(parts, fmt.Sprintf("%s took %d ms", callRef(c), took))
		}
		r.Evidence = append(r.Evidence, Evidence{Note: fmt.Sprintf("took %d ms, over max_duration_ms %d", took, req.MaxDurationMs), Call: c})
	}
	if len(slow) > maxReasons {
		parts = append(parts, fmt.Sprintf("%d more", len(slow)-maxReasons))
	}
	r.Observed += fmt.Sprintf(", %s over %d ms", plural.Count(len(slow), "call"), req.MaxDurationMs)
	r.set(status.Fail, "`%s` %s, over max_duration_ms %d", req.Name.Value, strings.Join(parts, ", "), req.MaxDurationMs)
}

// requireMismatch returns the first filter call k fails, or "". Filters are
// checked in the order docs/files.md lists them: agent, args_match,
// result_match, result_not_match, after.
func requireMismatch(req *Require, calls []trace.ToolCall, k int, before []trace.ToolCall) string {
	c := &calls[k]
	if why := agentMismatch(c, req.Agent); why != "" {
		return why
	}
	if why := argsMismatch(c, req.ArgsMatch); why != "" {
		return why
	}
	if why := resultMismatch(c, req.ResultMatch, true); why != "" {
		return why
	}
	if why := resultMismatch(c, req.ResultNotMatch, false); why != "" {
		return why
	}
	if req.After != nil && !calledBefore(req.After.Value, calls[:k], before) {
		return fmt.Sprintf("after `%s`: no call to `%s` came before it", req.After.Value, req.After.Value)
	}
	return ""
}

// calledBefore reports whether name was called among the earlier calls of
// this scope or the earlier turns of the test.
func calledBefore(name string, earlier, before []trace.ToolCall) bool {
	for _, list := range [][]trace.ToolCall{before, earlier} {
		for i := range list {
			if list[i].Name == name {
				return true
			}
		}
	}
	return false
}

func forbidCalls(r *Result, f *CallFilter, s trace.Scope) {
	calls := s.ToolCalls()
	var bad []string
	checked := 0
	for i := range calls {
		c := &calls[i]
		if c.Name != f.Name.Value {
			continue
		}
		checked++
		if agentMismatch(c, f.Agent) != "" || argsMismatch(c, f.ArgsMatch) != "" || resultMismatch(c, f.ResultMatch, true) != "" {
			continue
		}
		bad = append(bad, callRef(c)+matchDetail(c, f))
		r.Evidence = append(r.Evidence, Evidence{Note: "matches the forbidden pattern", Call: c})
	}
	filters := describeCallFilter(f)
	r.Expected = fmt.Sprintf("no call to `%s`%s", f.Name.Value, filters)
	r.Observed = fmt.Sprintf("%s matching (%s to `%s`)", plural.Count(len(bad), "call"), plural.Count(checked, "call"), f.Name.Value)
	if len(bad) == 0 {
		r.set(status.Pass, "no call to `%s`%s (%s checked)", f.Name.Value, filters, plural.Count(checked, "call"))
		return
	}
	r.set(status.Fail, "forbidden call to `%s`%s: %s", f.Name.Value, filters, strings.Join(bad, "; "))
}

// matchDetail shows the values that made a forbidden call match.
func matchDetail(c *trace.ToolCall, f *CallFilter) string {
	var parts []string
	for _, m := range f.ArgsMatch {
		v, _ := ArgText(c.Args, m.Path)
		parts = append(parts, m.Path+"="+quote(v))
	}
	if f.ResultMatch != nil {
		parts = append(parts, "result "+quote(ResultText(c.Result)))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

func describeFilters(req *Require) string {
	parts := append(agentPart(req.Agent), argParts(req.ArgsMatch)...)
	if req.ResultMatch != nil {
		parts = append(parts, fmt.Sprintf("result_match `%s`", req.ResultMatch))
	}
	if req.ResultNotMatch != nil {
		parts = append(parts, fmt.Sprintf("result_not_match `%s`", req.ResultNotMatch))
	}
	if req.After != nil {
		parts = append(parts, fmt.Sprintf("after `%s`", req.After.Value))
	}
	return withParts(parts)
}

func describeCallFilter(f *CallFilter) string {
	parts := append(agentPart(f.Agent), argParts(f.ArgsMatch)...)
	if f.ResultMatch != nil {
		parts = append(parts, fmt.Sprintf("result_match `%s`", f.ResultMatch))
	}
	return withParts(parts)
}

func argParts(ms []ArgMatch) []string {
	var parts []string
	for _, m := range ms {
		parts = append(parts, fmt.Sprintf("args_match.%s `%s`", m.Path, m.Regex))
	}
	return parts
}

func withParts(parts []string) string {
	if len(parts) == 0 {
		return ""
	}
	return " with " + strings.Join(parts, ", ")
}

// callRef names a call in messages: "call c1 in turn[0]".
func callRef(c *trace.ToolCall) string {
	return fmt.Sprintf("call %s in %s", c.ID, trace.TurnName(c.Turn))
}

// inScope lists the tools called in a scope, for "never called" messages.
func inScope(calls []trace.ToolCall, scope string) string {
	if len(calls) == 0 {
		return "no tool calls in " + scope
	}
	var names []string
	seen := map[string]bool{}
	for _, c := range calls {
		if !seen[c.Name] {
			seen[c.Name] = true
			names = append(names, c.Name)
		}
	}
	return "calls in " + scope + ": " + strings.Join(names, ", ")
}
