package assertion

import (
	"strconv"

	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

// Level is where an assertion was declared.
type Level string

// Assertion levels, from the widest to the narrowest.
const (
	LevelTarget Level = "target"
	LevelTest   Level = "test"
	LevelTurn   Level = "turn"
)

// Check is one assertion to evaluate over one scope, after the merge of the
// three levels: a kind's payload, with where it comes from.
type Check struct {
	// ID is stable: the scope, the declaring level when it differs from the
	// scope's own, and the path in the block, e.g. "turn[2].tools.require[0]",
	// "turn[0].target.text.must_not_match[1]", "test.timing.max_duration_ms".
	// Entries a block brings in through extends continue its numbering.
	ID       string
	Level    Level
	Kind     Kind
	Pos      diag.Pos
	Severity Severity
	// Payload is the kind's value (bound by BindChecks; as written until
	// then).
	Payload Payload
	// Requires are the capabilities the check needs besides its kind's
	// own (its blocks' requires:); MissingError makes a missing one an
	// error rather than a skip.
	Requires     []string
	MissingError bool
}

// Levels are the blocks that apply to a scope, by level (nil: none).
type Levels struct {
	Target, Test, Turn *Block
}

// TurnChecks returns what is checked right after turn i (docs/files.md,
// "Where each assertion is checked"): every prohibition of every level,
// the nearest budget, the turn's own requirements and duration, and the
// nearest declared turn limits. missingError is the test's policy for a
// capability its trace lacks.
func TurnChecks(i int, lv Levels, missingError bool) []Check {
	levels := []levelBlock{{LevelTarget, lv.Target}, {LevelTest, lv.Test}, {LevelTurn, lv.Turn}}
	g := &generator{scope: "turn[" + strconv.Itoa(i) + "]", own: LevelTurn, missingError: missingError}
	for _, lb := range levels {
		g.role(lb, Prohibition)
	}
	g.nearest(levels, Budget)
	turn := levels[2]
	g.role(turn, Requirement)
	for _, d := range defs {
		if d.Role == Duration {
			if p, it := turn.declares(d, true); p != nil {
				g.add(turn.level, p, d, it)
			}
		}
	}
	g.nearest(levels, TurnLimit)
	return g.done()
}

// TestChecks returns what is checked once all turns are done: the target
// and test prohibitions and requirements over the whole test, the nearest
// budget and the nearest declared duration. Turn-level declarations were
// checked on their turn; lv.Turn is not read.
func TestChecks(lv Levels, missingError bool) []Check {
	levels := []levelBlock{{LevelTarget, lv.Target}, {LevelTest, lv.Test}}
	g := &generator{scope: "test", own: LevelTest, missingError: missingError}
	for _, lb := range levels {
		g.role(lb, Prohibition)
		g.role(lb, Requirement)
	}
	g.nearest(levels, Budget)
	g.nearest(levels, Duration)
	return g.done()
}

// CheckpointChecks returns what a checkpoint's block checks over turn i:
// its prohibitions, requirements and limits, as if declared on that turn.
// scope names it ("turn[3].checkpoints.paid").
func CheckpointChecks(scope string, b *Block, missingError bool) []Check {
	lb := levelBlock{LevelTurn, b}
	g := &generator{scope: scope, own: LevelTurn, missingError: missingError}
	g.role(lb, Prohibition)
	g.role(lb, Requirement)
	levels := []levelBlock{lb}
	g.nearest(levels, Budget)
	g.nearest(levels, Duration)
	g.nearest(levels, TurnLimit)
	return g.done()
}

// levelBlock is a block with the level it was declared at.
type levelBlock struct {
	level Level
	block *Block
}

// parts returns the block's parts: itself and what it extends (resolved
// when the suite loads; a lone block otherwise).
func (lb levelBlock) parts() []blockPart { return lb.block.partsOf() }

// declares returns the first part of lb that sets kind d, and its item
// (nil: none does); with wantActive, the first whose item makes a check.
func (lb levelBlock) declares(d *Def, wantActive bool) (*blockPart, Item) {
	ps := lb.parts()
	for i := range ps {
		for _, it := range ps[i].block.items[d.Kind] {
			if !wantActive || active(it.Payload) {
				return &ps[i], it
			}
		}
	}
	return nil, Item{}
}

// prefix is the ID prefix of a check declared at level in scope.
func prefix(scope string, own, level Level) string {
	if level == own {
		return scope + "."
	}
	return scope + "." + string(level) + "."
}

// generator turns blocks into checks for one scope, numbering the entries
// of each kind across a block's parts.
type generator struct {
	scope        string
	own          Level
	checks       []Check
	next         map[string]int // "<level> <kind>[ <item id>]" → next index
	missingError bool
	// items are the checks of each assertions: item with an id, by the
	// id it gives them ("test.bash-once").
	items map[string][]int
}

// done returns the checks: an item with an id that made one check gives
// it its id alone ("test.bash-once"); one that made several names each
// by its kind ("test.no-leak.text.omits[0]").
func (g *generator) done() []Check {
	for id, idx := range g.items {
		if len(idx) == 1 {
			g.checks[idx[0]].ID = id
		}
	}
	return g.checks
}

// role adds the checks of every kind with role r that lb's parts hold, in
// the order of the parts, then of the kinds (Defs), then as written.
func (g *generator) role(lb levelBlock, r Role) {
	for _, p := range lb.parts() {
		for _, d := range defs {
			if d.Role != r {
				continue
			}
			for _, it := range p.block.items[d.Kind] {
				if active(it.Payload) {
					g.add(lb.level, &p, d, it)
				}
			}
		}
	}
}

// nearest adds, for each kind with role r, the check of the narrowest
// level that declares it, unless that level disables it (false).
func (g *generator) nearest(levels []levelBlock, r Role) {
	for _, d := range defs {
		if d.Role != r {
			continue
		}
		for j := len(levels) - 1; j >= 0; j-- {
			p, it := levels[j].declares(d, false)
			if p == nil {
				continue
			}
			if active(it.Payload) {
				g.add(levels[j].level, p, d, it)
			}
			break
		}
	}
}

func (g *generator) add(level Level, p *blockPart, d *Def, it Item) {
	pre := prefix(g.scope, g.own, level)
	id, key := pre+string(d.Kind), string(level)+" "+string(d.Kind)
	if p.id != "" {
		// An item's checks are named by its id, numbered on their own.
		id, key = pre+p.id+"."+string(d.Kind), key+" "+p.id
		if g.items == nil {
			g.items = map[string][]int{}
		}
		g.items[pre+p.id] = append(g.items[pre+p.id], len(g.checks))
	}
	if !d.Single {
		if g.next == nil {
			g.next = map[string]int{}
		}
		id += "[" + strconv.Itoa(g.next[key]) + "]"
		g.next[key]++
	}
	sev := it.Severity
	if sev == "" {
		sev = p.severity
	}
	g.checks = append(g.checks, Check{ID: id, Level: level, Kind: d.Kind, Pos: it.Pos, Severity: sev,
		Payload: it.Payload, Requires: p.requires, MissingError: g.missingError})
}

// BindChecks resolves the variable references of every check, returning
// copies.
func BindChecks(checks []Check, v *vars.Vars) ([]Check, error) {
	out := make([]Check, len(checks))
	for i, c := range checks {
		if c.Payload != nil {
			p, err := c.Payload.Bind(v)
			if err != nil {
				return nil, err
			}
			c.Payload = p
		}
		out[i] = c
	}
	return out, nil
}
