package assertion

import (
	"fmt"

	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// agentMismatch says why call c fails an entry's agent filter, or "": the
// call must have been made by the sub-agent named (its name, or its run
// id), not by the main agent or another sub-agent.
func agentMismatch(c *trace.ToolCall, agent *vars.Name) string {
	switch {
	case agent == nil, c.Agent == agent.Value, c.SubagentRunID != "" && c.SubagentRunID == agent.Value:
		return ""
	case c.Agent == "":
		return fmt.Sprintf("agent `%s`: the main agent made it", agent.Value)
	}
	return fmt.Sprintf("agent `%s`: sub-agent %s made it", agent.Value, c.Agent)
}

// agentPart describes an entry's agent filter, for messages.
func agentPart(agent *vars.Name) []string {
	if agent == nil {
		return nil
	}
	return []string{fmt.Sprintf("agent `%s`", agent.Value)}
}
