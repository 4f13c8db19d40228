package bless

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// fileKeys hold a file relative to the test file (docs/files.md): fixture
// files, a resume's payload and schema.
var fileKeys = map[string]bool{"result_file": true, "output_file": true, "payload_file": true, "schema": true}

// mover rewrites the relative paths of a test file moved from one
// directory to another, so that they name the same files.
type mover struct{ from, to string }

// newMover is the mover from the directory of file from to that of file
// to; nil when they are the same directory.
func newMover(from, to string) *mover {
	a, err1 := filepath.Abs(filepath.Dir(from))
	b, err2 := filepath.Abs(filepath.Dir(to))
	if err1 != nil || err2 != nil || a == b {
		return nil
	}
	return &mover{from: a, to: b}
}

// path is p, relative to the old directory, relative to the new one;
// ok is false for what is not a relative path of an existing file
// (absolute, ~, a ${…} reference, nothing there).
func (m *mover) path(p string) (string, bool) {
	if p == "" || filepath.IsAbs(p) || strings.HasPrefix(p, "~") || strings.Contains(p, "${") {
		return "", false
	}
	old := filepath.Join(m.from, filepath.FromSlash(p))
	if _, err := os.Stat(old); err != nil {
		return "", false
	}
	rel, err := filepath.Rel(m.to, old)
	if err != nil {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// move rewrites the paths in a test file's tree: the fixture keys, file://
// attachments, a source's path, and the arguments of hooks' commands that
// name a file beside the test (a hook runs in its test file's directory).
func (m *mover) move(root *yaml.Node) {
	if m == nil {
		return
	}
	m.walk(root, "")
	if src := get(root, "source"); src != nil {
		m.scalar(get(src, "path"))
	}
	for _, hooks := range []string{"hooks", "after"} {
		if list := get(root, hooks); list != nil && list.Kind == yaml.SequenceNode {
			for _, h := range list.Content {
				if cmd := get(h, "cmd"); cmd != nil && cmd.Kind == yaml.SequenceNode {
					for i, a := range cmd.Content {
						if i > 0 || strings.Contains(a.Value, "/") {
							m.scalar(a)
						}
					}
				}
			}
		}
	}
}

func (m *mover) walk(n *yaml.Node, key string) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i].Value, n.Content[i+1]
			switch {
			case fileKeys[k] && v.Kind == yaml.ScalarNode:
				m.scalar(v)
			case k == "source" && v.Kind == yaml.ScalarNode && strings.HasPrefix(v.Value, "file://"):
				if p, ok := m.path(strings.TrimPrefix(v.Value, "file://")); ok {
					v.Value = "file://" + p
				}
			default:
				m.walk(v, k)
			}
		}
	case yaml.SequenceNode, yaml.DocumentNode:
		for _, c := range n.Content {
			m.walk(c, key)
		}
	}
}

func (m *mover) scalar(n *yaml.Node) {
	if n != nil && n.Kind == yaml.ScalarNode {
		if p, ok := m.path(n.Value); ok {
			n.Value = p
		}
	}
}

// schemaLine is an editor's schema modeline, whose path is relative too.
var schemaLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\$schema=)(\S+)`) })

// comment rewrites a relative $schema path in a comment.
func (m *mover) comment(c string) string {
	if m == nil {
		return c
	}
	return schemaLine().ReplaceAllStringFunc(c, func(s string) string {
		sub := schemaLine().FindStringSubmatch(s)
		if strings.Contains(sub[2], "://") {
			return s
		}
		if p, ok := m.path(sub[2]); ok {
			return sub[1] + p
		}
		return s
	})
}

// relTo is path, as found from the working directory, relative to the
// directory of the file out (a source's path is relative to its test).
func relTo(path, out string) string {
	a, err1 := filepath.Abs(path)
	b, err2 := filepath.Abs(filepath.Dir(out))
	if err1 != nil || err2 != nil {
		return filepath.ToSlash(path)
	}
	rel, err := filepath.Rel(b, a)
	if err != nil {
		return filepath.ToSlash(a)
	}
	return filepath.ToSlash(rel)
}
