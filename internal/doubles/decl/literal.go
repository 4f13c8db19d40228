package decl

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
)

// A double's results and match arguments are data: their strings are
// taken literally ("${X}" is text, as in a fixture file), and they are
// turned into JSON once, at load, keeping the file's key order.

// literal writes n as JSON, reporting at its place what has no JSON form
// (a key that is not a string, .inf, a number beyond 64 bits).
func literal(d *decode.Decoder, n *yaml.Node, what string) (json.RawMessage, bool) {
	w := jsonWriter{d: d, what: what}
	if !w.write(n) {
		return nil, false
	}
	return w.buf.Bytes(), true
}

type jsonWriter struct {
	d    *decode.Decoder
	what string
	buf  bytes.Buffer
}

func (w *jsonWriter) write(n *yaml.Node) bool {
	if n = w.d.Deref(n); n == nil {
		return false // the alias budget is spent; reported
	}
	switch n.Kind {
	case yaml.MappingNode:
		w.buf.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := w.d.Deref(n.Content[i])
			if k == nil {
				return false
			}
			if k.Kind != yaml.ScalarNode || k.ShortTag() == "!!null" {
				w.d.Errorf(k, "%s: a key must be a string, not %s", w.what, decode.KindName(k))
				return false
			}
			if i > 0 {
				w.buf.WriteByte(',')
			}
			writeString(&w.buf, k.Value)
			w.buf.WriteByte(':')
			if !w.write(n.Content[i+1]) {
				return false
			}
		}
		w.buf.WriteByte('}')
	case yaml.SequenceNode:
		w.buf.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				w.buf.WriteByte(',')
			}
			if !w.write(c) {
				return false
			}
		}
		w.buf.WriteByte(']')
	default:
		return w.scalar(n)
	}
	return true
}

func (w *jsonWriter) scalar(n *yaml.Node) bool {
	switch n.ShortTag() {
	case "!!null":
		w.buf.WriteString("null")
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			w.d.Errorf(n, "%s: %q is not a boolean", w.what, n.Value)
			return false
		}
		w.buf.WriteString(strconv.FormatBool(b))
	case "!!int":
		i, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64)
		if err != nil {
			w.d.Errorf(n, "%s: the number %s does not fit in 64 bits", w.what, n.Value)
			return false
		}
		w.buf.WriteString(strconv.FormatInt(i, 10))
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			w.d.Errorf(n, "%s: %s has no JSON form", w.what, n.Value)
			return false
		}
		if json.Valid([]byte(n.Value)) {
			w.buf.WriteString(n.Value)
		} else {
			w.buf.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
		}
	default:
		writeString(&w.buf, n.Value)
	}
	return true
}

// writeString writes s as a JSON string without HTML escaping, so "<"
// reaches the agent as written.
func writeString(buf *bytes.Buffer, s string) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)           // a string always encodes
	buf.Truncate(buf.Len() - 1) // Encode adds a newline
}

// locator places a part of a result, by its JSON pointer tokens, in the
// file it was written in: an inline result in the config or test file, a
// result file's value in that file when it reads as YAML (JSON does).
type locator struct {
	file string
	root *yaml.Node
	// at is where the result is named: its own node, or its result_file.
	at diag.Pos
}

// pos is the position of the part at tokens: its node's, or the nearest
// enclosing one's.
func (l locator) pos(tokens []string) diag.Pos {
	n := l.root
	if n == nil {
		return l.at
	}
	for _, tok := range tokens {
		next := child(n, tok)
		if next == nil {
			break
		}
		n = next
	}
	return diag.Pos{File: l.file, Line: n.Line, Col: n.Column}
}

// child is n's member named tok: a mapping's value, a list's item.
func child(n *yaml.Node, tok string) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == tok {
				return n.Content[i+1]
			}
		}
	case yaml.SequenceNode:
		if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(n.Content) {
			return n.Content[i]
		}
	}
	return nil
}
