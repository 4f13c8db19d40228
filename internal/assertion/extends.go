package assertion

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

// NamedBlock is one entry of the config's `assertions:`: a reusable block
// that any assert block can extend (docs/files.md, "Reusable blocks").
type NamedBlock struct {
	Name  vars.Name
	Block *Block
}

// blockPart is a block as it contributes to the block that extends it: with its
// effective severity, and the chain of names that brought it in ("" for
// the block itself, "fast" or "base > fast").
type blockPart struct {
	block    *Block
	severity Severity
	via      string
	// include is set on a block of the root's Includes (and what it
	// extends): the name it goes by in messages, e.g. "assertions[2]".
	include string
	// id is the id of the assertions: item it belongs to, when it has
	// one: its checks' id.
	id string
	// requires are the capabilities its checks need: its own block's,
	// the root's, the including block's and those of every block that
	// brought it in by extends (resolve).
	requires []string
}

// ReadNamedBlocks reads the config's assertions: mapping of name to block.
func ReadNamedBlocks(d *decode.Decoder, n *yaml.Node) []NamedBlock {
	l := &reader{Decoder: d}
	m := l.Deref(n)
	if m == nil {
		return nil
	}
	if m.Kind != yaml.MappingNode {
		l.Errorf(m, "assertions must be a mapping of name to assert block, not %s", decode.KindName(m))
		return nil
	}
	var out []NamedBlock
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		name, ok := l.Name(m.Content[i], "assertions")
		if !ok {
			continue
		}
		if seen[name.Value] {
			l.Errorf(l.DerefQuiet(m.Content[i]), "assertions: %q is defined twice", name.Value)
			continue
		}
		seen[name.Value] = true
		if b := l.block(m.Content[i+1], "assertions."+name.Value); b != nil {
			out = append(out, NamedBlock{Name: name, Block: b})
		}
	}
	return out
}

// NewResolver resolves the config's named blocks, each into its parts, and
// returns the resolver of the other blocks of the suite. It reports unknown
// names, cycles and clashes at their positions.
func NewResolver(named []NamedBlock, diags *diag.Diagnostics) *Resolver {
	r := &Resolver{named: map[string]*NamedBlock{}, diags: diags}
	for i := range named {
		nb := &named[i]
		r.named[nb.Name.Value] = nb
	}
	for _, nb := range named {
		r.resolve(nb.Block, []string{nb.Name.Value})
	}
	return r
}

// Resolve expands an assert block (the target's, a test's, a turn's, a
// checkpoint's) into its parts: itself, and what it extends and includes.
func (r *Resolver) Resolve(b *Block) { r.resolve(b, nil) }

// Resolver expands assert blocks into their parts (extends and includes).
type Resolver struct {
	named map[string]*NamedBlock
	diags *diag.Diagnostics
	// cycles holds the cycles reported, by their sorted member names: each
	// block of a cycle finds it again.
	cycles map[string]bool
}

func (r *Resolver) resolve(b *Block, stack []string) {
	if b == nil {
		return
	}
	sev := b.Severity
	if sev == "" {
		sev = Critical
	}
	included := map[string]bool{}
	b.parts = []blockPart{{block: b, severity: sev, requires: b.Requires}}
	r.expand(b, sev, "", b.Requires, stack, included, &b.parts)
	for i, inc := range b.Includes {
		s := sev
		if inc.Severity != "" {
			s = inc.Severity
		}
		name := inc.name
		if name == "" {
			name = decode.Index("includes", i)
		}
		start := len(b.parts)
		need := union(b.Requires, inc.Requires)
		b.parts = append(b.parts, blockPart{block: inc, severity: s, include: name, requires: need})
		r.expand(inc, s, "", need, stack, included, &b.parts)
		for j := start; j < len(b.parts); j++ {
			b.parts[j].include, b.parts[j].id = name, inc.id
		}
	}
	r.clashes(b.parts)
}

// expand appends the blocks b extends, depth first, each once. need is
// what b's checks require: every block on the way down adds its own, as
// its severity passes down.
func (r *Resolver) expand(b *Block, sev Severity, via string, need []string, stack []string, included map[string]bool, out *[]blockPart) {
	for _, name := range b.Extends {
		nb := r.named[name.Value]
		switch {
		case nb == nil:
			r.diags.Add(name.Pos, "extends: unknown assertions block %q%s", name.Value, r.known(name.Value))
			continue
		case slices.Contains(stack, name.Value):
			r.cycle(name, stack)
			continue
		case included[name.Value]:
			continue // reached twice (a diamond): its checks count once
		}
		included[name.Value] = true
		s := sev
		if nb.Block.Severity != "" {
			s = nb.Block.Severity
		}
		chain := name.Value
		if via != "" {
			chain = via + " > " + name.Value
		}
		req := union(need, nb.Block.Requires)
		*out = append(*out, blockPart{block: nb.Block, severity: s, via: chain, requires: req})
		r.expand(nb.Block, s, chain, req, append(slices.Clone(stack), name.Value), included, out)
	}
}

// cycle reports a cycle of extends once, where it is first found.
func (r *Resolver) cycle(name vars.Name, stack []string) {
	members := slices.Clone(stack[slices.Index(stack, name.Value):])
	slices.Sort(members)
	key := strings.Join(members, " ")
	if r.cycles == nil {
		r.cycles = map[string]bool{}
	}
	if r.cycles[key] {
		return
	}
	r.cycles[key] = true
	r.diags.Add(name.Pos, "extends: %q extends itself (%s > %s)", name.Value, strings.Join(stack, " > "), name.Value)
}

func (r *Resolver) known(name string) string {
	var names []string
	for n := range r.named {
		names = append(names, n)
	}
	if len(names) == 0 {
		return " (the config defines no assertions: blocks)"
	}
	slices.Sort(names)
	if s := decode.DidYouMean(name, names); s != "" {
		return s
	}
	return " (the config defines: " + strings.Join(names, ", ") + ")"
}

// clashes reports a single-valued kind set by more than one part, at the
// block's extends (where the parts were combined).
func (r *Resolver) clashes(parts []blockPart) {
	root := parts[0].block
	for _, d := range defs {
		if !d.Single {
			continue
		}
		var first *blockPart
		var firstAt diag.Pos
		for i := range parts {
			p := &parts[i]
			its := p.block.items[d.Kind]
			if len(its) == 0 {
				continue
			}
			at := its[0].Pos
			if first == nil {
				first, firstAt = p, at
				continue
			}
			where := root.Pos
			switch {
			case p.include != "":
				where = at
			case len(root.Extends) > 0:
				where = root.Extends[0].Pos
			}
			r.diags.Add(where, "%s is set twice: %s (%s) and %s (%s); a block holds one, so set it in one place",
				d.Kind, describePart(first), firstAt, describePart(p), at)
		}
	}
}

func describePart(p *blockPart) string {
	switch {
	case p.include != "" && p.via != "":
		return fmt.Sprintf("by %s, extends %s", p.include, p.via)
	case p.include != "":
		return "by " + p.include
	case p.via == "":
		return "in this block"
	}
	return fmt.Sprintf("by extends %s", p.via)
}
