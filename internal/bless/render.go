package bless

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/snapshot"
)

// Output is a blessed test file: its text, and the entries of its
// snapshot file (snapshot.Path of the file) — the snapshot check's, when
// it is kept.
type Output struct {
	Data      []byte
	Snapshots map[snapshot.Key]snapshot.Snapshot
}

// Render returns the blessed test file of c with checks, to be written at
// out (its relative paths are written from there): the test file's own
// turns when it has one, else a transcript as its source, else turns
// rebuilt from its trace.
func Render(c *Conversation, checks []Check, out string) (*Output, error) {
	var (
		doc   *yaml.Node
		blank map[string]bool
		err   error
	)
	switch {
	case c.File != "":
		doc, blank, err = fromFile(c, out)
	case c.Source != nil:
		doc = fromSource(c, out)
	default:
		doc, err = fromTrace(c)
	}
	if err != nil {
		return nil, err
	}
	root := doc.Content[0]
	if err := place(root, checks); err != nil {
		return nil, err
	}
	snaps := snapshots(root, checks, out)
	if get(root, "assert") != nil {
		if blank == nil {
			blank = map[string]bool{}
		}
		blank["assert"] = true
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("write the blessed test: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("write the blessed test: %w", err)
	}
	return &Output{Data: spaced(b.Bytes(), blank), Snapshots: snaps}, nil
}

// snapshots are the entries of the snapshot checks, keyed by the blessed
// test's id — written into it when it has none (a transcript's test,
// whose default id would depend on where the suite's config is: its
// file's name then) — and the id a run gives the test's snapshot.
func snapshots(root *yaml.Node, checks []Check, out string) map[snapshot.Key]snapshot.Snapshot {
	var entries map[snapshot.Key]snapshot.Snapshot
	for _, c := range checks {
		if c.Kind != Snapshot || c.Snap == nil {
			continue
		}
		id := get(root, "id")
		if id == nil {
			id = str(strings.TrimSuffix(filepath.Base(out), ".ananke.yaml"))
			insertAfter(root, "name", "id", id)
		}
		if entries == nil {
			entries = map[snapshot.Key]snapshot.Snapshot{}
		}
		entries[snapshot.Key{Test: id.Value, Assertion: SnapshotAssertion}] = *c.Snap
	}
	return entries
}

// fromFile is the test file of c with its assertions removed, its id
// written, and its paths moved to out. blank lists the top-level keys a
// blank line stood before.
func fromFile(c *Conversation, out string) (*yaml.Node, map[string]bool, error) {
	src, err := os.ReadFile(c.File)
	if err != nil {
		return nil, nil, fmt.Errorf("read the test file: %w", err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", c.File, err)
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, nil, fmt.Errorf("read %s: not a test file", c.File)
	}
	root := doc.Content[0]
	expand(root)
	blank := blankBefore(src, root)
	del(root, "assert")
	del(root, "assertions")
	if turns := get(root, "turns"); turns != nil {
		turns = resolved(turns)
		if c.Turns > 0 && c.Turns < len(turns.Content) {
			turns.Content = turns.Content[:c.Turns]
		}
		set(root, "turns", turns)
		for i, t := range turns.Content {
			t = resolved(t)
			expand(t)
			del(t, "assert")
			turns.Content[i] = t
		}
	}
	if get(root, "id") == nil && c.ID != "" {
		insertAfter(root, "name", "id", str(c.ID))
	}
	m := newMover(c.File, out)
	m.move(root)
	header(&doc, m, fmt.Sprintf("Blessed by `ananke bless` from %s: the test as %s wrote it, its assertions replaced by those inferred from what the agent did, each under a comment saying from what.", c.From, c.File))
	return &doc, blank, nil
}

// fromSource is a test asserting on the transcript c names.
func fromSource(c *Conversation, out string) *yaml.Node {
	src := mapping("format", str(c.Source.Format), "path", str(relTo(c.Source.Path, out)))
	for _, kv := range [][2]string{{"group", c.Source.Group}, {"session", c.Source.Session}, {"task", c.Source.Task}} {
		if kv[1] != "" {
			src.Content = append(src.Content, str(kv[0]), str(kv[1]))
		}
	}
	root := mapping("version", quoted("1.0"), "name", str(c.Name), "source", src)
	doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}
	header(doc, nil, fmt.Sprintf("Blessed by `ananke bless` from %s: a test that asserts on it, with the assertions inferred from what the agent did, each under a comment saying from what.", c.From))
	return doc
}

// place adds each check to the assert block of its turn or of the test,
// under a comment saying what it was inferred from. A tool's entries with
// arguments stand in the place of its bare tools.require entry, which
// they make redundant.
func place(root *yaml.Node, checks []Check) error {
	withArgs := map[string][]int{}
	for i, c := range checks {
		if c.Kind == Args {
			k := fmt.Sprint(c.Turn, c.Tool)
			withArgs[k] = append(withArgs[k], i)
		}
	}
	placed := map[int]bool{}
	for i, c := range checks {
		if placed[i] {
			continue
		}
		if args := withArgs[fmt.Sprint(c.Turn, c.Tool)]; c.Kind == Require && len(args) > 0 {
			for _, k := range args {
				placed[k] = true
				if err := placeOne(root, checks[k]); err != nil {
					return err
				}
			}
			continue
		}
		if err := placeOne(root, c); err != nil {
			return err
		}
	}
	return nil
}

// placeOne adds a check to the assert block of its turn or of the test.
func placeOne(root *yaml.Node, c Check) error {
	block := root
	if c.Turn != Whole {
		turns := get(root, "turns")
		if turns == nil || c.Turn >= len(turns.Content) {
			return fmt.Errorf("turn %d: the test has no such turn", c.Turn)
		}
		block = turns.Content[c.Turn]
		block.Style = 0 // a block mapping: it takes comments
	}
	m := child(block, "assert")
	for _, k := range c.Section[:len(c.Section)-1] {
		m = child(m, k)
	}
	last := c.Section[len(c.Section)-1]
	v := c.Value
	note := "inferred: " + c.Why
	if !c.List {
		set(m, last, v)
		keyOf(m, last).HeadComment = note
		return nil
	}
	list := get(m, last)
	if list == nil || list.Kind != yaml.SequenceNode {
		list = seq()
		set(m, last, list)
	}
	v.HeadComment = note
	list.Content = append(list.Content, v)
	return nil
}

// keyOf is the key node of key in mapping m.
func keyOf(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i]
		}
	}
	return nil
}

// insertAfter puts key: v after the pair of after in m (first when m has
// none).
func insertAfter(m *yaml.Node, after, key string, v *yaml.Node) {
	at := 0
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == after {
			at = i + 2
		}
	}
	m.Content = append(m.Content[:at], append([]*yaml.Node{str(key), v}, m.Content[at:]...)...)
}

// header writes the file's header comment: after the editor's schema
// modeline, when the file has one (its path moved).
func header(doc *yaml.Node, m *mover, text string) {
	lines := "# " + strings.Join(wrap(text, 78), "\n# ")
	root := doc.Content[0]
	first := root
	if len(root.Content) > 0 {
		first = root.Content[0]
	}
	switch {
	case doc.HeadComment != "":
		doc.HeadComment = m.comment(doc.HeadComment) + "\n#\n" + lines
	case first.HeadComment != "":
		doc.HeadComment = m.comment(first.HeadComment) + "\n#\n" + lines
		first.HeadComment = ""
	default:
		doc.HeadComment = lines
	}
}

// wrap breaks text into lines of at most width characters.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}

// blankBefore lists the top-level keys of root that a blank line stood
// before in src (above their comments).
func blankBefore(src []byte, root *yaml.Node) map[string]bool {
	lines := strings.Split(string(src), "\n")
	out := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := root.Content[i]
		l := k.Line - 2 // the line above, 0-based
		for l >= 0 && strings.HasPrefix(strings.TrimSpace(lines[l]), "#") {
			l--
		}
		if l >= 0 && strings.TrimSpace(lines[l]) == "" && i > 0 {
			out[k.Value] = true
		}
	}
	return out
}

// spaced puts a blank line before each top-level key of blank (above its
// comments), as the original file had.
func spaced(b []byte, blank map[string]bool) []byte {
	lines := strings.SplitAfter(string(b), "\n")
	var out []string
	for i, line := range lines {
		out = append(out, line)
		key, _, ok := strings.Cut(line, ":")
		if !ok || line == "" || line[0] == ' ' || line[0] == '#' || line[0] == '-' || !blank[key] {
			continue
		}
		at := len(out) - 1
		for at > 0 && strings.HasPrefix(out[at-1], "#") {
			at--
		}
		if at > 0 && i > 0 {
			out = append(out[:at], append([]string{"\n"}, out[at:]...)...)
		}
	}
	return []byte(strings.Join(out, ""))
}
