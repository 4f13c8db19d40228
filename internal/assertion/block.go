package assertion

import (
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

// Block is one assert block as written at one level (docs/files.md,
// "Assertions"), or one named block of the config's `assertions:`: the
// items of each kind it holds, and what it brings in from elsewhere.
type Block struct {
	Pos diag.Pos
	// Severity is the block's own severity; "" when it does not say, and it
	// takes the severity of the block that includes it (critical at the top).
	Severity Severity
	// Extends names config `assertions:` blocks merged as if written here.
	Extends []vars.Name
	// Requires are capabilities the block's checks need besides their
	// kinds' own: without them, the checks are skipped (or errors).
	Requires []string
	// Includes are blocks merged as if written here, each with its own
	// severity: a dataset case's assertions, one block each.
	Includes []*Block

	// items are the values of each kind the block holds, as written.
	items map[Kind][]Item
	// parts is the block with everything it extends, flattened: itself
	// first, then each extended block (and what those extend), each with
	// its effective severity. Set when the suite loads (Resolver).
	parts []blockPart
	// name is what messages call an included block ("assertions[2]").
	name string
	// id is the id an assertions: item was given: the id of its checks.
	id string
}

// Items returns the values of kind k the block holds itself.
func (b *Block) Items(k Kind) []Item {
	if b == nil {
		return nil
	}
	return b.items[k]
}

// All returns the values of kind k the block holds with everything it
// extends and includes.
func (b *Block) All(k Kind) []Item {
	var out []Item
	for _, p := range b.partsOf() {
		out = append(out, p.block.items[k]...)
	}
	return out
}

// Refs lists every ${…} reference of the block's checks, those it extends
// and includes too: what `ananke validate` checks, and exactly what
// BindChecks resolves.
func (b *Block) Refs() []vars.Ref {
	var refs []vars.Ref
	for _, p := range b.partsOf() {
		for _, d := range defs {
			for _, it := range p.block.items[d.Kind] {
				refs = append(refs, it.Payload.Refs()...)
			}
		}
	}
	return refs
}

// partsOf returns the block's parts: itself and what it extends
// (resolved when the suite loads; a lone block otherwise).
func (b *Block) partsOf() []blockPart {
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

func (b *Block) add(k Kind, items ...Item) {
	if len(items) == 0 {
		return
	}
	if b.items == nil {
		b.items = map[Kind][]Item{}
	}
	b.items[k] = append(b.items[k], items...)
}

// ReadBlock reads an assert block written at what ("assert",
// "turns[0].assert"); nil when it is not a mapping. Its problems are
// reported to d.
func ReadBlock(d *decode.Decoder, n *yaml.Node, what string) *Block {
	return (&reader{Decoder: d}).block(n, what)
}

// blockFields are an assert block's keys: its own settings, then its
// sections.
var blockFields = func() []string {
	out := []string{"severity", "extends", "requires"}
	for _, s := range sections {
		out = append(out, s.name)
	}
	return out
}()

func (l *reader) block(n *yaml.Node, what string) *Block {
	f, ok := l.Fields(n, what, blockFields)
	if !ok {
		return nil
	}
	b := &Block{Pos: l.Pos(l.DerefQuiet(n))}
	if p, ok := f["severity"]; ok {
		b.Severity = l.severity(p.Val, what+".severity")
	}
	if p, ok := f["extends"]; ok {
		items, _ := l.OneOrList(p.Val, what+".extends")
		for i, item := range items {
			if name, ok := l.Name(item, decode.Index(what+".extends", i)); ok {
				b.Extends = append(b.Extends, name)
			}
		}
	}
	if p, ok := f["requires"]; ok {
		b.Requires = l.requires(p.Val, what+".requires")
	}
	for _, s := range sections {
		if p, ok := f[s.name]; ok {
			l.section(s, p.Val, what+"."+s.name, b)
		}
	}
	return b
}

// section reads one section of a block into it: a mapping of the kinds
// written under it (tools, text…), or the value of the kind it is
// (grounded, judge…).
func (l *reader) section(s *section, n *yaml.Node, what string, b *Block) {
	if s.fields == nil {
		d := byKind()[Kind(s.name)]
		b.add(d.Kind, d.read(l, n, what)...)
		return
	}
	f, ok := l.Fields(n, what, s.fields)
	if !ok {
		return
	}
	at := l.DerefQuiet(n)
	if s.since > 0 && !l.Since(at, s.since, "the "+s.name+" section") {
		return
	}
	if s.empty != "" && len(f) == 0 {
		l.Errorf(at, "%s is empty: add %s", what, s.empty)
	}
	if s.options != nil {
		s.options(l, f, what)
	}
	read := map[Kind][]Item{}
	for _, key := range s.fields {
		d := byKind()[Kind(s.name+"."+key)]
		p, ok := f[key]
		if d == nil || !ok {
			continue // an option, or not written
		}
		items := d.read(l, p.Val, what+"."+key)
		read[d.Kind] = items
		b.add(d.Kind, items...)
	}
	if s.check != nil {
		s.check(l, what, read)
	}
}

// section is a key of an assert block that holds checks.
type section struct {
	name string
	// fields are its keys, kinds' and options', in the order messages
	// list them; nil for a section that is one kind, named as it.
	fields []string
	// desc describes it in the published schema.
	desc string
	// since is the minor version that introduced it (0: 1.0).
	since int
	// empty, when set, makes an empty section an error that says what
	// to add.
	empty string
	// options reads the section's options (not kinds) into the reader,
	// before its kinds are read.
	options func(l *reader, f map[string]decode.Pair, what string)
	// optionSchemas are the options' JSON Schemas.
	optionSchemas func() decode.Obj
	// check reports what is wrong across the section's kinds.
	check func(l *reader, what string, read map[Kind][]Item)
}

// requires reads an assert block's `requires:` list of capabilities.
func (l *reader) requires(n *yaml.Node, what string) []string {
	items, _ := l.OneOrList(n, what)
	var out []string
	for i, item := range items {
		v, node, ok := l.Text(item, decode.Index(what, i))
		if !ok {
			continue
		}
		if !capability.Known(v) {
			l.Errorf(node, "%s: %q is not a capability (known: %s)%s", what, v, capability.Join(capability.All), decode.DidYouMean(v, capability.All))
			continue
		}
		out = append(out, v)
	}
	return out
}

// union is the capabilities of lists, each once, in order.
func union(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		for _, c := range l {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}
