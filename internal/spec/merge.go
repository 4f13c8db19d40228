package spec

import (
	"encoding/json"
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

// Kind names an assertion kind as written in an AssertBlock.
type Kind string

// Assertion kinds.
const (
	KindForbid           Kind = "tools.forbid"
	KindRequire          Kind = "tools.require"
	KindForbidCalls      Kind = "tools.forbid_calls"
	KindOrder            Kind = "tools.order"
	KindMaxCalls         Kind = "tools.max_calls"
	KindStopAfterSuccess Kind = "tools.stop_after_success"
	KindMaxDuration      Kind = "timing.max_duration_ms"
	KindMaxIdle          Kind = "timing.max_idle_ms"
	KindMaxFirstEvent    Kind = "timing.max_first_event_ms"
	KindMaxFirstText     Kind = "timing.max_first_text_ms"
	KindMustMatch        Kind = "text.must_match"
	KindMustNotMatch     Kind = "text.must_not_match"
	KindContains         Kind = "text.contains"
	KindOmits            Kind = "text.omits"
	KindEquals           Kind = "text.equals"
	KindJSONSchema       Kind = "text.json_schema"
	KindJSONPath         Kind = "text.json_path"
	KindGrounded         Kind = "grounded"
	KindState            Kind = "state"
	KindMemoryReads      Kind = "memory.reads"
	KindMemoryWrites     Kind = "memory.writes"
	KindMemoryForbid     Kind = "memory.forbid"
	KindTaskRuns         Kind = "scheduler.task_runs"
	KindOutbound         Kind = "scheduler.outbound"
	// KindJudge is evaluated by a model, after the deterministic kinds.
	KindJudge Kind = "judge"
	// KindScript is evaluated by a command the user wrote.
	KindScript Kind = "script"
)

// kinds are the kinds of the assert blocks' checks, and the names the
// engine gives its own results (a run error, a protocol check, an after
// hook, a dynamic test's checkpoints): the ids of checks are made of them.
var kinds = []Kind{KindForbid, KindRequire, KindForbidCalls, KindOrder, KindMaxCalls, KindStopAfterSuccess,
	KindMaxDuration, KindMaxIdle, KindMaxFirstEvent, KindMaxFirstText, KindMustMatch, KindMustNotMatch,
	KindContains, KindOmits, KindEquals, KindJSONSchema, KindJSONPath, KindGrounded, KindState,
	KindMemoryReads, KindMemoryWrites, KindMemoryForbid, KindTaskRuns, KindOutbound, KindJudge, KindScript,
	KindResultMatch, KindResultNotMatch, KindResultJSONPath, KindResultIsError, KindResultMaxDuration,
	KindToolsListInclude, KindToolsListExclude, KindToolsListValidSchemas,
	"run_error", "protocol", "client_tools", "after_hook", "after", "checkpoints"}

// Check is one assertion to evaluate over one scope, after the merge of the
// three levels. Exactly one of the kind-specific fields is set.
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

	Tool       vars.Name   // KindForbid
	Require    *Require    // KindRequire
	ForbidCall *CallFilter // KindForbidCalls, KindStopAfterSuccess
	LimitMs    int64       // KindMaxDuration, KindMaxIdle, KindMaxFirst*; calls for KindMaxCalls
	Regex      *vars.Regex // KindMustMatch, KindMustNotMatch
	Tools      []vars.Name // KindOrder
	Text       *TextCheck  // KindContains, KindOmits, KindEquals
	Schema     *JSONSchema // KindJSONSchema
	Path       *JSONPathCheck
	Grounded   *Grounded
	State      *StateCheck
	Judge      *JudgeCheck
	Script     *ScriptCheck
	Memory     *MemoryEntry // KindMemory*
	Counted    *Counted     // KindTaskRuns, KindOutbound
	// Flag is what KindResultIsError expects: true, an error result.
	Flag bool
	// Requires are the capabilities the check needs besides its kind's
	// own (its blocks' requires:); MissingError makes a missing one an
	// error rather than a skip.
	Requires     []string
	MissingError bool
	// Equals is the bound JSON value of a json_path or state check's
	// equals (nil: unset, or not bound yet).
	Equals json.RawMessage
}

// JudgeCheck is a judge with its criteria resolved (BindChecks; as
// written until then).
type JudgeCheck struct {
	Judge    *Judge
	Criteria []string
}

// ScriptCheck is a script with its command resolved (BindChecks; as
// written until then).
type ScriptCheck struct {
	Script *Script
	Argv   []string
}

// TextCheck is a literal text check: contains, omits or equals.
type TextCheck struct {
	Value         vars.Template
	CaseSensitive bool
	// Text is Value resolved (BindChecks); Value.Raw until then.
	Text string
}

// levelBlock is a block with the level it was declared at.
type levelBlock struct {
	level Level
	block *Block
}

// parts returns the block's parts: itself and what it extends (resolved
// when the suite loads; a lone block otherwise).
func (lb levelBlock) parts() []blockPart {
	b := lb.block
	if b == nil {
		return nil
	}
	if b.parts != nil {
		return b.parts
	}
	sev := b.Severity
	if sev == "" {
		sev = Critical
	}
	return []blockPart{{block: b, severity: sev, requires: b.Requires}}
}

// declares returns the part of lb that sets a single-valued field, or nil.
func (lb levelBlock) declares(set func(*Block) bool) *blockPart {
	ps := lb.parts()
	for i := range ps {
		if set(ps[i].block) {
			return &ps[i]
		}
	}
	return nil
}

// TurnChecks returns what is checked right after turn i of test t (design
// §4.1, docs/files.md): every prohibition of every level (forbid,
// forbid_calls, must_not_match, omits, stop_after_success, grounded; the
// nearest max_calls), the turn's own requirements (require, order,
// must_match, contains, equals, json_schema, json_path, state, result,
// tools_list) and
// duration, and the nearest declared idle, first-event and first-text
// limits.
//
// A turn beyond the scripted ones (a simulated turn of a dynamic test) has
// no block of its own: the target's and the test's apply.
func TurnChecks(cfg *Config, t *Test, i int) []Check {
	scope := "turn[" + strconv.Itoa(i) + "]"
	var own *Block
	if i < len(t.Turns) {
		own = t.Turns[i].Assert
	}
	levels := []levelBlock{{LevelTarget, cfg.Target.Assert}, {LevelTest, t.Assert}, {LevelTurn, own}}
	g := &generator{scope: scope, own: LevelTurn, missingError: missingError(cfg, t)}
	for _, lb := range levels {
		g.prohibitions(lb)
	}
	g.nearest(levels, KindMaxCalls, func(b *Block) Limit { return b.MaxCalls })
	turn := levels[2]
	g.requirements(turn)
	if p := turn.declares(func(b *Block) bool { return b.MaxDurationMs.Active() }); p != nil {
		g.limit(turn.level, p, KindMaxDuration, p.block.MaxDurationMs)
	}
	g.nearest(levels, KindMaxIdle, func(b *Block) Limit { return b.MaxIdleMs })
	g.nearest(levels, KindMaxFirstEvent, func(b *Block) Limit { return b.MaxFirstEventMs })
	g.nearest(levels, KindMaxFirstText, func(b *Block) Limit { return b.MaxFirstTextMs })
	return g.done()
}

// TestChecks returns what is checked once all turns are done: the target
// and test prohibitions and requirements over the whole test, the nearest
// max_calls, and the nearest declared max_duration_ms over the test's
// duration. Turn-level declarations were checked on their turn.
//
// A test with a source asserts on a run of another runtime: the target's
// assertions, which are about the target, do not apply to it.
func TestChecks(cfg *Config, t *Test) []Check {
	levels := []levelBlock{{LevelTarget, cfg.Target.Assert}, {LevelTest, t.Assert}}
	if t.Source != nil {
		levels = levels[1:]
	}
	g := &generator{scope: "test", own: LevelTest, missingError: missingError(cfg, t)}
	for _, lb := range levels {
		g.prohibitions(lb)
		g.requirements(lb)
	}
	g.nearest(levels, KindMaxCalls, func(b *Block) Limit { return b.MaxCalls })
	g.nearest(levels, KindMaxDuration, func(b *Block) Limit { return b.MaxDurationMs })
	return g.done()
}

// CheckpointChecks returns what checkpoint c of test t checks over turn i:
// its block's prohibitions, requirements and limits, as if declared on that
// turn.
func CheckpointChecks(cfg *Config, t *Test, c *Checkpoint, i int) []Check {
	lb := levelBlock{LevelTurn, c.Assert}
	g := &generator{scope: "turn[" + strconv.Itoa(i) + "].checkpoints." + c.ID.Value, own: LevelTurn, missingError: missingError(cfg, t)}
	g.prohibitions(lb)
	g.requirements(lb)
	levels := []levelBlock{lb}
	g.nearest(levels, KindMaxCalls, func(b *Block) Limit { return b.MaxCalls })
	g.nearest(levels, KindMaxDuration, func(b *Block) Limit { return b.MaxDurationMs })
	g.nearest(levels, KindMaxIdle, func(b *Block) Limit { return b.MaxIdleMs })
	g.nearest(levels, KindMaxFirstEvent, func(b *Block) Limit { return b.MaxFirstEventMs })
	g.nearest(levels, KindMaxFirstText, func(b *Block) Limit { return b.MaxFirstTextMs })
	return g.done()
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

// missingError reports whether test t's policy for missing capabilities
// is an error.
func missingError(cfg *Config, t *Test) bool {
	if t.OnMissingCapability != "" {
		return t.OnMissingCapability == MissingError
	}
	return cfg.OnMissingCapability == MissingError
}

func (g *generator) add(level Level, p *blockPart, kind Kind, pos diag.Pos, sev Severity, indexed bool, fill func(*Check)) {
	pre := prefix(g.scope, g.own, level)
	id, key := pre+string(kind), string(level)+" "+string(kind)
	if p.id != "" {
		// An item's checks are named by its id, numbered on their own.
		id, key = pre+p.id+"."+string(kind), key+" "+p.id
		if g.items == nil {
			g.items = map[string][]int{}
		}
		g.items[pre+p.id] = append(g.items[pre+p.id], len(g.checks))
	}
	if indexed {
		if g.next == nil {
			g.next = map[string]int{}
		}
		id += "[" + strconv.Itoa(g.next[key]) + "]"
		g.next[key]++
	}
	if sev == "" {
		sev = p.severity
	}
	c := Check{ID: id, Level: level, Kind: kind, Pos: pos, Severity: sev, Requires: p.requires, MissingError: g.missingError}
	fill(&c)
	g.checks = append(g.checks, c)
}

// prohibitions adds what must never happen, checked in every scope the
// level reaches.
func (g *generator) prohibitions(lb levelBlock) {
	for _, p := range lb.parts() {
		b := p.block
		for _, name := range b.Forbid {
			g.add(lb.level, &p, KindForbid, name.Pos, "", true, func(c *Check) { c.Tool = name })
		}
		for i := range b.ForbidCalls {
			f := &b.ForbidCalls[i]
			g.add(lb.level, &p, KindForbidCalls, f.Pos, f.Severity, true, func(c *Check) { c.ForbidCall = f })
		}
		for _, re := range b.MustNotMatch {
			g.add(lb.level, &p, KindMustNotMatch, re.Pos, "", true, func(c *Check) { c.Regex = re })
		}
		for _, t := range b.Omits {
			g.add(lb.level, &p, KindOmits, t.Pos, "", true, func(c *Check) { c.Text = textCheck(t, b) })
		}
		if f := b.StopAfterSuccess; f != nil {
			g.add(lb.level, &p, KindStopAfterSuccess, f.Pos, "", false, func(c *Check) { c.ForbidCall = f })
		}
		if gr := b.Grounded; gr != nil {
			g.add(lb.level, &p, KindGrounded, gr.Pos, "", false, func(c *Check) { c.Grounded = gr })
		}
		for i := range b.MemoryForbid {
			m := &b.MemoryForbid[i]
			g.add(lb.level, &p, KindMemoryForbid, m.Pos, m.Severity, true, func(c *Check) { c.Memory = m })
		}
	}
}

// requirements adds what must happen in the scope.
func (g *generator) requirements(lb levelBlock) {
	for _, p := range lb.parts() {
		b := p.block
		for i := range b.Require {
			r := &b.Require[i]
			g.add(lb.level, &p, KindRequire, r.Pos, r.Severity, true, func(c *Check) { c.Require = r })
		}
		if b.Order != nil {
			g.add(lb.level, &p, KindOrder, b.OrderPos, "", false, func(c *Check) { c.Tools = b.Order })
		}
		for _, re := range b.MustMatch {
			g.add(lb.level, &p, KindMustMatch, re.Pos, "", true, func(c *Check) { c.Regex = re })
		}
		for _, t := range b.Contains {
			g.add(lb.level, &p, KindContains, t.Pos, "", true, func(c *Check) { c.Text = textCheck(t, b) })
		}
		if b.Equals != nil {
			g.add(lb.level, &p, KindEquals, b.Equals.Pos, "", false, func(c *Check) { c.Text = textCheck(*b.Equals, b) })
		}
		if s := b.JSONSchema; s != nil {
			g.add(lb.level, &p, KindJSONSchema, s.Pos, "", false, func(c *Check) { c.Schema = s })
		}
		for i := range b.JSONPath {
			jpc := &b.JSONPath[i]
			g.add(lb.level, &p, KindJSONPath, jpc.Pos, "", true, func(c *Check) { c.Path = jpc })
		}
		for i := range b.State {
			st := &b.State[i]
			g.add(lb.level, &p, KindState, st.Pos, "", true, func(c *Check) { c.State = st })
		}
		for i := range b.MemoryReads {
			m := &b.MemoryReads[i]
			g.add(lb.level, &p, KindMemoryReads, m.Pos, m.Severity, true, func(c *Check) { c.Memory = m })
		}
		for i := range b.MemoryWrites {
			m := &b.MemoryWrites[i]
			g.add(lb.level, &p, KindMemoryWrites, m.Pos, m.Severity, true, func(c *Check) { c.Memory = m })
		}
		if tr := b.TaskRuns; tr != nil {
			g.add(lb.level, &p, KindTaskRuns, tr.Pos, "", false, func(c *Check) { c.Counted = tr })
		}
		if ob := b.Outbound; ob != nil {
			g.add(lb.level, &p, KindOutbound, ob.Pos, "", false, func(c *Check) { c.Counted = ob })
		}
		if j := b.Judge; j != nil {
			g.add(lb.level, &p, KindJudge, j.Pos, j.Severity, false, func(c *Check) { c.Judge = judgeCheck(j) })
		}
		for i := range b.Scripts {
			s := &b.Scripts[i]
			g.add(lb.level, &p, KindScript, s.Pos, s.Severity, true, func(c *Check) { c.Script = &ScriptCheck{Script: s, Argv: rawArgv(s.Cmd)} })
		}
		g.results(lb.level, &p)
	}
}

// results adds the result and tools_list checks: requirements on the
// calls in scope.
func (g *generator) results(level Level, p *blockPart) {
	if r := p.block.Result; r != nil {
		if r.Match != nil {
			g.add(level, p, KindResultMatch, r.Match.Pos, "", false, func(c *Check) { c.Regex = r.Match })
		}
		if r.NotMatch != nil {
			g.add(level, p, KindResultNotMatch, r.NotMatch.Pos, "", false, func(c *Check) { c.Regex = r.NotMatch })
		}
		for i := range r.JSONPath {
			jpc := &r.JSONPath[i]
			g.add(level, p, KindResultJSONPath, jpc.Pos, "", true, func(c *Check) { c.Path = jpc })
		}
		if f := r.IsError; f != nil {
			g.add(level, p, KindResultIsError, f.Pos, "", false, func(c *Check) { c.Flag = f.Value })
		}
		if r.MaxDurationMs > 0 {
			g.add(level, p, KindResultMaxDuration, r.MaxDurationPos, "", false, func(c *Check) { c.LimitMs = r.MaxDurationMs })
		}
	}
	if tl := p.block.ToolsList; tl != nil {
		for _, name := range tl.Include {
			g.add(level, p, KindToolsListInclude, name.Pos, "", true, func(c *Check) { c.Tool = name })
		}
		for _, name := range tl.Exclude {
			g.add(level, p, KindToolsListExclude, name.Pos, "", true, func(c *Check) { c.Tool = name })
		}
		if f := tl.ValidSchemas; f != nil && f.Value {
			g.add(level, p, KindToolsListValidSchemas, f.Pos, "", false, func(c *Check) {})
		}
	}
}

func judgeCheck(j *Judge) *JudgeCheck {
	jc := &JudgeCheck{Judge: j}
	for _, t := range j.Criteria {
		jc.Criteria = append(jc.Criteria, t.Raw)
	}
	return jc
}

// nearest adds the limit of the narrowest level that declares it, unless
// that level disables it with false.
func (g *generator) nearest(levels []levelBlock, kind Kind, get func(*Block) Limit) {
	for j := len(levels) - 1; j >= 0; j-- {
		p := levels[j].declares(func(b *Block) bool { return get(b).Set })
		if p == nil {
			continue
		}
		if l := get(p.block); l.Active() {
			g.limit(levels[j].level, p, kind, l)
		}
		return
	}
}

func (g *generator) limit(level Level, p *blockPart, kind Kind, l Limit) {
	g.add(level, p, kind, l.Pos, "", false, func(c *Check) { c.LimitMs = l.Ms })
}

func textCheck(t vars.Template, b *Block) *TextCheck {
	return &TextCheck{Value: t, CaseSensitive: b.CaseSensitive, Text: t.Raw}
}

// BindChecks resolves the variable references of every check — regexes,
// literal texts and equals values — returning copies.
func BindChecks(checks []Check, v *vars.Vars) ([]Check, error) {
	out := make([]Check, len(checks))
	for i, c := range checks {
		if err := c.bind(v); err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// bind resolves c's references in place (c is a copy; what it points to
// is copied before it changes).
func (c *Check) bind(v *vars.Vars) error {
	var err error
	switch {
	case c.Regex != nil:
		c.Regex, err = c.Regex.Bind(v)
	case c.Require != nil:
		r := *c.Require
		if r.ArgsMatch, err = BindArgs(r.ArgsMatch, v); err == nil {
			r.ResultMatch, err = bindOpt(r.ResultMatch, v)
		}
		if err == nil {
			r.ResultNotMatch, err = bindOpt(r.ResultNotMatch, v)
		}
		c.Require = &r
	case c.ForbidCall != nil:
		f := *c.ForbidCall
		if f.ArgsMatch, err = BindArgs(f.ArgsMatch, v); err == nil {
			f.ResultMatch, err = bindOpt(f.ResultMatch, v)
		}
		c.ForbidCall = &f
	case c.Text != nil:
		t := *c.Text
		t.Text, err = t.Value.Resolve(v)
		c.Text = &t
	case c.Path != nil:
		p := *c.Path
		if p.Match, err = bindOpt(p.Match, v); err == nil && !p.Equals.IsZero() {
			c.Equals, err = p.Equals.Resolve(v)
		}
		c.Path = &p
	case c.State != nil:
		st := *c.State
		if st.Match, err = bindOpt(st.Match, v); err == nil && !st.Equals.IsZero() {
			c.Equals, err = st.Equals.Resolve(v)
		}
		c.State = &st
	case c.Judge != nil:
		jc := &JudgeCheck{Judge: c.Judge.Judge}
		for _, t := range c.Judge.Judge.Criteria {
			var text string
			if text, err = t.Resolve(v); err != nil {
				break
			}
			jc.Criteria = append(jc.Criteria, text)
		}
		c.Judge = jc
	case c.Script != nil:
		sc := &ScriptCheck{Script: c.Script.Script}
		for _, t := range c.Script.Script.Cmd {
			var arg string
			if arg, err = t.Resolve(v); err != nil {
				break
			}
			sc.Argv = append(sc.Argv, arg)
		}
		c.Script = sc
	case c.Memory != nil:
		m := *c.Memory
		if m.PathMatch, err = bindOpt(m.PathMatch, v); err == nil {
			m.ContentMatch, err = bindOpt(m.ContentMatch, v)
		}
		c.Memory = &m
	case c.Counted != nil && c.Counted.Match != nil:
		ct := *c.Counted
		ct.Match, err = ct.Match.Bind(v)
		c.Counted = &ct
	case c.Grounded != nil:
		g := *c.Grounded
		g.Ignore = make([]*vars.Regex, len(c.Grounded.Ignore))
		for i, re := range c.Grounded.Ignore {
			if g.Ignore[i], err = re.Bind(v); err != nil {
				break
			}
		}
		c.Grounded = &g
	}
	return err
}

// BindArgs binds the regexes of an args_match list.
func BindArgs(ms []ArgMatch, v *vars.Vars) ([]ArgMatch, error) {
	if len(ms) == 0 {
		return ms, nil
	}
	out := make([]ArgMatch, len(ms))
	for i, m := range ms {
		re, err := m.Regex.Bind(v)
		if err != nil {
			return nil, err
		}
		out[i] = ArgMatch{Path: m.Path, Pos: m.Pos, Regex: re}
	}
	return out, nil
}

func bindOpt(r *vars.Regex, v *vars.Vars) (*vars.Regex, error) {
	if r == nil {
		return nil, nil
	}
	return r.Bind(v)
}
