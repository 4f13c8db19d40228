package assertion

import (
	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
)

// The result and tools_list sections (version 1.2): checks on the results
// of the tool calls in scope (an mcp:call turn's one call), every call
// passing each, and on the tools/list listings in scope (an mcp:list_tools
// turn's one listing).

func readIsError(l *reader, n *yaml.Node, what string) []Item {
	b, ok := l.Boolean(n, what)
	if !ok {
		return nil
	}
	pos := l.Pos(l.DerefQuiet(n))
	return []Item{{Pos: pos, Payload: Flag{Pos: pos, Value: b}}}
}

// readValidSchemas reads tools_list.valid_schemas: true checks every
// listed tool's inputSchema; false is written, and checks nothing.
func readValidSchemas(l *reader, n *yaml.Node, what string) []Item {
	b, ok := l.Boolean(n, what)
	if !ok {
		return nil
	}
	pos := l.Pos(l.DerefQuiet(n))
	return []Item{{Pos: pos, Payload: Switch{Pos: pos, Value: b}}}
}

// readCallDuration reads result.max_duration_ms: each call completes
// within it; false has nothing to disable.
func readCallDuration(l *reader, n *yaml.Node, what string) []Item {
	lim := l.limitAt(n, what, "milliseconds")
	if lim.Off {
		l.Errorf(n, "%s: false has nothing to disable here; remove it", what)
		return nil
	}
	return limitItem(lim)
}

// readNames reads one tool name or a list of them: tools.forbid,
// tools_list.include, tools_list.exclude.
func readNames(l *reader, n *yaml.Node, what string) []Item {
	items, _ := l.OneOrList(n, what)
	var out []Item
	for i, item := range items {
		if name, ok := l.Name(item, decode.Index(what, i)); ok {
			out = append(out, Item{Pos: name.Pos, Payload: Tool{Name: name}})
		}
	}
	return out
}

// checkToolsList reports a tool both included and excluded.
func checkToolsList(l *reader, what string, read map[Kind][]Item) {
	for _, ex := range read[KindToolsListExclude] {
		for _, in := range read[KindToolsListInclude] {
			if name := ex.Payload.(Tool).Name.Value; in.Payload.(Tool).Name.Value == name {
				l.Diags.Add(ex.Pos, "%s: `%s` is both included and excluded", what, name)
			}
		}
	}
}
