package decl

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
)

// maxLatencyMs bounds latency_ms: ten minutes.
const maxLatencyMs = 600_000

// ReadAnswers reads a test file's or a turn's doubles: a mapping of tool
// names to answers, reporting every problem at its place through d. what
// names the mapping in messages ("doubles", "turns[1].doubles"). Whether
// each tool is declared is the config's to say (Check).
func ReadAnswers(d *decode.Decoder, n *yaml.Node, what string) Answers {
	return newReader(d).answers(n, what)
}

func (d *reader) answers(n *yaml.Node, what string) Answers {
	m := d.Deref(n)
	if m == nil {
		return nil
	}
	if m.Kind != yaml.MappingNode {
		d.Errorf(m, "%s must be a mapping of tool names to answers, not %s", what, decode.KindName(m))
		return nil
	}
	out := Answers{}
	seen := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := d.Deref(m.Content[i])
		switch {
		case k == nil, k.Kind == yaml.ScalarNode && strings.HasPrefix(k.Value, "x-"):
			continue // x- keys are the file's own, as everywhere
		case k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge":
			d.Errorf(k, "%s: a merge key (<<) cannot give answers; name each tool", what)
			continue
		}
		name, ok := d.Name(k, what+" key")
		if !ok {
			continue
		}
		if first, dup := seen[name.Value]; dup {
			d.Errorf(k, "%s: tool %q is answered twice (first at line %d)", what, name.Value, first)
			continue
		}
		seen[name.Value] = k.Line
		w := what + "." + name.Value
		f, ok := d.Fields(m.Content[i+1], w, answerFields)
		if !ok {
			continue
		}
		if a := d.readAnswer(m.Content[i+1], f, w); a != nil {
			a.key, a.what = name.Pos, w
			out[name.Value] = a
		}
	}
	return out
}

// readAnswer reads an answer whose fields f were read from n: its own
// reply, its match entries, or both.
func (d *reader) readAnswer(n *yaml.Node, f map[string]decode.Pair, what string) *Answer {
	a := &Answer{Pos: d.Pos(d.DerefQuiet(n)), key: d.Pos(d.DerefQuiet(n)), what: what}
	p, hasMatch := f["match"]
	if hasAny(f, replyFields) {
		a.Reply = d.readReply(n, f, what)
	} else if !hasMatch {
		d.Errorf(d.DerefQuiet(n), "%s needs a result, result_file, fault or match", what)
		return nil
	}
	if hasMatch {
		items, ok := d.List(p.Val, what+".match")
		if ok && len(items) == 0 {
			d.Errorf(d.DerefQuiet(p.Val), "%s.match is empty", what)
		}
		for i, item := range items {
			if m := d.readMatch(item, decode.Index(what+".match", i)); m != nil {
				a.Match = append(a.Match, m)
			}
		}
	}
	return a
}

// readMatch reads one match entry: the arguments it wants and its reply.
func (d *reader) readMatch(n *yaml.Node, what string) *Match {
	f, ok := d.Fields(n, what, matchFields)
	if !ok {
		return nil
	}
	m := &Match{Pos: d.Pos(d.DerefQuiet(n))}
	d.Require(n, f, what, "args")
	if p, ok := f["args"]; ok {
		if v := d.Deref(p.Val); v != nil && v.Kind != yaml.MappingNode {
			d.Errorf(v, "%s.args must be a mapping of argument names to values, not %s", what, decode.KindName(v))
		} else if raw, ok := literal(d.Decoder, p.Val, what+".args"); ok {
			m.Args = raw
			m.args, _ = decodeJSON(raw).(map[string]any)
		}
	}
	m.Reply = d.readReply(n, f, what)
	return m
}

// readReply reads a result (or result_file), is_error and latency_ms, or
// a fault.
func (d *reader) readReply(n *yaml.Node, f map[string]decode.Pair, what string) *Reply {
	r := &Reply{Pos: d.Pos(d.DerefQuiet(n))}
	res, hasResult := f["result"]
	file, hasFile := f["result_file"]
	fault, hasFault := f["fault"]
	switch {
	case hasResult && hasFile:
		d.Errorf(file.Key, "%s: set result or result_file, not both", what)
	case hasFault && (hasResult || hasFile):
		d.Errorf(fault.Key, "%s: a fault is played instead of a result; set result (or result_file) or fault, not both", what)
	case hasFault:
		r.Fault = d.readFault(fault.Val, what+".fault")
	case hasResult:
		if v := d.Deref(res.Val); v != nil {
			r.Result, _ = literal(d.Decoder, v, what+".result")
			r.at = locator{file: d.File, root: v, at: d.Pos(v)}
			r.what = what + ".result"
		}
	case hasFile:
		r.Result, r.at, _ = d.readResultFile(file.Val, what+".result_file")
		r.what = what + ".result_file"
	default:
		d.Errorf(d.DerefQuiet(n), "%s needs a result, result_file or fault", what)
	}
	if p, ok := f["is_error"]; ok {
		r.IsError, _ = d.Boolean(p.Val, what+".is_error")
		if hasFault {
			d.Errorf(p.Key, "%s: is_error marks a result; a fault sends none", what)
		}
	}
	if p, ok := f["latency_ms"]; ok {
		r.LatencyMs, _ = d.Integer(p.Val, what+".latency_ms", 0, maxLatencyMs)
	}
	return r
}

// readFault reads a fault's name: one of Faults.
func (d *reader) readFault(n *yaml.Node, what string) string {
	s, node, ok := d.Text(n, what)
	if !ok {
		return ""
	}
	if !slices.Contains(Faults, s) {
		d.Errorf(node, "%s %q is not a fault: write timeout, drop or malformed%s", what, s, closest(s, Faults))
		return ""
	}
	return s
}

// decodeJSON decodes JSON text with its numbers kept as json.Number.
func decodeJSON(raw []byte) any {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	return v
}

// closest is ` (did you mean "x"?)` when one of known is close to got.
func closest(got string, known []string) string {
	best, bestDist := "", 3
	for _, k := range known {
		if d := decode.EditDistance(strings.ToLower(got), strings.ToLower(k)); d < bestDist {
			best, bestDist = k, d
		}
	}
	if best == "" {
		return ""
	}
	return ` (did you mean "` + best + `"?)`
}
