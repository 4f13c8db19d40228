package spec

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

// A dataset (*.ananke.jsonl, docs/datasets.md) holds one test case per line:
//
//	{"id": "T001", "input": "Hello", "assertions": [{"type": "contains", "value": "Hi"}]}
//
// Each case becomes a Test like a test file's, at its line, so it runs on
// the same engine and appears in every report as one test.

// maxDatasetSize bounds a dataset file: thousands of conversations, not a
// mistaken log.
const maxDatasetSize = 64 << 20

// DatasetExt is the extension of dataset files.
const DatasetExt = ".ananke.jsonl"

// IsDataset reports whether name is a dataset file name.
func IsDataset(name string) bool { return strings.HasSuffix(name, DatasetExt) }

var (
	caseFields = append([]string{"id", "name", "input", "assertions", "assert", "options", "before", "after",
		"tags", "skip", "tools", "simulator", "max_turns", "timeout", "timeout_ms", "checkpoints"}, stabilityFields...)
)

// LoadDataset reads a dataset, adding the problems of every line to diags.
// Each case's id is the file's default id, "/", and the case's own id.
func LoadDataset(path, root string, diags *diag.Diagnostics) []*Test {
	data, err := readFile(path, maxDatasetSize)
	if err != nil {
		diags.Add(diag.Pos{File: path}, "%v", err)
		return nil
	}
	file := diag.Pos{File: path, Line: 1, Col: 1}
	switch {
	case bytes.IndexByte(data, 0) >= 0:
		diags.Add(file, "not a text file (it contains NUL bytes)")
		return nil
	case !utf8.Valid(data):
		diags.Add(file, "file is not valid UTF-8")
		return nil
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	l := &loader{Decoder: &decode.Decoder{File: path, Diags: diags}, dataset: true}
	base := defaultID(path, root)
	var tests []*Test
	seen := map[string]int{}
	before := len(*diags)
	for i, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		n, d := decode.JSONNode(line, i+1)
		if d != nil {
			d.Pos.File = path
			*diags = append(*diags, *d)
			continue
		}
		t := l.testCase(n)
		if t == nil {
			continue
		}
		if first, dup := seen[t.ID]; dup {
			diags.Add(t.Pos, "case id %q is also used on line %d; ids must be unique in a dataset", t.ID, first)
			continue
		}
		seen[t.ID] = t.Pos.Line
		t.ID = base + "/" + t.ID
		tests = append(tests, t)
	}
	if len(tests) == 0 && len(*diags) == before {
		diags.Add(file, "dataset is empty: write one JSON object (a test case) per line")
	}
	return tests
}

// testCase reads one line's case.
func (l *loader) testCase(n *yaml.Node) *Test {
	if n.Kind != yaml.MappingNode {
		l.Errorf(n, "a line holds one test case, a JSON object like {\"id\": \"T1\", \"input\": \"Hello\"}, not %s", decode.KindName(n))
		return nil
	}
	t := &Test{Path: l.File, Pos: l.Pos(n)}
	f, ok := l.Fields(n, "case", caseFields)
	if !ok {
		return nil
	}
	l.Require(n, f, "case", "id")
	if p, ok := f["id"]; ok {
		id, ok := l.Name(p.Val, "id")
		if !ok {
			return nil
		}
		if strings.ContainsAny(id.Value, "/\\") {
			l.Errorf(p.Val, "id %q cannot contain / or \\: it becomes part of the test's id and file names", id.Value)
		}
		t.ID = id.Value
	}
	_, hasSim := f["simulator"]
	if _, ok := f["input"]; !ok && !hasSim {
		l.Errorf(n, "case is missing required field \"input\" (or a simulator)")
	}
	if p, ok := f["input"]; ok {
		if turn, ok := l.caseInput(p.Val, t); ok {
			t.Turns = []Turn{turn}
		}
	}
	l.caseName(f, t)
	t.Tags = l.tags(f)
	if p, ok := f["skip"]; ok {
		t.Skip = l.caseSkip(p.Val)
	}
	if p, ok := f["options"]; ok {
		if v := l.Deref(p.Val); v != nil && v.Kind != yaml.MappingNode {
			l.Errorf(v, "options must be an object (it is sent as forwardedProps), not %s", decode.KindName(v))
		} else {
			t.ForwardedProps, _ = l.Value(p.Val, "options")
		}
	}
	if p, ok := f["before"]; ok {
		t.Hooks = l.caseHooks(p.Val, "before")
	}
	if p, ok := f["after"]; ok {
		t.After = l.caseHooks(p.Val, "after")
	}
	if p, ok := f["tools"]; ok {
		t.Tools = l.clientTools(p.Val)
	}
	t.Stability = l.stability(f, "")
	l.caseTimeout(f)
	l.dynamic(f, n, t)
	l.caseAssertions(f, t)
	return t
}

// caseInput reads input: a string, one message, or a message list whose
// last message is the user's turn (the earlier ones become the history).
func (l *loader) caseInput(n *yaml.Node, t *Test) (Turn, bool) {
	m := l.Deref(n)
	if m == nil {
		return Turn{}, false
	}
	turn := Turn{Pos: l.Pos(m), Type: TurnUser}
	var msgs []*yaml.Node
	switch m.Kind {
	case yaml.ScalarNode:
		if m.ShortTag() == "!!null" {
			l.Errorf(m, "input must be a string, a message or a list of messages, not null")
			return Turn{}, false
		}
		turn.User, _ = l.Template(m, "input")
		return turn, true
	case yaml.MappingNode:
		msgs = []*yaml.Node{m}
	case yaml.SequenceNode:
		msgs = m.Content
		if len(msgs) == 0 {
			l.Errorf(m, "input is an empty list: the last message must be the user's")
			return Turn{}, false
		}
	default:
		l.Errorf(m, "input must be a string, a message or a list of messages, not %s", decode.KindName(m))
		return Turn{}, false
	}
	for i, item := range msgs {
		what := "input"
		if m.Kind == yaml.SequenceNode {
			what = decode.Index("input", i)
		}
		msg := l.message(item, what)
		if i < len(msgs)-1 {
			t.History = append(t.History, msg)
			continue
		}
		if msg.Role != "" && msg.Role != "user" {
			l.Errorf(l.DerefQuiet(item), "%s: the last message of input is the one the agent answers, so its role must be user, not %q", what, msg.Role)
			return Turn{}, false
		}
		turn.Pos, turn.User, turn.Parts = msg.Pos, msg.Content, msg.Parts
	}
	return turn, true
}

// caseName is the case's name, or its id and the start of its message.
func (l *loader) caseName(f map[string]decode.Pair, t *Test) {
	if p, ok := f["name"]; ok {
		t.Name, _ = l.Name(p.Val, "name")
		return
	}
	t.Name = vars.Name{Value: t.ID, Pos: t.Pos}
	if len(t.Turns) > 0 {
		if s := strings.Join(strings.Fields(t.Turns[0].User.Raw), " "); s != "" {
			t.Name.Value += ": " + shorten(s, 60)
		}
	}
}

// shorten cuts s to at most n runes, marking the cut with "…".
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// caseSkip reads skip: a reason, or true.
func (l *loader) caseSkip(n *yaml.Node) string {
	s, ok := l.Scalar(n, "skip", "a reason or true")
	if !ok {
		return ""
	}
	if s.ShortTag() == "!!bool" {
		if s.Value == "true" {
			return "skip: true in the dataset"
		}
		return ""
	}
	return s.Value
}

// caseHooks reads before or after: one hook or a list of them.
func (l *loader) caseHooks(n *yaml.Node, what string) []Hook {
	m := l.Deref(n)
	if m == nil {
		return nil
	}
	switch m.Kind {
	case yaml.MappingNode:
		return []Hook{l.hook(m, what)}
	case yaml.SequenceNode:
		return l.hooks(m, what)
	}
	l.Errorf(m, "%s takes a hook, {\"cmd\": [\"./prepare.sh\", \"arg\"], \"timeout_ms\": 30000}, or a list of hooks; not %s", what, decode.KindName(m))
	return nil
}

// caseTimeout reads timeout ("2m") as timeout_ms.
func (l *loader) caseTimeout(f map[string]decode.Pair) {
	p, ok := f["timeout"]
	if !ok {
		return
	}
	if _, both := f["timeout_ms"]; both {
		l.Errorf(p.Key, "set timeout or timeout_ms, not both")
		return
	}
	s, node, ok := l.Text(p.Val, "timeout")
	if !ok {
		return
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 || d.Milliseconds() > math.MaxInt32 {
		l.Errorf(node, "timeout %q is not a positive duration like \"90s\" or \"2m\"", s)
		return
	}
	// The simulated conversation's bound, read like timeout_ms.
	ms := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(d.Milliseconds(), 10), Line: node.Line, Column: node.Column}
	f["timeout_ms"] = decode.Pair{Key: p.Key, Val: ms}
	delete(f, "timeout")
}

// caseAssertions reads assertions (or its alias assert): a list of
// vocabulary items, or an assert block. A case with scripted input checks
// them on its turn; a dynamic case over the whole conversation.
func (l *loader) caseAssertions(f map[string]decode.Pair, t *Test) {
	p, ok := f["assertions"]
	key := "assertions"
	if alt, ok2 := f["assert"]; ok2 {
		if ok {
			l.Errorf(alt.Key, "assert is another name for assertions; set one")
			return
		}
		p, ok, key = alt, true, "assert"
	}
	if !ok {
		return
	}
	var b *assertion.Block
	if m := l.Deref(p.Val); m != nil && m.Kind == yaml.MappingNode {
		b = assertion.ReadBlock(l.Decoder, m, key)
	} else {
		b = assertion.ReadVocabulary(l.Decoder, p.Val, key)
	}
	if len(t.Turns) == 1 && t.Simulator == nil {
		t.Turns[0].Assert = b
		return
	}
	t.Assert = b
}
