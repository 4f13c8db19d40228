package spec

import (
	"math"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

// Defaults of a dynamic test.
const (
	DefaultMaxTurns         = 10
	DefaultSimulatorTimeout = 120_000
	// MaxSimulatedTurns bounds max_turns: each turn costs a model call and
	// an agent run.
	MaxSimulatedTurns = 100
)

// Simulator is the simulated user of a dynamic test
// (docs/models.md): the config's model writes each next user message, told who it
// is and what it wants, until the checkpoints are reached.
type Simulator struct {
	Pos          diag.Pos
	Persona      vars.Template
	Goal         vars.Template
	Instructions vars.Template
}

// Checkpoint is something a dynamic test must see happen: reached at the
// first turn whose reply passes its block, once every checkpoint in After
// was reached at that turn or before.
type Checkpoint struct {
	Pos         diag.Pos
	ID          vars.Name
	Description string
	After       []vars.Name
	Assert      *assertion.Block
}

// How a dynamic test answers the interrupts its agent ends a run with
// (on_interrupt; docs/files.md, "Interrupts").
const (
	OnInterruptError     = "error"     // the test errors, naming them
	OnInterruptApprove   = "approve"   // approve them all
	OnInterruptReject    = "reject"    // reject them all
	OnInterruptSimulator = "simulator" // the simulated user decides, one by one
)

// OnInterrupts lists on_interrupt's values, the default first.
var OnInterrupts = []string{OnInterruptError, OnInterruptApprove, OnInterruptReject, OnInterruptSimulator}

var (
	simulatorFields  = []string{"persona", "goal", "instructions"}
	checkpointFields = []string{"id", "description", "after", "assert"}
)

func (l *loader) simulator(n *yaml.Node) *Simulator {
	f, ok := l.Fields(n, "simulator", simulatorFields)
	if !ok {
		return nil
	}
	s := &Simulator{Pos: l.Pos(l.DerefQuiet(n))}
	l.Require(n, f, "simulator", "goal")
	for key, dst := range map[string]*vars.Template{"persona": &s.Persona, "goal": &s.Goal, "instructions": &s.Instructions} {
		if p, ok := f[key]; ok {
			*dst, _ = l.Template(p.Val, "simulator."+key)
		}
	}
	return s
}

// dynamic reads the fields of a dynamic test: simulator, max_turns,
// timeout_ms and checkpoints. Without a simulator the others are errors.
func (l *loader) dynamic(f map[string]decode.Pair, doc *yaml.Node, t *Test) {
	t.MaxTurns, t.SimulatorTimeoutMs = DefaultMaxTurns, DefaultSimulatorTimeout
	p, hasSim := f["simulator"]
	if hasSim {
		t.Simulator = l.simulator(p.Val)
	}
	for _, key := range []string{"max_turns", "timeout_ms", "checkpoints", "on_interrupt"} {
		if p, ok := f[key]; ok && !hasSim {
			l.Errorf(p.Key, "%s belongs to a dynamic test: add a simulator, or remove it", key)
		}
	}
	if p, ok := f["max_turns"]; ok {
		v, _ := l.Integer(p.Val, "max_turns", 1, MaxSimulatedTurns)
		t.MaxTurns = int(v)
	}
	if p, ok := f["timeout_ms"]; ok {
		t.SimulatorTimeoutMs, _ = l.Integer(p.Val, "timeout_ms", 1, math.MaxInt64)
	}
	if p, ok := f["checkpoints"]; ok {
		t.Checkpoints = l.checkpoints(p.Val)
	}
	t.OnInterrupt = OnInterruptError
	if p, ok := f["on_interrupt"]; ok {
		if s, node, ok := l.Text(p.Val, "on_interrupt"); ok {
			if !slices.Contains(OnInterrupts, s) {
				l.Errorf(node, "on_interrupt %q is not one of %s", s, strings.Join(OnInterrupts, ", "))
			}
			t.OnInterrupt = s
		}
	}
	if hasSim && t.Simulator != nil && len(t.Checkpoints) == 0 {
		l.Errorf(p.Key, "a simulator needs checkpoints: the test passes when every checkpoint is reached")
	}
}

func (l *loader) checkpoints(n *yaml.Node) []Checkpoint {
	items, ok := l.List(n, "checkpoints")
	if !ok {
		return nil
	}
	var out []Checkpoint
	ids := map[string]diag.Pos{}
	for i, item := range items {
		what := decode.Index("checkpoints", i)
		known := checkpointFields
		if l.dataset {
			known = append(slices.Clone(known), "assertion", "assertions")
		}
		f, ok := l.Fields(item, what, known)
		if !ok {
			continue
		}
		c := Checkpoint{Pos: l.Pos(l.DerefQuiet(item))}
		l.checkpointAssert(item, f, what, &c)
		if p, ok := f["id"]; ok {
			if c.ID, ok = l.Name(p.Val, what+".id"); ok {
				if first, dup := ids[c.ID.Value]; dup {
					l.Diags.Add(c.ID.Pos, "%s: checkpoint %q is declared twice (first at line %d)", what, c.ID.Value, first.Line)
				}
				ids[c.ID.Value] = c.ID.Pos
			}
		}
		if p, ok := f["description"]; ok {
			c.Description, _, _ = l.Text(p.Val, what+".description")
		}
		if p, ok := f["after"]; ok {
			items, _ := l.OneOrList(p.Val, what+".after")
			for j, a := range items {
				if name, ok := l.Name(a, decode.Index(what+".after", j)); ok {
					c.After = append(c.After, name)
				}
			}
		}
		out = append(out, c)
	}
	l.checkAfter(out, ids)
	return out
}

// checkpointAssert reads what a checkpoint checks: its assert block or,
// in a dataset, one vocabulary item (assertion) or a list (assertions).
func (l *loader) checkpointAssert(item *yaml.Node, f map[string]decode.Pair, what string, c *Checkpoint) {
	var set []string
	for _, k := range []string{"assert", "assertion", "assertions"} {
		if _, ok := f[k]; ok {
			set = append(set, k)
		}
	}
	switch {
	case len(set) == 0:
		l.Require(item, f, what, "assert")
		return
	case len(set) > 1:
		l.Errorf(f[set[1]].Key, "%s: set one of %s", what, strings.Join(set, ", "))
		return
	}
	p := f[set[0]]
	switch set[0] {
	case "assert":
		c.Assert = assertion.ReadBlock(l.Decoder, p.Val, what+".assert")
	case "assertion":
		c.Assert = assertion.ReadAssertion(l.Decoder, p.Val, what+".assertion")
	default:
		c.Assert = assertion.ReadVocabulary(l.Decoder, p.Val, what+".assertions")
	}
}

// checkAfter reports after entries naming no checkpoint, a checkpoint
// itself, or a cycle.
func (l *loader) checkAfter(cps []Checkpoint, ids map[string]diag.Pos) {
	byID := map[string]*Checkpoint{}
	for i := range cps {
		byID[cps[i].ID.Value] = &cps[i]
	}
	for _, c := range cps {
		for _, a := range c.After {
			switch _, known := ids[a.Value]; {
			case a.Value == c.ID.Value:
				l.Diags.Add(a.Pos, "checkpoint %q cannot come after itself", c.ID.Value)
			case !known:
				var names []string
				for id := range ids {
					names = append(names, id)
				}
				slices.Sort(names)
				l.Diags.Add(a.Pos, "after: unknown checkpoint %q (checkpoints: %s)", a.Value, strings.Join(names, ", "))
			}
		}
	}
	// A cycle: following after from a checkpoint comes back to it. Each
	// cycle is reported once, at its first member in the file.
	reported := map[string]bool{}
	for _, c := range cps {
		cyc := cycleThrough(c.ID.Value, byID)
		if cyc == nil {
			continue
		}
		members := slices.Clone(cyc[:len(cyc)-1])
		slices.Sort(members)
		if key := strings.Join(members, " "); !reported[key] {
			reported[key] = true
			l.Diags.Add(c.ID.Pos, "checkpoints wait for each other: %s", strings.Join(cyc, " after "))
		}
	}
}

// cycleThrough returns a path of after links from id back to id, or nil.
func cycleThrough(id string, byID map[string]*Checkpoint) []string {
	var walk func(cur string, path []string, seen map[string]bool) []string
	walk = func(cur string, path []string, seen map[string]bool) []string {
		c := byID[cur]
		if c == nil {
			return nil
		}
		for _, a := range c.After {
			switch {
			case a.Value == id && cur != id || a.Value == id && len(path) > 1:
				return append(slices.Clone(path), id)
			case a.Value == cur || seen[a.Value]:
				continue
			}
			seen[a.Value] = true
			if cyc := walk(a.Value, append(path, a.Value), seen); cyc != nil {
				return cyc
			}
		}
		return nil
	}
	return walk(id, []string{id}, map[string]bool{id: true})
}
