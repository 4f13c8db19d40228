package spec

import (
	"fmt"
	"strconv"
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
	KindForbid       Kind = "tools.forbid"
	KindRequire      Kind = "tools.require"
	KindForbidCalls  Kind = "tools.forbid_calls"
	KindMaxDuration  Kind = "timing.max_duration_ms"
	KindMaxIdle      Kind = "timing.max_idle_ms"
	KindMustMatch    Kind = "text.must_match"
	KindMustNotMatch Kind = "text.must_not_match"
)

// Check is one assertion to evaluate over one scope, after the merge of the
// three levels. Exactly one of the kind-specific fields is set.
type Check struct {
	// ID is stable: the scope, the declaring level when it differs from the
	// scope's own, and the path in the block, e.g. "turn[2].tools.require[0]",
	// "turn[0].target.text.must_not_match[1]", "test.timing.max_duration_ms".
	ID    string
	Level Level
	Kind  Kind
	Pos   Pos

	Tool       Name        // KindForbid
	Require    *Require    // KindRequire
	ForbidCall *CallFilter // KindForbidCalls
	LimitMs    int64       // KindMaxDuration, KindMaxIdle
	Regex      *Regex      // KindMustMatch, KindMustNotMatch
}

// levelBlock is a block with the level it was declared at.
type levelBlock struct {
	level Level
	block *Block
}

// TurnChecks returns what is checked right after turn i of test t (design
// §4.1): every invariant of every level (forbid, forbid_calls,
// must_not_match), the turn's own expectations (require, must_match) and
// duration, and the nearest declared idle limit.
func TurnChecks(cfg *Config, t *Test, i int) []Check {
	scope := "turn[" + strconv.Itoa(i) + "]"
	levels := []levelBlock{{LevelTarget, cfg.Target.Assert}, {LevelTest, t.Assert}, {LevelTurn, t.Turns[i].Assert}}
	var checks []Check
	for _, lb := range levels {
		checks = append(checks, invariants(scope, LevelTurn, lb)...)
	}
	turn := levels[2]
	checks = append(checks, expectations(scope, LevelTurn, turn)...)
	if b := turn.block; b != nil && b.MaxDurationMs.Active() {
		checks = append(checks, limitCheck(scope, LevelTurn, turn.level, KindMaxDuration, b.MaxDurationMs))
	}
	// The nearest level that declares max_idle_ms decides, false included.
	for j := len(levels) - 1; j >= 0; j-- {
		if b := levels[j].block; b != nil && b.MaxIdleMs.Set {
			if b.MaxIdleMs.Active() {
				checks = append(checks, limitCheck(scope, LevelTurn, levels[j].level, KindMaxIdle, b.MaxIdleMs))
			}
			break
		}
	}
	return checks
}

// TestChecks returns what is checked once all turns are done: the target and
// test invariants and expectations over the whole test, and the nearest
// declared max_duration_ms over the test's duration. Turn-level declarations
// were checked on their turn.
func TestChecks(cfg *Config, t *Test) []Check {
	levels := []levelBlock{{LevelTarget, cfg.Target.Assert}, {LevelTest, t.Assert}}
	var checks []Check
	for _, lb := range levels {
		checks = append(checks, invariants("test", LevelTest, lb)...)
		checks = append(checks, expectations("test", LevelTest, lb)...)
	}
	for j := len(levels) - 1; j >= 0; j-- {
		if b := levels[j].block; b != nil && b.MaxDurationMs.Set {
			if b.MaxDurationMs.Active() {
				checks = append(checks, limitCheck("test", LevelTest, levels[j].level, KindMaxDuration, b.MaxDurationMs))
			}
			break
		}
	}
	return checks
}

// prefix is the ID prefix of a check declared at level in scope.
func prefix(scope string, own, level Level) string {
	if level == own {
		return scope + "."
	}
	return scope + "." + string(level) + "."
}

func invariants(scope string, own Level, lb levelBlock) []Check {
	b := lb.block
	if b == nil {
		return nil
	}
	p := prefix(scope, own, lb.level)
	var checks []Check
	for i, name := range b.Forbid {
		checks = append(checks, Check{ID: fmt.Sprintf("%s%s[%d]", p, KindForbid, i), Level: lb.level, Kind: KindForbid, Pos: name.Pos, Tool: name})
	}
	for i := range b.ForbidCalls {
		c := &b.ForbidCalls[i]
		checks = append(checks, Check{ID: fmt.Sprintf("%s%s[%d]", p, KindForbidCalls, i), Level: lb.level, Kind: KindForbidCalls, Pos: c.Pos, ForbidCall: c})
	}
	for i, re := range b.MustNotMatch {
		checks = append(checks, Check{ID: fmt.Sprintf("%s%s[%d]", p, KindMustNotMatch, i), Level: lb.level, Kind: KindMustNotMatch, Pos: re.Pos, Regex: re})
	}
	return checks
}

func expectations(scope string, own Level, lb levelBlock) []Check {
	b := lb.block
	if b == nil {
		return nil
	}
	p := prefix(scope, own, lb.level)
	var checks []Check
	for i := range b.Require {
		r := &b.Require[i]
		checks = append(checks, Check{ID: fmt.Sprintf("%s%s[%d]", p, KindRequire, i), Level: lb.level, Kind: KindRequire, Pos: r.Pos, Require: r})
	}
	for i, re := range b.MustMatch {
		checks = append(checks, Check{ID: fmt.Sprintf("%s%s[%d]", p, KindMustMatch, i), Level: lb.level, Kind: KindMustMatch, Pos: re.Pos, Regex: re})
	}
	return checks
}

func limitCheck(scope string, own, level Level, kind Kind, l Limit) Check {
	return Check{ID: prefix(scope, own, level) + string(kind), Level: level, Kind: kind, Pos: l.Pos, LimitMs: l.Ms}
}

// BindChecks resolves the variable references of every regex in checks,
// returning copies; checks without references are returned unchanged.
func BindChecks(checks []Check, v *Vars) ([]Check, error) {
	out := make([]Check, len(checks))
	for i, c := range checks {
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
		}
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// BindArgs binds the regexes of an args_match list.
func BindArgs(ms []ArgMatch, v *Vars) ([]ArgMatch, error) {
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

func bindOpt(r *Regex, v *Vars) (*Regex, error) {
	if r == nil {
		return nil, nil
	}
	return r.Bind(v)
}
