package registry

import (
	"encoding/json"
	"strings"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/attack/plant"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/vars"
)

// clientTool is a client tool of the test, resolved: what a session
// declares to the agent, and how Ananke answers the agent's calls of it
// (docs/files.md, client tools). Every protocol with client tools (AG-UI,
// openai) declares and answers them alike.
type clientTool struct {
	Name, Description string
	// Parameters is the tool's JSON Schema (an empty object schema when
	// the test gives none).
	Parameters json.RawMessage
	// Answer is the result for a call's arguments, or false when none
	// matches.
	Answer func(args string) (string, bool)
}

// clientTools resolves the test's client tools, in the test's order.
func clientTools(a *engine.Setup) []clientTool {
	var out []clientTool
	for _, ct := range a.Test.Tools {
		out = append(out, clientTool{Name: ct.Name.Value, Description: a.Str(ct.Description),
			Parameters: a.JSON(ct.Parameters, `{"type":"object","properties":{}}`), Answer: answer(a, ct)})
	}
	return out
}

// answer is how Ananke answers client tool ct: its result, or the result
// of the first results entry whose args_match all match the call's
// arguments (false when none does). An attack run's payload is planted in
// each (plant.ToolResult).
func answer(a *engine.Setup, ct spec.ClientTool) func(args string) (string, bool) {
	name := ct.Name.Value
	result := func(v vars.Value) string { return plantResult(a.Test.Attack, name, a.Text(v)) }
	if ct.Result != nil {
		s := result(*ct.Result)
		return func(string) (string, bool) { return s, true }
	}
	type entry struct {
		args   []assertion.ArgMatch
		result string
	}
	var entries []entry
	for _, re := range ct.Results {
		entries = append(entries, entry{args: a.Args(re.ArgsMatch), result: result(re.Result)})
	}
	return func(args string) (string, bool) {
		for _, e := range entries {
			if assertion.ArgsMatch(args, e.args) {
				return e.result, true
			}
		}
		return "", false
	}
}

// plantResult is client tool name's answer s with an attack run's payload
// planted, when p plants there: into the JSON of an object or an array
// (plant.Into), appended to any other text — a scalar's JSON text too,
// which the agent reads as text.
func plantResult(p *plant.Plant, name, s string) string {
	if !p.At(plant.ToolResult, name) {
		return s
	}
	if t := strings.TrimSpace(s); t != "" && (t[0] == '{' || t[0] == '[') && json.Valid([]byte(t)) {
		return string(p.JSON(plant.ToolResult, name, json.RawMessage(t)))
	}
	return p.Text(plant.ToolResult, name, s)
}
