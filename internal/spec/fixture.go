package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/hooks"
	"github.com/ananke/action/internal/vars"
)

// Fixture files (docs/files.md): a client tool's result or a hook's
// output kept in a file beside the test, named by tool and case
// (fixtures/fx.web_search.current_ai_news.json). A file is read when the
// suite loads and sent exactly as written: a .json file as its JSON value,
// any other file as its text. Fixtures take no ${...} references — a
// recorded tool output is data, and "${" in it is text.

// maxFixtureSize bounds one fixture file.
const maxFixtureSize = 8 << 20

// fixture reads the file a result_file names, relative to the test file.
func (l *loader) fixture(n *yaml.Node, what string) (vars.Value, bool) {
	rel, node, ok := l.Text(n, what)
	if !ok {
		return vars.Value{}, false
	}
	data, path, ok := l.readFixture(node, rel, what)
	if !ok {
		return vars.Value{}, false
	}
	if strings.EqualFold(filepath.Ext(path), ".json") {
		if !l.validJSON(data, path) {
			return vars.Value{}, false
		}
		return vars.NewLiteral(json.RawMessage(bytes.TrimSpace(data)), l.File, l.Pos(node)), true
	}
	lit, _ := json.Marshal(string(data)) // valid UTF-8: always encodes
	return vars.NewLiteral(lit, l.File, l.Pos(node)), true
}

// readFixture reads the file rel names; path is as the messages show it.
func (l *loader) readFixture(node *yaml.Node, rel, what string) ([]byte, string, bool) {
	if rel == "" {
		l.Errorf(node, "%s is empty: name a file, e.g. fixtures/fx.web_search.current_ai_news.json", what)
		return nil, "", false
	}
	path := rel
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(l.File), filepath.FromSlash(rel))
	}
	data, err := readFile(path, maxFixtureSize)
	if err != nil {
		l.Errorf(node, "%s: %s: %v", what, rel, err)
		return nil, "", false
	}
	if !utf8.Valid(data) {
		l.Errorf(node, "%s: %s is not valid UTF-8 text", what, rel)
		return nil, "", false
	}
	return data, path, true
}

// validJSON reports whether data is one JSON value, reporting the place of
// a syntax error in the fixture file itself.
func (l *loader) validJSON(data []byte, path string) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	var v json.RawMessage
	err := dec.Decode(&v)
	if err == nil {
		if _, more := dec.Token(); more == nil {
			err = errors.New("more than one JSON value")
		}
	}
	if err == nil {
		return true
	}
	off := int(dec.InputOffset())
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = int(se.Offset) - 1 // the offending byte is the last one read
	}
	l.Diags.Add(offsetOf(path, data, off), "fixture is not JSON: %v", err)
	return false
}

// offsetOf is the position of byte off of data in file path.
func offsetOf(path string, data []byte, off int) diag.Pos {
	off = min(max(off, 0), len(data))
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:]) + 1
	return diag.Pos{File: path, Line: line, Col: col}
}

// hookOutput reads a hook's output_file: one JSON object of variables, as
// a hook prints on stdout.
func (l *loader) hookOutput(n *yaml.Node, what string) (map[string]string, bool) {
	rel, node, ok := l.Text(n, what)
	if !ok {
		return nil, false
	}
	data, _, ok := l.readFixture(node, rel, what)
	if !ok {
		return nil, false
	}
	vars, err := hooks.ParseOutput(data)
	if err != nil {
		l.Errorf(node, "%s: %s: %v", what, rel, err)
		return nil, false
	}
	return vars, true
}
