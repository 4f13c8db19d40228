package assertion

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/vars"
)

// The assertion vocabulary of dataset cases (docs/datasets.md, "The
// assertion vocabulary"):
// a list of {"type": ..., ...} items. Each item is rewritten into the
// assert block it means — {"type": "contains", "value": "Hi"} into
// {text: {contains: ["Hi"]}} — with every node at its place in the line,
// and read by the same code as a test file's blocks, so its checks,
// evidence and reports are those of the equivalent YAML.

// vocabFields are the keys of each vocabulary type, "type" and "severity"
// included.
var vocabFields = map[string][]string{
	"contains":        {"value", "case_sensitive"},
	"equals":          {"value", "case_sensitive"},
	"regex":           {"pattern"},
	"json_path":       {"path", "value"},
	"type":            {"path", "value"},
	"tool_called":     {"name", "args", "args_match"},
	"not_tool_called": {"name"},
	"agent":           {"criteria"},
	"script":          {"cmd", "timeout_ms"},
	"ananke":          {"assert"},
	// the catalog of named checks (catalog.go).
	"must_call_tool":            {"tool", "args", "args_match"},
	"must_not_call_tool":        {"tool"},
	"tool_call_order":           {"tools"},
	"max_tool_calls":            {"max"},
	"output_contains":           {"value", "case_sensitive"},
	"output_omits":              {"value", "case_sensitive"},
	"output_matches_format":     {"pattern"},
	"memory_recall_same_group":  {"expect", "fact"},
	"no_cross_group_memory_use": {"facts"},
	"scheduler_task_runs":       {"count", "status"},
	"scheduler_outbound_count":  {"count", "match"},
	"retry_policy_respected":    {"tool", "max_attempts"},
	"graceful_failure_output":   {"pattern"},
	"budget":                    {"max_input_tokens", "max_output_tokens", "max_total_tokens", "max_cost_usd"},
}

// VocabTypes lists the vocabulary's types, sorted.
var VocabTypes = func() []string {
	var out []string
	for k := range vocabFields {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}()

// vocabRequired are the keys each type needs.
var vocabRequired = map[string][]string{
	"contains": {"value"}, "equals": {"value"}, "regex": {"pattern"}, "json_path": {"path", "value"},
	"type": {"path", "value"}, "tool_called": {"name"}, "not_tool_called": {"name"}, "agent": {"criteria"},
	"script": {"cmd"}, "ananke": {"assert"},
	"must_call_tool": {"tool"}, "must_not_call_tool": {"tool"}, "tool_call_order": {"tools"}, "max_tool_calls": {"max"},
	"output_contains": {"value"}, "output_omits": {"value"}, "output_matches_format": {"pattern"},
	"memory_recall_same_group": {"expect"}, "scheduler_outbound_count": {"count"},
	"retry_policy_respected": {"tool", "max_attempts"},
}

// ReadVocabulary reads an assertion list into a block that includes one
// block per item. what names the list ("assertions").
func ReadVocabulary(d *decode.Decoder, n *yaml.Node, what string) *Block {
	return (&reader{Decoder: d}).vocabulary(n, what)
}

// ReadAssertion reads one assertion of the vocabulary, written at what, as
// a block that includes it.
func ReadAssertion(d *decode.Decoder, n *yaml.Node, what string) *Block {
	inc := (&reader{Decoder: d}).vocabItem(n, what)
	if inc == nil {
		return nil
	}
	inc.name = what
	return &Block{Pos: inc.Pos, Includes: []*Block{inc}}
}

func (l *reader) vocabulary(n *yaml.Node, what string) *Block {
	items, ok := l.List(n, what)
	if !ok {
		return nil
	}
	b := &Block{Pos: l.Pos(l.DerefQuiet(n))}
	ids := map[string]string{} // id → the item that has it
	for i, item := range items {
		w := decode.Index(what, i)
		if inc := l.vocabItem(item, w); inc != nil {
			if inc.name == "" {
				inc.name = w
			}
			if inc.id != "" {
				if first, dup := ids[inc.id]; dup {
					l.Errorf(l.idNode(item), "%s.id %q is also the id of %s; an id names one assertion in the results", w, inc.id, first)
				}
				ids[inc.id] = w
			}
			b.Includes = append(b.Includes, inc)
		}
	}
	return b
}

// idNode is the value of an item's id (or params' id), for messages.
func (l *reader) idNode(item *yaml.Node) *yaml.Node {
	m := l.DerefQuiet(item)
	for i := 0; m != nil && i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == "id" {
			return l.DerefQuiet(m.Content[i+1])
		}
	}
	return m
}

// vocabItem reads one {"type": ...} item as the block it means.
func (l *reader) vocabItem(n *yaml.Node, what string) *Block {
	m := l.Deref(n)
	if m == nil {
		return nil
	}
	if m.Kind != yaml.MappingNode {
		l.Errorf(m, "%s must be an object like {\"type\": \"contains\", \"value\": \"...\"}, not %s", what, decode.KindName(m))
		return nil
	}
	m, ok := l.flattenParams(m, what)
	if !ok {
		return nil
	}
	typ := ""
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == "type" {
			s, node, ok := l.Text(m.Content[i+1], what+".type")
			if !ok {
				return nil
			}
			if _, known := vocabFields[s]; !known {
				l.Errorf(node, "%s.type %q is not an assertion type%s", what, s, decode.Suggest(s, VocabTypes))
				return nil
			}
			typ = s
		}
	}
	if typ == "" {
		l.Errorf(m, "%s is missing required field \"type\" (one of %s)", what, strings.Join(VocabTypes, ", "))
		return nil
	}
	f, ok := l.Fields(m, what, append(slices.Clone(envelopeFields), vocabFields[typ]...))
	if !ok {
		return nil
	}
	l.Require(m, f, what, vocabRequired[typ]...)
	for _, k := range vocabRequired[typ] {
		if _, ok := f[k]; !ok {
			return nil
		}
	}
	s := synth{at: m}
	var block *yaml.Node
	switch typ {
	case "contains", "equals":
		text := []*yaml.Node{s.key(typ), f["value"].Val}
		if v := l.Deref(f["value"].Val); typ == "contains" && v != nil && v.Kind != yaml.SequenceNode {
			text[1] = s.seq(f["value"].Val) // a list is several texts
		}
		if p, ok := f["case_sensitive"]; ok {
			text = append(text, s.key("case_sensitive"), p.Val)
		}
		block = s.mapping(s.key("text"), s.mapping(text...))
	case "regex":
		block = s.mapping(s.key("text"), s.mapping(s.key("must_match"), s.seq(f["pattern"].Val)))
	case "json_path", "type":
		check := "equals"
		if typ == "type" {
			check = "type"
		}
		entry := s.mapping(s.key("path"), f["path"].Val, s.key(check), f["value"].Val)
		block = s.mapping(s.key("text"), s.mapping(s.key("json_path"), s.seq(entry)))
	case "tool_called":
		entry := []*yaml.Node{s.key("name"), f["name"].Val}
		if args := l.toolArgs(f, what); args != nil {
			entry = append(entry, s.key("args_match"), args)
		}
		block = s.mapping(s.key("tools"), s.mapping(s.key("require"), s.seq(s.mapping(entry...))))
	case "not_tool_called":
		block = s.mapping(s.key("tools"), s.mapping(s.key("forbid"), s.seq(f["name"].Val)))
	case "agent":
		judge := []*yaml.Node{s.key("criteria"), f["criteria"].Val}
		if p, ok := f["severity"]; ok {
			judge = append(judge, s.key("severity"), p.Val)
		}
		block = s.mapping(s.key("judge"), s.mapping(judge...))
	case "script":
		script := []*yaml.Node{s.key("cmd"), f["cmd"].Val}
		if p, ok := f["timeout_ms"]; ok {
			script = append(script, s.key("timeout_ms"), p.Val)
		}
		block = s.mapping(s.key("script"), s.mapping(script...))
	case "ananke":
		block = f["assert"].Val
	default:
		block = l.catalogBlock(typ, f, s, what)
	}
	if block == nil {
		return nil
	}
	b := l.block(block, what)
	if b == nil {
		return nil
	}
	l.envelope(f, what, b)
	if p, ok := f["severity"]; ok && typ != "agent" {
		sev := l.severity(p.Val, what+".severity")
		if b.Severity != "" && sev != "" && typ == "ananke" {
			l.Errorf(p.Key, "%s: severity is set twice, here and in its assert block; keep one", what)
		}
		if sev != "" {
			b.Severity = sev
		}
	}
	return b
}

// toolArgs is the args_match of a tool_called or must_call_tool item: the
// exact values of its args, and the patterns of its args_match, as
// written (the require entry reads them). An argument may be in one of
// them only.
func (l *reader) toolArgs(f map[string]decode.Pair, what string) *yaml.Node {
	var exact, patterns *yaml.Node
	if p, ok := f["args"]; ok {
		exact = l.argsPatterns(p.Val, what+".args")
	}
	if p, ok := f["args_match"]; ok {
		patterns = p.Val
	}
	if exact == nil || patterns == nil {
		if exact != nil {
			return exact
		}
		return patterns
	}
	m := l.DerefQuiet(patterns)
	if m.Kind != yaml.MappingNode {
		return patterns // the require entry says what it should be
	}
	both := *exact
	both.Content = slices.Clone(exact.Content)
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := l.DerefQuiet(m.Content[i])
		dup := false
		for j := 0; j < len(exact.Content); j += 2 {
			dup = dup || exact.Content[j].Value == k.Value
		}
		if dup {
			l.Errorf(k, "%s.args_match: argument %q is also in args; give it in one of them", what, k.Value)
			continue
		}
		both.Content = append(both.Content, m.Content[i], m.Content[i+1])
	}
	return &both
}

// argsPatterns turns the expected arguments of a tool_called item into an
// args_match mapping: each leaf, reached by its dotted path, must equal
// the value written (as text; references stay references).
func (l *reader) argsPatterns(n *yaml.Node, what string) *yaml.Node {
	m := l.Deref(n)
	if m == nil {
		return nil
	}
	if m.Kind != yaml.MappingNode {
		l.Errorf(m, "%s must be an object of argument name to value, not %s", what, decode.KindName(m))
		return nil
	}
	s := synth{at: m}
	var out []*yaml.Node
	var walk func(prefix string, n *yaml.Node)
	walk = func(prefix string, n *yaml.Node) {
		switch {
		case n.Kind == yaml.MappingNode && len(n.Content) > 0:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if k.Value == "" || strings.Contains(k.Value, ".") {
					l.Errorf(k, "%s: argument name %q cannot be matched by a dotted path; use an ananke assertion with args_match", what, k.Value)
					continue
				}
				walk(joinPath(prefix, k.Value), n.Content[i+1])
			}
		case n.Kind == yaml.SequenceNode && len(n.Content) > 0:
			for i, item := range n.Content {
				walk(joinPath(prefix, strconv.Itoa(i)), item)
			}
		default:
			key := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: prefix, Line: n.Line, Column: n.Column}
			out = append(out, key, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: exactPattern(n), Line: n.Line, Column: n.Column})
		}
	}
	walk("", m)
	if len(out) == 0 {
		return nil
	}
	return s.mapping(out...)
}

func joinPath(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}

// exactPattern is a regex matching exactly the leaf's text: the literal
// text quoted, references kept (they are matched literally when bound).
func exactPattern(n *yaml.Node) string {
	text := n.Value
	switch {
	case n.Kind == yaml.MappingNode:
		text = "{}"
	case n.Kind == yaml.SequenceNode:
		text = "[]"
	case n.ShortTag() == "!!null":
		text = "null"
	}
	var b strings.Builder
	b.WriteString("^")
	last := 0
	for _, loc := range vars.RefSpans(text) {
		b.WriteString(regexp.QuoteMeta(text[last:loc[0]]))
		if text[loc[0]:loc[1]] == "$${" {
			b.WriteString(regexp.QuoteMeta("$") + `\{`)
		} else {
			b.WriteString(text[loc[0]:loc[1]])
		}
		last = loc[1]
	}
	b.WriteString(regexp.QuoteMeta(text[last:]))
	b.WriteString("$")
	return b.String()
}

// synth builds the nodes of a rewritten item, at the item's position.
type synth struct{ at *yaml.Node }

func (s synth) key(k string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k, Line: s.at.Line, Column: s.at.Column}
}

func (s synth) mapping(kv ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: kv, Line: s.at.Line, Column: s.at.Column}
}

// seq wraps one node in a list at the node's own position.
func (s synth) seq(n *yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{n}, Line: n.Line, Column: n.Column}
}
