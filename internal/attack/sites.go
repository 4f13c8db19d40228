package attack

import (
	"slices"
	"sort"
	"strconv"

	"github.com/ananke/action/internal/attack/plant"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/spec"
)

// Site is one place of a test an attack's payload can be planted: a
// channel, the place within it (plant.Plant's Site) and where the test's
// files write that place.
type Site struct {
	Channel plant.Channel
	Site    string
	Pos     diag.Pos
}

// Sites are the channel sites test t offers under config cfg, in the
// channels' order (plant.Channels), each channel's in the order the files
// write them (docs/attacks.md, "Channels"). A skipped test and one that
// reads a recorded session (source:) offer none: no agent reads them.
func Sites(t *spec.Test, cfg *spec.Config) []Site {
	if t == nil || t.Skip != "" || t.Source != nil {
		return nil
	}
	var out []Site
	for _, tool := range t.Tools {
		out = append(out, Site{plant.ToolResult, tool.Name.Value, tool.Pos})
	}
	out = append(out, doubleSites(t, cfg)...)
	out = append(out, attachmentSites(t)...)
	if i := lastSpoken(t.History); i >= 0 {
		out = append(out, Site{plant.History, strconv.Itoa(i), t.History[i].Pos})
	}
	if cfg != nil && cfg.Target.Type == spec.TargetAGUI && !cfg.Target.State.IsZero() {
		out = append(out, Site{plant.State, "state", statePos(cfg)})
	}
	if t.Simulator != nil {
		out = append(out, Site{plant.Simulator, "", t.Simulator.Pos})
	}
	if turn := firstUserTurn(t); turn != nil {
		out = append(out, Site{plant.User, "", turn.Pos})
	}
	return out
}

// firstUserTurn is the test's first turn that sends a user message (user
// or a2a:send) with text, the one the user channel appends to; nil when
// it has none.
func firstUserTurn(t *spec.Test) *spec.Turn {
	for i := range t.Turns {
		if typ := t.Turns[i].Type; (typ == spec.TurnUser || typ == spec.TurnA2ASend) && t.Turns[i].User.Raw != "" {
			return &t.Turns[i]
		}
	}
	return nil
}

// doubleSites are the tool doubles the test reaches: those its own
// answers name (the test's and its turns'), else, when it uses the
// backend, every tool of the config that has a default answer. A test
// that does not use the backend reaches none.
func doubleSites(t *spec.Test, cfg *spec.Config) []Site {
	if cfg == nil || cfg.Doubles == nil || !t.UsesBackend(cfg) {
		return nil
	}
	if own := answered(t); len(own) > 0 {
		names := make([]string, 0, len(own))
		for name := range own {
			names = append(names, name)
		}
		// The config's order, then any other name (decl.Check reports
		// it) alphabetically.
		declared := cfg.Doubles.Names()
		sort.Slice(names, func(i, j int) bool {
			a, b := slices.Index(declared, names[i]), slices.Index(declared, names[j])
			switch {
			case a >= 0 && b >= 0:
				return a < b
			case a >= 0 || b >= 0:
				return a >= 0
			}
			return names[i] < names[j]
		})
		out := make([]Site, len(names))
		for i, name := range names {
			out[i] = Site{plant.Double, name, own[name]}
		}
		return out
	}
	var out []Site
	for _, tool := range cfg.Doubles.Tools {
		if tool.Answer != nil {
			out = append(out, Site{plant.Double, tool.Name, tool.Pos})
		}
	}
	return out
}

// answered maps each tool the test's own doubles answers name to where
// it is answered first: the test's answer, else its earliest turn's.
func answered(t *spec.Test) map[string]diag.Pos {
	p := t.Doubles
	if p == nil {
		return nil
	}
	out := map[string]diag.Pos{}
	for name, a := range p.Test {
		out[name] = a.Pos
	}
	turns := make([]int, 0, len(p.Turns))
	for i := range p.Turns {
		turns = append(turns, i)
	}
	sort.Ints(turns)
	for _, i := range turns {
		for name, a := range p.Turns[i] {
			if _, ok := out[name]; !ok {
				out[name] = a.Pos
			}
		}
	}
	return out
}

// attachmentSites are the textual files the test attaches, in its
// history or its turns, each once (by name), at its first part.
func attachmentSites(t *spec.Test) []Site {
	var out []Site
	add := func(parts []spec.Part) {
		for _, p := range parts {
			f := p.File
			if f == nil || !plant.Textual(f.MIME) || slices.ContainsFunc(out, func(s Site) bool { return s.Site == f.Name }) {
				continue
			}
			out = append(out, Site{plant.Attachment, f.Name, p.Pos})
		}
	}
	for _, m := range t.History {
		add(m.Parts)
	}
	for _, turn := range t.Turns {
		add(turn.Parts)
	}
	return out
}

// lastSpoken is the index of the last history message of the user or the
// assistant (-1: none), the one the history channel plants in.
func lastSpoken(h []spec.Message) int {
	for i := len(h) - 1; i >= 0; i-- {
		if h[i].Role == "user" || h[i].Role == "assistant" {
			return i
		}
	}
	return -1
}

// statePos is where the config writes target.state: the value's
// position, else the target's.
func statePos(cfg *spec.Config) diag.Pos {
	if p := cfg.Target.State.Pos; p.IsValid() {
		return p
	}
	return cfg.Target.Pos
}
