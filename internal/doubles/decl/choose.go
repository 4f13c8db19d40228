package decl

import (
	"encoding/json"
	"math/big"
	"strconv"

	"github.com/ananke/action/internal/attack/plant"
)

// Choice is the reply chosen for one call, and which answer gave it.
type Choice struct {
	// Reply is nil when no answer applies: the tool is unanswered.
	Reply *Reply
	// Label names the answer for the trace (trace.Served.Answer):
	// "turn[1]", "turn[1].match[0]", "test", "test.match[2]", "config",
	// "config.match[0]".
	Label string
}

// Choose picks the reply to a call of tool with args (the JSON of the
// call's arguments; nil for none) made in turn turn of a test whose plan is p:
// the turn's answer, else the test's, else the config's default. Within
// an answer, the first match entry whose args the call's contain wins,
// else the answer's own reply; an answer with neither for this call
// leaves it to the next. When p is an attack run's that plants in the
// tool's double (plant.Double), the reply's result carries the payload
// (plant.Into): a copy, so the config and the test keep what they hold,
// as checked against the tool's schemas; a fault stays as it is.
func (c *Config) Choose(p *Plan, turn int, tool string, rawArgs json.RawMessage) Choice {
	ch := c.choose(p, turn, tool, rawArgs)
	if r := ch.Reply; r != nil && r.Fault == "" && p != nil && p.Plant.At(plant.Double, tool) {
		planted := *r
		planted.Result = p.Plant.JSON(plant.Double, tool, r.Result)
		ch.Reply = &planted
	}
	return ch
}

// choose is Choose without the attack run's payload.
func (c *Config) choose(p *Plan, turn int, tool string, rawArgs json.RawMessage) Choice {
	args, _ := decodeJSON(rawArgs).(map[string]any)
	type level struct {
		a     *Answer
		label string
	}
	var levels []level
	if p != nil {
		if a := p.Turns[turn][tool]; a != nil {
			levels = append(levels, level{a, "turn[" + strconv.Itoa(turn) + "]"})
		}
		if a := p.Test[tool]; a != nil {
			levels = append(levels, level{a, "test"})
		}
	}
	if t := c.Tool(tool); t != nil && t.Answer != nil {
		levels = append(levels, level{t.Answer, "config"})
	}
	for _, l := range levels {
		for j, m := range l.a.Match {
			if contains(args, m.args) {
				return Choice{Reply: m.Reply, Label: l.label + ".match[" + strconv.Itoa(j) + "]"}
			}
		}
		if l.a.Reply != nil {
			return Choice{Reply: l.a.Reply, Label: l.label}
		}
	}
	return Choice{}
}

// contains reports whether the call's arguments hold every key of want
// with a matching value.
func contains(got, want map[string]any) bool {
	for k, w := range want {
		g, ok := got[k]
		if !ok || !matches(g, w) {
			return false
		}
	}
	return true
}

// matches compares a value of the call with the value a match entry
// wants: an object by its keys (the call's may have more), a list item by
// item, a number by its value (1 matches 1.0), anything else equal.
func matches(got, want any) bool {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		return ok && contains(g, w)
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !matches(g[i], w[i]) {
				return false
			}
		}
		return true
	case json.Number:
		g, ok := got.(json.Number)
		return ok && sameNumber(g, w)
	}
	return got == want
}

// sameNumber compares two JSON numbers by value.
func sameNumber(a, b json.Number) bool {
	x, okx := new(big.Rat).SetString(a.String())
	y, oky := new(big.Rat).SetString(b.String())
	if !okx || !oky {
		return a == b
	}
	return x.Cmp(y) == 0
}
