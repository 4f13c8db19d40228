package bless

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// str is a plain string scalar (YAML quotes it when it must).
func str(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

// quoted is a double-quoted string: regexes and texts, whose escapes and
// special characters read best quoted.
func quoted(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Style: yaml.DoubleQuotedStyle}
}

// literal is s as a file's string value: a ${ in it would be read as a
// variable reference, so it is written $${ (docs/files.md#variables).
func literal(s string) string {
	return strings.ReplaceAll(s, "${", "$${")
}

// mapping is a block mapping of key, value pairs.
func mapping(kv ...any) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for i := 0; i+1 < len(kv); i += 2 {
		m.Content = append(m.Content, str(kv[i].(string)), kv[i+1].(*yaml.Node))
	}
	return m
}

// flowSeq is a flow sequence of strings: [a, b].
func flowSeq(items ...string) *yaml.Node {
	s := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
	for _, it := range items {
		s.Content = append(s.Content, str(it))
	}
	return s
}

// seq is a block sequence.
func seq(items ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: items}
}

// get returns the value of key in mapping m (nil: none).
func get(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// del removes key from mapping m.
func del(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i:i], m.Content[i+2:]...)
			return
		}
	}
}

// set puts key: v in mapping m, in place of its value or at the end.
func set(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, str(key), v)
}

// child returns the mapping under key in m, made when missing.
func child(m *yaml.Node, key string) *yaml.Node {
	if v := get(m, key); v != nil && v.Kind == yaml.MappingNode {
		return v
	}
	v := mapping()
	set(m, key, v)
	return v
}

// flowText is n on one line, in YAML's flow style.
func flowText(n *yaml.Node) string {
	b, err := yaml.Marshal(flow(n))
	if err != nil {
		return n.Value
	}
	return strings.TrimSpace(string(b))
}

// flow is a copy of n with every collection in flow style and no comments.
func flow(n *yaml.Node) *yaml.Node {
	c := *n
	c.HeadComment, c.LineComment, c.FootComment = "", "", ""
	if c.Kind == yaml.MappingNode || c.Kind == yaml.SequenceNode {
		c.Style = yaml.FlowStyle
	}
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, k := range n.Content {
		c.Content[i] = flow(k)
	}
	return &c
}
