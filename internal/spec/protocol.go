package spec

import (
	"slices"
	"strings"

	"github.com/ananke/action/internal/diag"
)

// checkProtocols reports what a test asks of its target that the target's
// protocol cannot do: a turn type of another protocol ("turn type mcp:call
// needs an mcp target; the config's target is agui"), and on targets other
// than AG-UI and openai, client tools; on an MCP server, which plays only mcp:* turns,
// also history and a simulated user.
func checkProtocols(cfg *Config, tests []*Test, diags *diag.Diagnostics) {
	typ := cfg.Target.Type
	plays, ok := TurnTargets[typ]
	if !ok {
		return // no target, or one already reported
	}
	for _, t := range tests {
		if t.Source != nil {
			continue
		}
		for _, turn := range t.Turns {
			if slices.Contains(plays, turn.Type) {
				continue
			}
			at := turn.typePos
			if !at.IsValid() {
				at = turn.Pos
			}
			diags.Add(at, "turn type %s needs %s target; the config's target is %s%s", turn.Type, targetsPlaying(turn.Type), typ, playsHint(typ))
		}
		checkHTTP(cfg, t, diags)
		if !slices.Contains(clientToolTargets, typ) {
			for _, ct := range t.Tools {
				diags.Add(ct.Pos, "client tools need an agui or openai target; the config's target is %s", typ)
			}
		}
		if typ != TargetMCP {
			continue
		}
		for _, m := range t.History {
			diags.Add(m.Pos, "history needs an agui or a2a target; an mcp server holds no conversation")
		}
		if t.Simulator != nil {
			diags.Add(t.Simulator.Pos, "a simulated user needs an agui or a2a target; an mcp server plays only mcp:call and mcp:list_tools turns")
		}
	}
}

// clientToolTargets are the target types that answer client tools.
var clientToolTargets = []string{TargetAGUI, TargetOpenAI}

// targetsPlaying names the target types that play a turn type: "an mcp",
// "an agui or a2a".
func targetsPlaying(turn string) string {
	var types []string
	for _, typ := range TargetTypes {
		if slices.Contains(TurnTargets[typ], turn) {
			types = append(types, typ)
		}
	}
	return "an " + orList(types)
}

// orList joins names as a sentence does: "a", "a or b", "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// playsHint adds, for an MCP target, the turns it plays.
func playsHint(typ string) string {
	if typ != TargetMCP {
		return ""
	}
	return " (it plays mcp:call and mcp:list_tools turns)"
}
