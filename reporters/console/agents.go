package console

import (
	"fmt"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
)

// A turn's reasoning and sub-agent runs, as lines of the -v tree and the
// transcript: `reasoning "The user wants…"`, `subagent researcher (run
// sa-1) finished, 1 call`.

// reasoningLine is the turn's reasoning on one line ("": none).
func reasoningLine(turn *report.Turn) string {
	if turn.Reasoning == "" {
		return ""
	}
	return "reasoning " + clean(quote(turn.Reasoning, 100))
}

// subagentLines describe the turn's sub-agent runs, one each.
func subagentLines(turn *report.Turn) []string {
	var out []string
	for _, s := range turn.Subagents {
		calls := 0
		for i := range turn.ToolCalls {
			if turn.ToolCalls[i].SubagentRunID == s.RunID {
				calls++
			}
		}
		line := fmt.Sprintf("subagent %s (run %s) %s, %s", s.Name, s.RunID, s.Status, plural.Count(calls, "call"))
		if s.Error != "" {
			line += ": " + s.Error
		}
		out = append(out, clean(line))
	}
	return out
}
