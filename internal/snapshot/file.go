package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// The snapshot file of a test file: __snapshots__/<name>.snap.yaml beside
// it, <name> its base name without its last extension
// (weather.ananke.yaml → __snapshots__/weather.ananke.snap.yaml). It
// holds the snapshots of every test of the file, by test id, then by
// assertion id:
//
//	# (header)
//	version: 1
//	snapshots:
//	  weather:
//	    turn[0].snapshot:
//	      turns:
//	        - turn: 0
//	          calls:
//	            - tool: get_weather
//	              arguments:
//	                city: Paris
//	          text:
//	            structure:
//	              - 1 paragraph
//
// Tests, assertions and argument members are written in order, so the
// same snapshots always make the same bytes.

// Dir is the directory snapshot files are written in, beside the test
// files.
const Dir = "__snapshots__"

// FileVersion is the version of the snapshot file format.
const FileVersion = 1

// header opens every snapshot file.
const header = `# Snapshots of this test file's snapshot assertions (docs/snapshots.md),
# written by ` + "`ananke run -u`" + ` or ` + "`ananke bless`" + `. Commit this file, and review its
# changes as you review code: each one is a change in what the agent did.
`

// Path is the snapshot file of a test file.
func Path(testFile string) string {
	base := filepath.Base(testFile)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	return filepath.Join(filepath.Dir(testFile), Dir, stem+".snap.yaml")
}

// Key names an entry: a test's id and one of its snapshot assertions'
// id ("turn[0].snapshot", "test.snapshot").
type Key struct {
	Test, Assertion string
}

// File is a snapshot file's entries.
type File struct {
	Entries map[Key]Snapshot
}

// Marshal writes the file: the header, then its entries in order.
func (f *File) Marshal() []byte {
	byTest := map[string]map[string]Snapshot{}
	for k, s := range f.Entries {
		if byTest[k.Test] == nil {
			byTest[k.Test] = map[string]Snapshot{}
		}
		byTest[k.Test][k.Assertion] = s
	}
	tests := mapping()
	for _, id := range slices.Sorted(maps.Keys(byTest)) {
		entries := mapping()
		for _, aid := range slices.Sorted(maps.Keys(byTest[id])) {
			add(entries, aid, snapshotNode(byTest[id][aid]))
		}
		add(tests, id, entries)
	}
	root := mapping()
	add(root, "version", &yaml.Node{Kind: yaml.ScalarNode, Value: strconv.Itoa(FileVersion)})
	add(root, "snapshots", tests)
	var b bytes.Buffer
	b.WriteString(header)
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		panic(fmt.Sprintf("snapshot: encode a file: %v", err)) // nodes built here always encode
	}
	enc.Close()
	return b.Bytes()
}

func mapping() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode} }

// str is a string's node; the bytes of s that are not UTF-8, which YAML
// cannot hold, become U+FFFD (Take never keeps any). A string of several
// lines is double-quoted, its breaks escaped: as a block, the YAML
// encoder drops a leading line break.
func str(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: strings.ToValidUTF8(s, "\uFFFD")}
	if strings.ContainsAny(n.Value, "\n\r\u0085\u2028\u2029") {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

func add(m *yaml.Node, key string, v *yaml.Node) { m.Content = append(m.Content, str(key), v) }

func snapshotNode(s Snapshot) *yaml.Node {
	turns := &yaml.Node{Kind: yaml.SequenceNode}
	for _, t := range s.Turns {
		tn := mapping()
		add(tn, "turn", &yaml.Node{Kind: yaml.ScalarNode, Value: strconv.Itoa(t.Index)})
		if len(t.Calls) > 0 {
			calls := &yaml.Node{Kind: yaml.SequenceNode}
			for _, c := range t.Calls {
				cn := mapping()
				add(cn, "tool", str(c.Name))
				if c.Args != nil {
					add(cn, "arguments", valueNode(c.Args))
				}
				calls.Content = append(calls.Content, cn)
			}
			add(tn, "calls", calls)
		}
		if r := t.Reply; r != nil {
			lines := &yaml.Node{Kind: yaml.SequenceNode}
			for _, l := range r.Lines {
				lines.Content = append(lines.Content, str(l))
			}
			text := mapping()
			add(text, string(r.Mode), lines)
			add(tn, "text", text)
		}
		turns.Content = append(turns.Content, tn)
	}
	n := mapping()
	add(n, "turns", turns)
	return n
}

func valueNode(v any) *yaml.Node {
	switch x := v.(type) {
	case map[string]any:
		m := mapping()
		for _, k := range slices.Sorted(maps.Keys(x)) {
			add(m, k, valueNode(x[k]))
		}
		return m
	case []any:
		s := &yaml.Node{Kind: yaml.SequenceNode}
		for _, e := range x {
			s.Content = append(s.Content, valueNode(e))
		}
		return s
	case string:
		return str(x)
	case json.Number:
		return &yaml.Node{Kind: yaml.ScalarNode, Value: string(x)}
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(x)}
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
}

// Read reads a snapshot file strictly: every key known, every value of
// its type, no key twice, no anchors or aliases, turns in order. Its
// errors name the line.
func Read(data []byte) (*File, error) {
	var doc, more yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if err := dec.Decode(&more); !errors.Is(err, io.EOF) {
		return nil, errors.New("a snapshot file holds one YAML document")
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, fmt.Errorf("the file is empty: it holds version: %d and the snapshots", FileVersion)
	}
	r := fileReader{}
	root := r.fields(doc.Content[0], "the file", "version", "snapshots")
	if r.err != nil {
		return nil, r.err
	}
	f := &File{Entries: map[Key]Snapshot{}}
	v, ok := root["version"]
	if !ok {
		return nil, lineErr(doc.Content[0], "no version: want version: %d", FileVersion)
	}
	if v.Kind != yaml.ScalarNode || v.Value != strconv.Itoa(FileVersion) || v.ShortTag() != "!!int" {
		return nil, lineErr(v, "version %q: this Ananke reads version %d", v.Value, FileVersion)
	}
	tests, ok := root["snapshots"]
	if !ok {
		return nil, lineErr(doc.Content[0], "no snapshots: (an empty file has snapshots: {})")
	}
	for _, tp := range r.pairs(tests, "snapshots") {
		for _, ap := range r.pairs(tp.val, "test "+strconv.Quote(tp.key)) {
			s := r.snapshot(ap.val)
			if r.err != nil {
				return nil, r.err
			}
			f.Entries[Key{Test: tp.key, Assertion: ap.key}] = s
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	return f, nil
}

func lineErr(n *yaml.Node, format string, args ...any) error {
	return fmt.Errorf("line %d: %s", n.Line, fmt.Sprintf(format, args...))
}

// fileReader reads nodes, keeping the first problem.
type fileReader struct {
	err error
}

func (r *fileReader) fail(n *yaml.Node, format string, args ...any) {
	if r.err == nil {
		r.err = lineErr(n, format, args...)
	}
}

type pair struct {
	key     string
	keyNode *yaml.Node
	val     *yaml.Node
}

// pairs reads a mapping whose keys are strings, each once, in order;
// none empty.
func (r *fileReader) pairs(n *yaml.Node, what string) []pair { return r.mapping(n, what, false) }

// mapping reads a mapping whose keys are strings, each once, in order;
// empty ones too when emptyKeys.
func (r *fileReader) mapping(n *yaml.Node, what string, emptyKeys bool) []pair {
	if r.err != nil {
		return nil
	}
	if !r.plain(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		r.fail(n, "%s must be a mapping", what)
		return nil
	}
	var out []pair
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !r.plain(k) || !r.plain(v) {
			return nil
		}
		if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" {
			r.fail(k, "%s: a key must be a string", what)
			return nil
		}
		if k.Value == "" && !emptyKeys {
			r.fail(k, "%s: a key is empty", what)
			return nil
		}
		if seen[k.Value] {
			r.fail(k, "%s: %q is written twice", what, k.Value)
			return nil
		}
		seen[k.Value] = true
		out = append(out, pair{key: k.Value, keyNode: k, val: v})
	}
	return out
}

// plain rejects anchors, aliases and merge keys: a snapshot file is
// written by Ananke, which never writes them.
func (r *fileReader) plain(n *yaml.Node) bool {
	switch {
	case n.Kind == yaml.AliasNode || n.Anchor != "":
		r.fail(n, "anchors and aliases are not allowed in a snapshot file")
		return false
	case n.Kind == yaml.ScalarNode && n.ShortTag() == "!!merge":
		r.fail(n, "merge keys (<<) are not allowed in a snapshot file")
		return false
	}
	return true
}

// fields reads a mapping of the known keys alone.
func (r *fileReader) fields(n *yaml.Node, what string, known ...string) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	for _, p := range r.pairs(n, what) {
		if !slices.Contains(known, p.key) {
			r.fail(p.keyNode, "%s: unknown key %q (known: %s)", what, p.key, strings.Join(known, ", "))
			return nil
		}
		out[p.key] = p.val
	}
	return out
}

func (r *fileReader) seq(n *yaml.Node, what string) []*yaml.Node {
	if r.err != nil || !r.plain(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		r.fail(n, "%s must be a list", what)
		return nil
	}
	return n.Content
}

func (r *fileReader) snapshot(n *yaml.Node) Snapshot {
	f := r.fields(n, "a snapshot", "turns")
	turns, ok := f["turns"]
	if r.err == nil && !ok {
		r.fail(n, "a snapshot has no turns")
	}
	s := Snapshot{Turns: []Turn{}}
	for _, tn := range r.seq(turns, "turns") {
		t := r.turn(tn)
		if r.err != nil {
			return s
		}
		if k := len(s.Turns); k > 0 && t.Index <= s.Turns[k-1].Index {
			r.fail(tn, "turn %d comes after turn %d: turns are in order, each once", t.Index, s.Turns[k-1].Index)
			return s
		}
		s.Turns = append(s.Turns, t)
	}
	return s
}

func (r *fileReader) turn(n *yaml.Node) Turn {
	f := r.fields(n, "a turn", "turn", "calls", "text")
	t := Turn{Calls: []Call{}}
	in, ok := f["turn"]
	if r.err != nil {
		return t
	}
	if !ok {
		r.fail(n, "a turn has no turn: (its index, from 0)")
		return t
	}
	idx, err := strconv.Atoi(in.Value)
	if in.Kind != yaml.ScalarNode || in.ShortTag() != "!!int" || err != nil || idx < 0 || strconv.Itoa(idx) != in.Value {
		r.fail(in, "turn %q is not an index from 0", in.Value)
		return t
	}
	t.Index = idx
	if cs, ok := f["calls"]; ok {
		for _, cn := range r.seq(cs, "calls") {
			t.Calls = append(t.Calls, r.call(cn))
		}
	}
	if tx, ok := f["text"]; ok {
		t.Reply = r.reply(tx)
	}
	return t
}

func (r *fileReader) call(n *yaml.Node) Call {
	f := r.fields(n, "a call", "tool", "arguments")
	var c Call
	if r.err != nil {
		return c
	}
	tool, ok := f["tool"]
	if !ok {
		r.fail(n, "a call has no tool")
		return c
	}
	c.Name = r.text(tool, "tool")
	if c.Name == "" && r.err == nil {
		r.fail(tool, "a call's tool is empty")
	}
	if a, ok := f["arguments"]; ok {
		c.Args = r.value(a)
	}
	return c
}

func (r *fileReader) text(n *yaml.Node, what string) string {
	if r.err != nil || !r.plain(n) {
		return ""
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		r.fail(n, "%s must be a string", what)
		return ""
	}
	return n.Value
}

func (r *fileReader) reply(n *yaml.Node) *Reply {
	ps := r.pairs(n, "text")
	if r.err != nil {
		return nil
	}
	if len(ps) != 1 || !slices.Contains([]string{string(TextStructure), string(TextExact)}, ps[0].key) {
		r.fail(n, "text holds one of structure or exact")
		return nil
	}
	rep := &Reply{Mode: Text(ps[0].key), Lines: []string{}}
	for _, ln := range r.seq(ps[0].val, "text."+ps[0].key) {
		rep.Lines = append(rep.Lines, r.text(ln, "a line of text."+ps[0].key))
	}
	return rep
}

var jsonNumberRE = lazyRE(`^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$`)

// value reads an argument value: a JSON value written in YAML.
func (r *fileReader) value(n *yaml.Node) any {
	if r.err != nil || !r.plain(n) {
		return nil
	}
	switch n.Kind {
	case yaml.MappingNode:
		m := map[string]any{}
		for _, p := range r.mapping(n, "an argument object", true) {
			m[p.key] = r.value(p.val)
		}
		return m
	case yaml.SequenceNode:
		s := make([]any, 0, len(n.Content))
		for _, e := range n.Content {
			s = append(s, r.value(e))
		}
		return s
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!str":
			return n.Value
		case "!!int", "!!float":
			if jsonNumberRE().MatchString(n.Value) {
				return json.Number(n.Value)
			}
		case "!!bool":
			if n.Value == "true" || n.Value == "false" {
				return n.Value == "true"
			}
		case "!!null":
			if n.Value == "null" {
				return nil
			}
		}
	}
	r.fail(n, "%q is not a JSON value as snapshot files write them (a string, a number, true, false, null, a list or a mapping)", n.Value)
	return nil
}
