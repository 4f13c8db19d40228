package assertion

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// order passes when each listed tool is called in the scope and the first
// call of each starts after the first call of the tool listed before it.
// Other calls, and later calls of the listed tools, may come anywhere (a
// partial order, docs/files.md). Starts compare by startsBefore.
func order(r *Result, tools []vars.Name, s trace.Scope) {
	r.Expected = "first calls in the order " + arrows(tools)
	calls := s.ToolCalls()
	first := make([]int, len(tools)) // index into calls, -1: never called
	var missing, seen []string
	for i, t := range tools {
		first[i] = firstCall(calls, t.Value)
		if first[i] < 0 {
			missing = append(missing, "`"+t.Value+"`")
			seen = append(seen, fmt.Sprintf("`%s` never", t.Value))
			continue
		}
		c := &calls[first[i]]
		seen = append(seen, fmt.Sprintf("`%s` at %s", t.Value, callRef(c)))
		r.Evidence = append(r.Evidence, Evidence{Note: fmt.Sprintf("first call to `%s`", t.Value), Call: c})
	}
	r.Observed = "first calls: " + strings.Join(seen, ", ")
	if len(missing) > 0 {
		verb := "was"
		if len(missing) > 1 {
			verb = "were"
		}
		r.set(status.Fail, "order %s: %s %s never called (%s)", arrows(tools), joinAnd(missing), verb, inScope(calls, s.Name))
		return
	}
	for i := 1; i < len(tools); i++ {
		prev, cur := first[i-1], first[i]
		if startsBefore(calls, cur, prev) {
			r.Evidence = []Evidence{
				{Note: fmt.Sprintf("first call to `%s`, listed after `%s`", tools[i].Value, tools[i-1].Value), Call: &calls[cur]},
				{Note: fmt.Sprintf("first call to `%s`", tools[i-1].Value), Call: &calls[prev]},
			}
			r.set(status.Fail, "`%s` (%s) started before `%s` (%s), but the order puts it after",
				tools[i].Value, callRef(&calls[cur]), tools[i-1].Value, callRef(&calls[prev]))
			return
		}
	}
	r.set(status.Pass, "first calls follow the order %s", arrows(tools))
}

// firstCall returns the index of the earliest-starting call to name, or -1.
func firstCall(calls []trace.ToolCall, name string) int {
	best := -1
	for i := range calls {
		if calls[i].Name == name && (best < 0 || startsBefore(calls, i, best)) {
			best = i
		}
	}
	return best
}

// startsBefore reports whether calls[i] started before calls[j]: by
// StartSeq, which orders events across the whole trace, when both have one;
// else by StartedMs; else by their place in the list (the order their
// starts were recorded in).
func startsBefore(calls []trace.ToolCall, i, j int) bool {
	a, b := &calls[i], &calls[j]
	switch {
	case a.StartSeq > 0 && b.StartSeq > 0:
		return a.StartSeq < b.StartSeq
	case a.StartedMs != b.StartedMs:
		return a.StartedMs < b.StartedMs
	}
	return i < j
}

func arrows(tools []vars.Name) string {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = "`" + t.Value + "`"
	}
	return strings.Join(names, " → ")
}

// joinAnd joins "a", "a and b", "a, b and c".
func joinAnd(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
