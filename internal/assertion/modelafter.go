package assertion

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// model.no_call_after: once a call of the tool completed in the scope
// (its result arrived), the agent started no model call in it. A call
// of the tool is its name, or a call Ananke's doubles served as that
// tool under a name the agent's MCP client prefixed. Times are those the
// trace holds: a streamed call completes when its result reached
// Ananke, a call only the doubles saw when the double answered.

func noCallAfterSchema() decode.Obj {
	return decode.OneOrMany(decode.Obj{"type": "string", "description": "A tool after whose first completed call in scope the agent starts no model call."})
}

func noModelCallAfter(r *Result, tool string, s trace.Scope) {
	r.Expected = fmt.Sprintf("no model call after `%s` completed", tool)
	var first *trace.ToolCall
	calls := s.ToolCalls()
	for i := range calls {
		c := &calls[i]
		if c.Result == nil || !isTool(c, tool) {
			continue
		}
		if first == nil || c.TimestampMs < first.TimestampMs {
			first = c
		}
	}
	if first == nil {
		r.Observed = fmt.Sprintf("`%s` never completed", tool)
		r.set(status.Pass, "`%s` did not complete in %s; nothing to check", tool, s.Name)
		return
	}
	r.Evidence = append(r.Evidence, Evidence{Note: fmt.Sprintf("`%s` completed", tool), Call: first})
	var after []string
	for i, m := range s.ModelCalls() {
		if m.StartedMs <= first.TimestampMs {
			continue
		}
		after = append(after, modelRef(m, i))
		if len(r.Evidence) < maxEvidence {
			r.Evidence = append(r.Evidence, modelEvidence(fmt.Sprintf("started %d ms after `%s` completed", m.StartedMs-first.TimestampMs, tool), m, i))
		}
	}
	r.Observed = plural.Count(len(after), "model call") + " after it"
	if len(after) == 0 {
		r.set(status.Pass, "no model call started in %s after %s (`%s`) completed", s.Name, callRef(first), tool)
		return
	}
	r.set(status.Fail, "%s: the agent called its model after %s (`%s`) completed: %s", s.Name, callRef(first), tool, strings.Join(shortList(after), ", "))
}

// isTool reports whether c is a call of tool: by its name, or by the
// double that served it.
func isTool(c *trace.ToolCall, tool string) bool {
	return c.Name == tool || (c.Served != nil && c.Served.Tool == tool)
}
