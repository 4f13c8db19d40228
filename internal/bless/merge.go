package bless

import "gopkg.in/yaml.v3"

// resolved is n, or a copy of what the alias n names: a node about to be
// edited must not change the anchor other places share.
func resolved(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		return deepCopy(n.Alias)
	}
	return n
}

// deepCopy copies n and everything under it but what aliases name, and
// drops its anchor (the original keeps it).
func deepCopy(n *yaml.Node) *yaml.Node {
	c := *n
	c.Anchor = ""
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, k := range n.Content {
		if k.Kind == yaml.AliasNode {
			c.Content[i] = k
			continue
		}
		c.Content[i] = deepCopy(k)
	}
	return &c
}

// expand writes out the merge keys (<<: *base) of mapping m: the merged
// mappings' pairs join m's own, which win, the first merged winning
// among the rest; so that removing or adding a key of m means what it
// says.
func expand(m *yaml.Node) {
	if m.Kind != yaml.MappingNode {
		return
	}
	var own, merged []*yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Tag != "!!merge" && k.Value != "<<" {
			own = append(own, k, v)
			continue
		}
		var sources []*yaml.Node
		if v.Kind == yaml.SequenceNode {
			sources = v.Content
		} else {
			sources = []*yaml.Node{v}
		}
		for _, s := range sources {
			s = resolved(s)
			expand(s)
			merged = append(merged, s.Content...)
		}
	}
	if merged == nil {
		return
	}
	m.Content = own
	for i := 0; i+1 < len(merged); i += 2 {
		if get(m, merged[i].Value) == nil {
			m.Content = append(m.Content, merged[i], merged[i+1])
		}
	}
}
