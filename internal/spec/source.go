package spec

import (
	"os"
	"path/filepath"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
)

// Source formats: where an imported test's trace comes from.
const (
	FormatClaude   = "claude-transcript"
	FormatNanoClaw = "nanoclaw"
	// FormatOTLP is an OTLP JSON trace file (docs/opentelemetry.md).
	FormatOTLP = "otlp"
)

// SourceFormats lists the formats a test's source may have.
var SourceFormats = []string{FormatClaude, FormatNanoClaw, FormatOTLP}

// Source is a recorded run of another runtime that a test asserts on
// instead of talking to the target: `source: {format, path, ...}` in place
// of `turns:`.
type Source struct {
	Pos    diag.Pos
	Format string
	// Path is as written (relative to the test file); Abs is resolved.
	Path string
	Abs  string
	// Group, Session and Task pick a NanoClaw group's session and the
	// scheduled task it ran (nanoclaw only).
	Group, Session, Task string
	// Select picks the sessions of a claude-transcript source that names
	// a folder or a glob: SelectAll ("": all), one test each, or
	// SelectNewest. Strict makes a transcript line that cannot be read
	// an error rather than a warning (claude-transcript only).
	Select string
	Strict bool
}

// Policies for an assertion whose trace lacks a capability it needs.
const (
	MissingSkip  = "skip"
	MissingError = "error"
)

var (
	sourceFields = []string{"format", "path", "group", "session", "task", "select", "strict"}
	// sourceExcludes are test fields that make no sense with a source:
	// the run already happened.
	sourceExcludes  = []string{"turns", "history", "tools", "hooks", "after", "simulator", "max_turns", "timeout_ms", "checkpoints"}
	missingPolicies = []string{MissingSkip, MissingError}
)

// source reads a test's source; f is the test's fields. A
// claude-transcript source also gives the sessions it names, and whether
// each is a test of its own.
func (l *loader) source(n *yaml.Node, f map[string]decode.Pair) (*Source, []session, bool) {
	for _, k := range sourceExcludes {
		if p, ok := f[k]; ok {
			l.Errorf(p.Key, "%s cannot be combined with source: the test asserts on a recorded run", k)
		}
	}
	sf, ok := l.Fields(n, "source", sourceFields)
	if !ok {
		return nil, nil, false
	}
	s := &Source{Pos: l.Pos(l.DerefQuiet(n))}
	l.Require(n, sf, "source", "format", "path")
	if p, ok := sf["format"]; ok {
		if v, node, ok := l.Text(p.Val, "source.format"); ok {
			s.Format = v
			if !slices.Contains(SourceFormats, v) {
				l.Errorf(node, "source.format %q is not a known format (known: claude-transcript, nanoclaw, otlp)%s", v, decode.DidYouMean(v, SourceFormats))
			}
		}
	}
	for _, k := range []string{"group", "session", "task"} {
		p, ok := sf[k]
		if !ok {
			continue
		}
		if s.Format != FormatNanoClaw {
			// With a missing or unknown format, that is the error to fix.
			if slices.Contains(SourceFormats, s.Format) {
				l.Errorf(p.Key, "source.%s is for format nanoclaw", k)
			}
			continue
		}
		v, _, _ := l.Text(p.Val, "source."+k)
		switch k {
		case "group":
			s.Group = v
		case "session":
			s.Session = v
		case "task":
			s.Task = v
		}
	}
	for _, k := range []string{"select", "strict"} {
		p, ok := sf[k]
		if !ok {
			continue
		}
		if s.Format != FormatClaude {
			if slices.Contains(SourceFormats, s.Format) {
				l.Errorf(p.Key, "source.%s is for format claude-transcript", k)
			}
			continue
		}
		if k == "strict" {
			s.Strict, _ = l.Boolean(p.Val, "source.strict")
			continue
		}
		if v, node, ok := l.Text(p.Val, "source.select"); ok {
			if !slices.Contains(selections, v) {
				l.Errorf(node, "source.select %q is not one of all, newest%s", v, decode.DidYouMean(v, selections))
			} else {
				s.Select = v
			}
		}
	}
	if s.Format == FormatNanoClaw {
		l.Require(n, sf, "source", "group")
	}
	var sessions []session
	expand := false
	if p, ok := sf["path"]; ok {
		if v, node, ok := l.Text(p.Val, "source.path"); ok {
			s.Path = v
			if v == "" {
				// Not the test's own folder: an empty path names nothing.
				l.Errorf(node, "source.path must not be empty")
				return s, nil, false
			}
			if s.Format == FormatClaude {
				if v, ok = l.expandHome(node, v); !ok {
					return s, nil, false
				}
			}
			s.Abs = v
			if !filepath.IsAbs(v) {
				s.Abs = filepath.Join(filepath.Dir(l.File), filepath.FromSlash(v))
			}
			// A test file named by a relative path (a relative
			// --config) still gives an absolute path.
			if abs, err := filepath.Abs(s.Abs); err == nil {
				s.Abs = abs
			}
			if s.Format != FormatClaude {
				l.sourcePath(node, s)
				return s, nil, false
			}
			sessions = l.claudeSessions(node, s)
			if st, err := os.Stat(s.Abs); sessions != nil && (hasMeta(filepath.ToSlash(s.Path)) || (err == nil && st.IsDir())) {
				expand = s.Select != SelectNewest
			}
		}
	}
	return s, sessions, expand
}

// sourcePath checks that a nanoclaw source's path is a folder, and an
// otlp source's a file.
func (l *loader) sourcePath(node *yaml.Node, s *Source) {
	st, err := os.Stat(s.Abs)
	switch {
	case err != nil:
		l.Errorf(node, "source.path: %s: %v", s.Path, decode.UnwrapPath(err))
	case s.Format == FormatNanoClaw && !st.IsDir():
		l.Errorf(node, "source.path: %s is a file; a nanoclaw source is a NanoClaw folder (with groups/, and data/v2.db or store/messages.db)", s.Path)
	case s.Format == FormatOTLP && st.IsDir():
		l.Errorf(node, "source.path: %s is a folder; an otlp source is an OTLP JSON trace file", s.Path)
	}
}

// missingPolicy reads on_missing_capability: skip or error.
func (l *loader) missingPolicy(n *yaml.Node, what string) string {
	v, node, ok := l.Text(n, what)
	if !ok {
		return ""
	}
	if !slices.Contains(missingPolicies, v) {
		l.Errorf(node, "%s %q is not one of skip, error", what, v)
		return ""
	}
	return v
}

// checkTargets reports tests that need a target when the config has none:
// a suite of imported runs only needs no agent.
func checkTargets(cfg *Config, tests []*Test, diags *diag.Diagnostics) {
	if cfg.Target.Type != "" || cfg.Target.Pos.Line > 0 {
		return
	}
	for _, t := range tests {
		if t.Source == nil {
			diags.Add(t.Pos, "test %q talks to an agent, but the config has no target (only tests with a source run without one)", t.ID)
		}
	}
}
