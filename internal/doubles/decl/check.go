package decl

import (
	"maps"
	"slices"
	"strings"

	"github.com/ananke/action/internal/diag"
)

// Check checks a test's plan against the config's doubles, reporting at
// each answer's place a tool the config does not declare and a result
// that does not match its tool's output schema. c is nil when the config
// declares no doubles; p is nil when the test answers none.
func Check(c *Config, p *Plan, diags *diag.Diagnostics) {
	if p == nil {
		return
	}
	levels := []Answers{p.Test}
	for _, i := range slices.Sorted(maps.Keys(p.Turns)) {
		levels = append(levels, p.Turns[i])
	}
	for _, answers := range levels {
		for _, name := range slices.Sorted(maps.Keys(answers)) {
			a := answers[name]
			t := c.Tool(name)
			switch {
			case c == nil:
				diags.Add(a.key, "%s: the config declares no doubles; declare the tool under doubles.tools in the config first", a.what)
			case t == nil:
				diags.Add(a.key, "%s: tool %q is not declared in the config's doubles.tools%s", a.what, name, closestOr(name, c.Names()))
			default:
				checkAnswer(t, a, diags)
			}
		}
	}
}

// checkAnswer checks every result of an answer that is not an error
// against its tool's output schema.
func checkAnswer(t *Tool, a *Answer, diags *diag.Diagnostics) {
	if t.output == nil {
		return
	}
	replies := []*Reply{a.Reply}
	for _, m := range a.Match {
		replies = append(replies, m.Reply)
	}
	for _, r := range replies {
		if r == nil || r.Result == nil || r.IsError || r.Fault != "" {
			continue
		}
		checkResult(t.output, r, r.what, t.Name, diags)
	}
}

// closestOr suggests a close name, or lists the declared ones.
func closestOr(got string, known []string) string {
	if s := closest(got, known); s != "" {
		return s
	}
	return " (declared: " + strings.Join(known, ", ") + ")"
}
