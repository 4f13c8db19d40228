package spec

import (
	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

// Result and tools_list assertion kinds (version 1.2).
const (
	KindResultMatch           Kind = "result.match"
	KindResultNotMatch        Kind = "result.not_match"
	KindResultJSONPath        Kind = "result.json_path"
	KindResultIsError         Kind = "result.is_error"
	KindResultMaxDuration     Kind = "result.max_duration_ms"
	KindToolsListInclude      Kind = "tools_list.include"
	KindToolsListExclude      Kind = "tools_list.exclude"
	KindToolsListValidSchemas Kind = "tools_list.valid_schemas"
)

// ResultChecks is a block's result: section, on the results of the tool
// calls in scope (an mcp:call turn's one call). Each set field is a check
// every call must pass.
type ResultChecks struct {
	Pos diag.Pos
	// Match and NotMatch are regexes over the result's content.
	Match, NotMatch *vars.Regex
	// JSONPath are text.json_path's conditions, on the result's JSON.
	JSONPath []JSONPathCheck
	// IsError, when set, says whether the result must be an error.
	IsError *Flag
	// MaxDurationMs bounds each call, from its start to its completion
	// (0: unset); MaxDurationPos is where it is written.
	MaxDurationMs  int64
	MaxDurationPos diag.Pos
}

// ToolsListChecks is a block's tools_list: section, on the tools/list
// results in scope (an mcp:list_tools turn's one listing).
type ToolsListChecks struct {
	Pos diag.Pos
	// Include names tools the listing must have, Exclude tools it must
	// not.
	Include, Exclude []vars.Name
	// ValidSchemas, when set to true, asks that every tool's inputSchema
	// is a valid JSON Schema.
	ValidSchemas *Flag
}

// Flag is a boolean as written.
type Flag struct {
	Pos   diag.Pos
	Value bool
}

var (
	resultCheckFields = []string{"match", "not_match", "json_path", "is_error", "max_duration_ms"}
	toolsListFields   = []string{"include", "exclude", "valid_schemas"}
)

// resultChecks reads a result: section.
func (l *loader) resultChecks(n *yaml.Node, what string) *ResultChecks {
	f, ok := l.Fields(n, what, resultCheckFields)
	if !ok {
		return nil
	}
	d := l.DerefQuiet(n)
	if !l.Since(d, decode.MinorMCP, "the result section") {
		return nil
	}
	r := &ResultChecks{Pos: l.Pos(d)}
	if len(f) == 0 {
		l.Errorf(d, "%s is empty: add match, not_match, json_path, is_error or max_duration_ms", what)
	}
	r.Match = l.optRegex(f, "match", what)
	r.NotMatch = l.optRegex(f, "not_match", what)
	if p, ok := f["json_path"]; ok {
		items, _ := l.List(p.Val, what+".json_path")
		for i, item := range items {
			if c, ok := l.jsonPath(item, decode.Index(what+".json_path", i)); ok {
				r.JSONPath = append(r.JSONPath, c)
			}
		}
	}
	r.IsError = l.flag(f, "is_error", what)
	if lim := l.limit(f, "max_duration_ms", what); lim.Off {
		l.Errorf(f["max_duration_ms"].Val, "%s.max_duration_ms: false has nothing to disable here; remove it", what)
	} else if lim.Set {
		r.MaxDurationMs, r.MaxDurationPos = lim.Ms, lim.Pos
	}
	return r
}

// toolsListChecks reads a tools_list: section.
func (l *loader) toolsListChecks(n *yaml.Node, what string) *ToolsListChecks {
	f, ok := l.Fields(n, what, toolsListFields)
	if !ok {
		return nil
	}
	d := l.DerefQuiet(n)
	if !l.Since(d, decode.MinorMCP, "the tools_list section") {
		return nil
	}
	tl := &ToolsListChecks{Pos: l.Pos(d)}
	if len(f) == 0 {
		l.Errorf(d, "%s is empty: add include, exclude or valid_schemas", what)
	}
	tl.Include = l.names(f, "include", what)
	tl.Exclude = l.names(f, "exclude", what)
	for _, ex := range tl.Exclude {
		for _, in := range tl.Include {
			if in.Value == ex.Value {
				l.Diags.Add(ex.Pos, "%s: `%s` is both included and excluded", what, ex.Value)
			}
		}
	}
	tl.ValidSchemas = l.flag(f, "valid_schemas", what)
	return tl
}

// names reads one name or a list of them.
func (l *loader) names(f map[string]decode.Pair, key, what string) []vars.Name {
	p, ok := f[key]
	if !ok {
		return nil
	}
	path := what + "." + key
	items, _ := l.OneOrList(p.Val, path)
	var out []vars.Name
	for i, item := range items {
		if name, ok := l.Name(item, decode.Index(path, i)); ok {
			out = append(out, name)
		}
	}
	return out
}

// flag reads an optional boolean field.
func (l *loader) flag(f map[string]decode.Pair, key, what string) *Flag {
	p, ok := f[key]
	if !ok {
		return nil
	}
	b, ok := l.Boolean(p.Val, what+"."+key)
	if !ok {
		return nil
	}
	return &Flag{Pos: l.Pos(l.DerefQuiet(p.Val)), Value: b}
}
