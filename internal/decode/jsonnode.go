package decode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/diag"
)

// JSONNode parses one line of a JSONL file into the yaml.Node tree the
// loader reads, each node at its line and (rune) column, so that a dataset
// case goes through the same checks as a test file and its problems point
// into the line. encoding/json decides what is valid JSON (escapes,
// surrogate pairs, numbers); this only records where each token starts.
func JSONNode(src []byte, line int) (*yaml.Node, *diag.Diagnostic) {
	r := &jsonReader{dec: json.NewDecoder(bytes.NewReader(src)), src: src, line: line}
	r.dec.UseNumber()
	n, err := r.value()
	if err == nil {
		off := r.skip(int(r.dec.InputOffset()))
		if off < len(src) {
			err = &jsonError{off, "a line holds one JSON value; more follows it"}
		}
	}
	if err != nil {
		var je *jsonError
		if !errors.As(err, &je) {
			je = &jsonError{len(src), err.Error()}
		}
		return nil, &diag.Diagnostic{Pos: diag.Pos{Line: line, Col: r.col(je.off)}, Message: "invalid JSON: " + je.msg}
	}
	return n, nil
}

type jsonReader struct {
	dec  *json.Decoder
	src  []byte
	line int
	// lastOff and lastCol are the last offset col counted to, and its
	// column: tokens come in order, so counting resumes there.
	lastOff, lastCol int
}

// jsonError is a problem at a byte offset of the line.
type jsonError struct {
	off int
	msg string
}

func (e *jsonError) Error() string { return e.msg }

// col is the 1-based rune column of byte offset off.
func (r *jsonReader) col(off int) int {
	off = min(max(off, 0), len(r.src))
	if off < r.lastOff || r.lastCol == 0 {
		r.lastOff, r.lastCol = 0, 1
	}
	r.lastCol += utf8.RuneCount(r.src[r.lastOff:off])
	r.lastOff = off
	return r.lastCol
}

// skip returns the offset of the next token at or after off: only
// whitespace and the separators the decoder consumes silently lie between
// tokens.
func (r *jsonReader) skip(off int) int {
	for off < len(r.src) && strings.IndexByte(" \t\r\n,:", r.src[off]) >= 0 {
		off++
	}
	return off
}

// token reads the next token and the offset where it starts.
func (r *jsonReader) token() (json.Token, int, error) {
	start := r.skip(int(r.dec.InputOffset()))
	tok, err := r.dec.Token()
	if err != nil {
		return nil, start, r.explain(err, start)
	}
	return tok, start, nil
}

// explain turns a decoder error into a message at an offset.
func (r *jsonReader) explain(err error, start int) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		// The decoder's stream offset is where the token began; a plain
		// Unmarshal names the offending byte (its Offset is just past it).
		var v any
		if errors.As(json.Unmarshal(r.src, &v), &se) {
			return &jsonError{int(se.Offset) - 1, strings.TrimPrefix(se.Error(), "json: ")}
		}
		return &jsonError{start, strings.TrimPrefix(err.Error(), "json: ")}
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return &jsonError{len(r.src), "the line ends before the JSON value does"}
	}
	return &jsonError{start, err.Error()}
}

func (r *jsonReader) value() (*yaml.Node, error) {
	tok, off, err := r.token()
	if err != nil {
		return nil, err
	}
	n := &yaml.Node{Line: r.line, Column: r.col(off)}
	switch v := tok.(type) {
	case json.Delim:
		switch v {
		case '{':
			n.Kind, n.Tag, n.Style = yaml.MappingNode, "!!map", yaml.FlowStyle
			return n, r.object(n)
		case '[':
			n.Kind, n.Tag, n.Style = yaml.SequenceNode, "!!seq", yaml.FlowStyle
			return n, r.array(n)
		}
		return nil, &jsonError{off, fmt.Sprintf("unexpected %q", rune(v))}
	case string:
		n.Kind, n.Tag, n.Value, n.Style = yaml.ScalarNode, "!!str", v, yaml.DoubleQuotedStyle
	case json.Number:
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!int", v.String()
		if strings.ContainsAny(n.Value, ".eE") {
			n.Tag = "!!float"
		}
	case bool:
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!bool", fmt.Sprint(v)
	case nil:
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!null", "null"
	}
	return n, nil
}

func (r *jsonReader) object(n *yaml.Node) error {
	seen := map[string]bool{}
	for r.dec.More() {
		tok, off, err := r.token()
		if err != nil {
			return err
		}
		key, _ := tok.(string) // the decoder only returns a string here
		if seen[key] {
			return &jsonError{off, fmt.Sprintf("key %q appears twice in one object", key)}
		}
		seen[key] = true
		k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key, Style: yaml.DoubleQuotedStyle, Line: r.line, Column: r.col(off)}
		v, err := r.value()
		if err != nil {
			return err
		}
		n.Content = append(n.Content, k, v)
	}
	_, _, err := r.token() // '}'
	return err
}

func (r *jsonReader) array(n *yaml.Node) error {
	for r.dec.More() {
		v, err := r.value()
		if err != nil {
			return err
		}
		n.Content = append(n.Content, v)
	}
	_, _, err := r.token() // ']'
	return err
}
