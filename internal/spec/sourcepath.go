package spec

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/source/claude"
	"github.com/ananke/action/internal/vars"
)

// Selections of a claude-transcript source's sessions.
const (
	SelectAll    = "all"
	SelectNewest = "newest"
)

var selections = []string{SelectAll, SelectNewest}

// session is one session transcript a claude-transcript source names.
type session struct {
	abs, display string
	// id is what the test of this session adds to its id: the file's
	// name without .jsonl.
	id string
}

// expandHome resolves a source path's ~ and ${ENV.NAME} with the
// environment the suite loads in. Other references are an error: the
// path is read when the suite loads, before any variable has a value.
func (l *loader) expandHome(node *yaml.Node, p string) (string, bool) {
	lookup := l.env
	if lookup == nil {
		lookup = func(string) (string, bool) { return "", false }
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		home, ok := lookup("HOME")
		if !ok || home == "" {
			l.Errorf(node, "source.path: ~ needs HOME, which is not set")
			return "", false
		}
		p = home + p[1:]
	}
	var b strings.Builder
	last, ok := 0, true
	for _, loc := range vars.RefSpans(p) {
		b.WriteString(p[last:loc[0]])
		ref := p[loc[0]:loc[1]]
		last = loc[1]
		if ref == "$${" {
			b.WriteString("${")
			continue
		}
		name, isEnv := strings.CutPrefix(ref[2:len(ref)-1], "ENV.")
		if !isEnv {
			l.Errorf(node, "source.path: %s cannot be used here: the path is read when the suite loads; use ${ENV.NAME} or ~", ref)
			ok = false
			continue
		}
		v, set := lookup(name)
		if !set {
			l.Errorf(node, "source.path: environment variable %s is not set (referenced as %s)", name, ref)
			ok = false
			continue
		}
		b.WriteString(v)
	}
	b.WriteString(p[last:])
	return b.String(), ok
}

// claudeSessions finds the sessions a claude-transcript source names: a
// transcript, every transcript of a folder, or of the files and folders a
// glob matches; with select: newest, the one active last. Each is
// displayed as the path was written, so that origins and messages name
// what the user wrote ("~/.claude/projects/x/abc.jsonl:14").
func (l *loader) claudeSessions(node *yaml.Node, s *Source) []session {
	written := strings.TrimSuffix(filepath.ToSlash(s.Path), "/")
	var out []session
	if hasMeta(written) {
		static := staticPart(written)
		staticAbs := filepath.Dir(l.File)
		if static != "" {
			if v, ok := l.expandHome(node, static); ok {
				staticAbs = v
				if !filepath.IsAbs(v) {
					staticAbs = filepath.Join(filepath.Dir(l.File), filepath.FromSlash(v))
				}
			}
		}
		matches, err := filepath.Glob(s.Abs)
		if err != nil {
			l.Errorf(node, "source.path: %s is not a valid pattern: %v", s.Path, err)
			return nil
		}
		if len(matches) == 0 {
			l.Errorf(node, "source.path: %s matches no file", s.Path)
			return nil
		}
		for _, m := range matches {
			rel, err := filepath.Rel(staticAbs, m)
			shown := filepath.ToSlash(rel)
			if static != "" {
				shown = static + "/" + shown
			}
			if err != nil {
				shown = filepath.ToSlash(m)
			}
			out = append(out, l.sessionsAt(node, m, shown)...)
		}
	} else {
		st, err := os.Stat(s.Abs)
		switch {
		case err != nil:
			l.Errorf(node, "source.path: %s: %v", s.Path, decode.UnwrapPath(err))
			return nil
		case !st.IsDir():
			return []session{{abs: s.Abs, display: s.Path, id: strings.TrimSuffix(filepath.Base(s.Abs), ".jsonl")}}
		}
		out = l.sessionsAt(node, s.Abs, written)
	}
	if len(out) == 0 {
		l.Errorf(node, "source.path: %s holds no Claude Code session (a .jsonl transcript)", s.Path)
		return nil
	}
	if s.Select == SelectNewest {
		files := make([]string, len(out))
		for i, se := range out {
			files[i] = se.abs
		}
		newest := claude.Newest(files)
		for _, se := range out {
			if se.abs == newest {
				return []session{se}
			}
		}
	}
	return out
}

// sessionsAt is the session at abs, a transcript, or every transcript of
// the folder abs; shown is abs as the user sees it.
func (l *loader) sessionsAt(node *yaml.Node, abs, shown string) []session {
	st, err := os.Stat(abs)
	if err != nil {
		l.Errorf(node, "source.path: %s: %v", shown, decode.UnwrapPath(err))
		return nil
	}
	if !st.IsDir() {
		if !strings.HasSuffix(abs, ".jsonl") {
			return nil // a glob's match that is no transcript
		}
		return []session{{abs: abs, display: shown, id: strings.TrimSuffix(path.Base(shown), ".jsonl")}}
	}
	files, err := claude.Sessions(abs)
	if err != nil {
		l.Errorf(node, "source.path: %s: %v", shown, decode.UnwrapPath(err))
		return nil
	}
	var out []session
	for _, f := range files {
		name := filepath.Base(f)
		out = append(out, session{abs: f, display: shown + "/" + name, id: strings.TrimSuffix(name, ".jsonl")})
	}
	return out
}

// hasMeta reports whether p is a glob pattern.
func hasMeta(p string) bool { return strings.ContainsAny(p, "*?[") }

// staticPart is a slash path up to its first segment with a glob
// character: "~/.claude/projects/*/x.jsonl" → "~/.claude/projects".
func staticPart(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if hasMeta(s) {
			return strings.Join(segs[:i], "/")
		}
	}
	return p
}

// expandSessions makes a test of each session of a claude-transcript
// source that names a folder or a glob: its id and name end with the
// session's ("<id>/<session>", "<name> (<session>)"). A source that
// names one transcript, or selects the newest, stays one test.
func expandSessions(tests []*Test) []*Test {
	var out []*Test
	for _, t := range tests {
		if t.Source == nil || t.sessions == nil {
			out = append(out, t)
			continue
		}
		if !t.expand {
			src := *t.Source
			src.Abs, src.Path = t.sessions[0].abs, t.sessions[0].display
			t.Source, t.sessions = &src, nil
			out = append(out, t)
			continue
		}
		for _, se := range t.sessions {
			c := *t
			src := *t.Source
			src.Abs, src.Path = se.abs, se.display
			c.Source, c.sessions = &src, nil
			c.ID = t.ID + "/" + se.id
			c.Name = vars.Name{Value: fmt.Sprintf("%s (%s)", t.Name.Value, se.id), Pos: t.Name.Pos}
			out = append(out, &c)
		}
	}
	return out
}
