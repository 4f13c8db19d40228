package assertion

import (
	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// Kind names an assertion kind as written in an assert block: its section
// and key ("text.must_match"), or a section that is one kind ("grounded").
// The engine's own results (a run error, a protocol check…) have kinds
// too (Builtins).
type Kind string

// Def defines one assertion kind, in one place: how it is written and
// read, where it is checked, what it needs of a trace, what its failures
// are about, and how it is evaluated. Every kind has one (Defs), and
// everything that lists kinds — the loader, the published schema, the
// merge of the three levels, clashes between merged blocks, capability
// gating, failure categories, the references `ananke validate` checks and
// the binding before a run — reads it from there.
type Def struct {
	Kind Kind
	// Category is what a failure of the kind is about (Categories).
	Category string
	// Needs are the capabilities of the trace it reads (internal/
	// capability); a check whose trace lacks one is skipped with the
	// reason, or is an error (on_missing_capability).
	Needs []string
	// Role is where its checks are made (docs/files.md, "Where each
	// assertion is checked").
	Role Role
	// Single: a block holds one value of the kind; two merged blocks that
	// both set it clash. Its check ids have no index.
	Single bool
	// Doc is the heading of docs/files.md that documents the kind.
	Doc string
	// Example is an assert block using the kind, with a ${…} reference
	// in every place its value may hold one (the registry's test loads
	// it, checks that validate reports each reference and that binding
	// needs each).
	Example string

	// read reads the kind's value, n, written at what ("assert.text.
	// must_match"), into the items it holds: none when it is invalid
	// (its problems are reported).
	read func(l *reader, n *yaml.Node, what string) []Item
	// schema is its value's JSON Schema, in the published schema.
	schema func() decode.Obj
	// eval evaluates a check of the kind over a scope; nil for kinds the
	// engine evaluates with a model or a command (judge, script). The
	// engine compares snapshots itself (its Snapshots seam); their eval
	// says what they expect, and that they cannot be made.
	eval func(r *Result, p Payload, s trace.Scope)
}

// Section is the key of the assert block the kind is written under
// ("text"; "grounded" for a kind that is a section of its own).
func (d *Def) Section() string { return sectionOf(d.Kind) }

// Key is the kind's key within its section ("must_match"), or "" for a
// kind that is a section of its own.
func (d *Def) Key() string { return keyOf(d.Kind) }

// Role says where a kind's checks are made: in which scopes (a turn, the
// whole test) and from which levels (target, test, turn).
type Role int

// Roles, in the order a turn's checks are made (docs/files.md, "Where each
// assertion is checked").
const (
	// Prohibition: what must never happen, checked after every turn and
	// on the whole test, from every level.
	Prohibition Role = iota
	// Budget: a bound on the whole scope, each turn's and the test's;
	// the nearest level that declares it decides.
	Budget
	// Requirement: what must happen, checked on a turn from the turn's
	// own block, on the whole test from the target's and the test's.
	Requirement
	// Duration: a bound on a turn from its own block, on the whole test
	// from the nearest level that declares it.
	Duration
	// TurnLimit: a bound on each turn, from the nearest level that
	// declares it; not checked on the whole test.
	TurnLimit
)

// Payload is a kind's value as written, one per check. Its references
// and its binding are the same fields, so what `ananke validate` reports
// and what a run resolves cannot disagree.
type Payload interface {
	// Refs lists every ${…} reference the value holds.
	Refs() []vars.Ref
	// Bind returns a copy with every reference resolved.
	Bind(v *vars.Vars) (Payload, error)
}

// inactive is a payload that is written but makes no check: a limit set
// to false, which disables an inherited one, or valid_schemas: false.
type inactive interface{ off() bool }

// active reports whether an item makes a check.
func active(p Payload) bool {
	in, ok := p.(inactive)
	return !ok || !in.off()
}

// Item is one value of a kind as written in a block: where, its own
// severity ("": the block's), and its payload.
type Item struct {
	Pos      diag.Pos
	Severity Severity
	Payload  Payload
}

// reader reads an assert block: the file's decoder, and the options of
// the section being read.
type reader struct {
	*decode.Decoder
	// caseSensitive is text.case_sensitive, for contains, omits and
	// equals.
	caseSensitive bool
}

// Defs lists every assertion kind, in the order a scope's checks are made
// and reported.
func Defs() []*Def { return defs }

// Lookup returns the definition of kind k, or nil for a kind that has
// none (the engine's own, Builtins).
func Lookup(k Kind) *Def { return byKind()[k] }

func sectionOf(k Kind) string {
	for i := range len(k) {
		if k[i] == '.' {
			return string(k[:i])
		}
	}
	return string(k)
}

func keyOf(k Kind) string {
	s := sectionOf(k)
	if len(s) == len(k) {
		return ""
	}
	return string(k[len(s)+1:])
}
