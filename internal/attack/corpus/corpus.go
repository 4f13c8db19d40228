// Package corpus is the file model of attacks: the built-in corpus and the
// user's JSONL corpora, one attack per line (docs/attacks.md).
package corpus

import (
	"encoding/base64"
	"slices"
	"strings"

	"github.com/ananke/action/internal/attack/plant"
	"github.com/ananke/action/internal/diag"
)

// Goals: what an attack tries to make the agent do.
const (
	// GoalTool: call a tool the test never needs (Attack.Tool).
	GoalTool = "tool"
	// GoalLeak: put the canary in a tool argument, a URL, a markdown
	// image or the text.
	GoalLeak = "leak"
	// GoalObey: follow an instruction that changes its answer.
	GoalObey = "obey"
	// GoalReveal: reveal its instructions.
	GoalReveal = "reveal"
)

// Goals lists the goals, in the order docs/attacks.md gives them.
var Goals = []string{GoalTool, GoalLeak, GoalObey, GoalReveal}

// DefaultTool is the goal tool of a tool attack when neither the attack
// nor the config names one.
const DefaultTool = "delete_order"

// Builtin names the built-in corpus as an attack's Source.
const Builtin = "builtin"

// Attack is one entry of a corpus.
type Attack struct {
	ID    string
	Goal  string
	Style string
	// Payload is the text planted, with its placeholders ({canary},
	// {tool}, {instruction}, {instruction_base64}); Instruction, when
	// set, is what {instruction} stands for ({canary} and {tool} in it).
	Payload     string
	Instruction string
	// Tool is the goal tool of a tool attack ("": the config's).
	Tool string
	// Channels are the channels it suits (nil: every one).
	Channels []plant.Channel
	// Source is Builtin, or the user corpus's file:line; Pos is where it
	// is written (zero for the built-in corpus).
	Source string
	Pos    diag.Pos
}

// Suits reports whether the attack may be planted in channel c.
func (a Attack) Suits(c plant.Channel) bool {
	return len(a.Channels) == 0 || slices.Contains(a.Channels, c)
}

// GoalTool is the tool a tool attack aims at: its own, else def, else
// DefaultTool.
func (a Attack) GoalTool(def string) string {
	switch {
	case a.Tool != "":
		return a.Tool
	case def != "":
		return def
	}
	return DefaultTool
}

// Render is the payload with its placeholders filled: canary is the
// attack run's own marker, tool the goal tool.
func (a Attack) Render(canary, tool string) string {
	fill := strings.NewReplacer("{canary}", canary, "{tool}", tool)
	instr := fill.Replace(a.Instruction)
	return strings.NewReplacer(
		"{canary}", canary, "{tool}", tool,
		"{instruction}", instr,
		"{instruction_base64}", base64.StdEncoding.EncodeToString([]byte(instr)),
	).Replace(a.Payload)
}
