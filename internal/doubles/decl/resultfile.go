package decl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
)

// A result_file names a file beside the file that declares the answer,
// read when the suite loads: a .json file is the result's JSON value, any
// other file its text (as a test's client tool fixtures are).

// maxResultFile bounds one result file.
const maxResultFile = 8 << 20

// readResultFile reads the file a result_file names; its locator places
// the parts of a JSON value in the file itself.
func (d *reader) readResultFile(n *yaml.Node, what string) (json.RawMessage, locator, bool) {
	rel, node, ok := d.Text(n, what)
	if !ok {
		return nil, locator{}, false
	}
	at := d.Pos(node)
	if rel == "" {
		d.Errorf(node, "%s is empty: name a file, e.g. fixtures/check_stock.json", what)
		return nil, locator{}, false
	}
	path := rel
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(d.File), filepath.FromSlash(rel))
	}
	data, err := d.read(path)
	if err != nil {
		d.Errorf(node, "%s: %s: %v", what, rel, err)
		return nil, locator{}, false
	}
	if !utf8.Valid(data) {
		d.Errorf(node, "%s: %s is not valid UTF-8 text", what, rel)
		return nil, locator{}, false
	}
	if !strings.EqualFold(filepath.Ext(path), ".json") {
		var buf bytes.Buffer
		writeString(&buf, string(data))
		return buf.Bytes(), locator{at: at}, true
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, data); err != nil || !oneValue(data) {
		d.Diags.Add(jsonErrorPos(path, data), "%s: %s is not one JSON value%s", what, rel, jsonWhy(err))
		return nil, locator{}, false
	}
	return compact.Bytes(), locator{file: path, root: yamlRoot(data), at: at}, true
}

// readLimited reads a file of at most limit bytes.
func readLimited(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read file: %w", decode.UnwrapPath(err))
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, errors.New("it is a directory, not a file")
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read file: %w", decode.UnwrapPath(err))
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("file is larger than %d MiB", limit>>20)
	}
	return data, nil
}

// oneValue reports whether data holds a single JSON value (Compact takes
// several).
func oneValue(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	var v json.RawMessage
	if dec.Decode(&v) != nil {
		return false
	}
	_, err := dec.Token()
	return errors.Is(err, io.EOF)
}

// jsonErrorPos places a JSON syntax error in its file (its start when the
// error has no offset).
func jsonErrorPos(path string, data []byte) diag.Pos {
	off := 0
	var v any
	var se *json.SyntaxError
	if err := json.Unmarshal(data, &v); errors.As(err, &se) {
		off = int(se.Offset) - 1
	} else if err == nil {
		// A second value: it starts after the first.
		dec := json.NewDecoder(bytes.NewReader(data))
		_ = dec.Decode(&v)
		off = int(dec.InputOffset())
		for off < len(data) && strings.IndexByte(" \t\r\n", data[off]) >= 0 {
			off++
		}
	}
	off = min(max(off, 0), len(data))
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:]) + 1
	return diag.Pos{File: path, Line: line, Col: col}
}

// jsonWhy is ": <why>" for a syntax error, "" otherwise.
func jsonWhy(err error) string {
	if err == nil {
		return ": more follows the first value"
	}
	return ": " + strings.TrimPrefix(err.Error(), "json: ")
}

// yamlRoot parses a JSON file as YAML for the positions of its values
// alone; nil when it does not read as YAML.
func yamlRoot(data []byte) (root *yaml.Node) {
	defer func() {
		if recover() != nil {
			root = nil
		}
	}()
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return nil
	}
	return doc.Content[0]
}
