package spec

import (
	"slices"

	"github.com/ananke/action/internal/vars"
)

// refs lists the references in the block and in the blocks it extends.
func (b *Block) refs() []vars.Ref {
	if b == nil {
		return nil
	}
	var refs []vars.Ref
	for _, p := range (levelBlock{block: b}).parts() {
		refs = append(refs, p.block.ownRefs()...)
	}
	return refs
}

func (b *Block) ownRefs() []vars.Ref {
	var refs []vars.Ref
	add := func(rs ...*vars.Regex) {
		for _, r := range rs {
			if r != nil {
				refs = append(refs, r.Refs()...)
			}
		}
	}
	for _, r := range b.Require {
		refs = append(refs, argRefs(r.ArgsMatch)...)
		add(r.ResultMatch, r.ResultNotMatch)
	}
	filters := b.ForbidCalls
	if b.StopAfterSuccess != nil {
		filters = append(slices.Clone(filters), *b.StopAfterSuccess)
	}
	for _, c := range filters {
		refs = append(refs, argRefs(c.ArgsMatch)...)
		add(c.ResultMatch)
	}
	add(b.MustMatch...)
	add(b.MustNotMatch...)
	refs = append(refs, templateRefs(b.Contains...)...)
	refs = append(refs, templateRefs(b.Omits...)...)
	if b.Equals != nil {
		refs = append(refs, b.Equals.Refs()...)
	}
	for _, c := range b.JSONPath {
		add(c.Match)
		refs = append(refs, c.Equals.Refs()...)
	}
	for _, c := range b.State {
		add(c.Match)
		refs = append(refs, c.Equals.Refs()...)
	}
	if b.Grounded != nil {
		add(b.Grounded.Ignore...)
	}
	if r := b.Result; r != nil {
		add(r.Match, r.NotMatch)
		for _, c := range r.JSONPath {
			add(c.Match)
			refs = append(refs, c.Equals.Refs()...)
		}
	}
	for _, s := range b.Scripts {
		refs = append(refs, templateRefs(s.Cmd...)...)
	}
	if b.Judge != nil {
		refs = append(refs, templateRefs(b.Judge.Criteria...)...)
	}
	return refs
}

func argRefs(ms []ArgMatch) []vars.Ref {
	var refs []vars.Ref
	for _, m := range ms {
		refs = append(refs, m.Regex.Refs()...)
	}
	return refs
}
