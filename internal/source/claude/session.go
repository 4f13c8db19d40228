package claude

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Claude Code keeps a session's subagents beside its transcript:
// <session>.jsonl, and <session>/subagents/agent-<id>.jsonl with
// agent-<id>.meta.json (the agent's type, the task's description, the
// tool call that started it); a workflow's agents are under
// <session>/subagents/workflows/<workflow>/.
var subagentPatterns = []string{"subagents/agent-*.jsonl", "subagents/workflows/*/agent-*.jsonl"}

// subagentFile matches a subagent's transcript: its session and agent id.
var subagentFile = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|/)([^/]+)/subagents/(?:workflows/[^/]+/)?agent-([^/]+)\.jsonl$`)
})

// meta is a subagent's agent-<id>.meta.json.
type meta struct {
	AgentType   string `json:"agentType"`
	Description string `json:"description"`
	ToolUseID   string `json:"toolUseId"`
}

// subagent is one subagent transcript of a session.
type subagent struct {
	id    string
	lines []line
	meta  meta
}

// subagents reads the transcripts of the subagents of the session at p
// (displayed as display). A meta file that cannot be read is a notice.
func subagents(p, display string, strict bool) ([]subagent, []string, error) {
	dir := strings.TrimSuffix(p, ".jsonl")
	var files []string
	for _, pat := range subagentPatterns {
		m, _ := filepath.Glob(filepath.Join(dir, filepath.FromSlash(pat))) // the patterns are valid
		files = append(files, m...)
	}
	slices.Sort(files)
	var out []subagent
	var notes []string
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		shown := strings.TrimSuffix(display, ".jsonl") + "/" + filepath.ToSlash(rel)
		lines, err := readFile(f, shown, strict)
		if err != nil {
			return nil, nil, err
		}
		sa := subagent{id: strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "agent-"), ".jsonl"), lines: lines}
		if err := readMeta(strings.TrimSuffix(f, ".jsonl")+".meta.json", &sa.meta); err != nil {
			notes = append(notes, fmt.Sprintf("%s: %v; its agent's type and task are unknown", strings.TrimSuffix(shown, ".jsonl")+".meta.json", err))
		}
		out = append(out, sa)
	}
	return out, notes, nil
}

// readFile reads the lines of the transcript at p.
func readFile(p, display string, strict bool) ([]line, error) {
	f, err := os.Open(p)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // display names the file
		}
		return nil, fmt.Errorf("read transcript %s: %w", display, err)
	}
	defer f.Close()
	return readLines(f, display, strict)
}

// readMeta reads a subagent's meta file, when there is one.
func readMeta(p string, m *meta) error {
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return err
	}
	if err := json.Unmarshal(b, m); err != nil {
		return fmt.Errorf("not a JSON object of agentType, description and toolUseId: %w", err)
	}
	return nil
}

// merge interleaves the session's lines and its subagents' by time: each
// file in its order, a line of the session before a subagent's at the same
// time, subagents in the order given.
func merge(main []line, subs []subagent) []line {
	lists := [][]line{main}
	for i := range subs {
		for j := range subs[i].lines {
			if subs[i].lines[j].agent == "" {
				subs[i].lines[j].agent = subs[i].id
			}
		}
		lists = append(lists, subs[i].lines)
	}
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	out := make([]line, 0, n)
	next := make([]int, len(lists))
	for len(out) < n {
		best := -1
		for i, l := range lists {
			if next[i] < len(l) && (best < 0 || l[next[i]].ms < lists[best][next[best]].ms) {
				best = i
			}
		}
		out = append(out, lists[best][next[best]])
		next[best]++
	}
	return out
}

// isSubagentFile reports whether p is where Claude Code keeps a
// subagent's transcript, and the session and agent it names.
func isSubagentFile(p string) (session, agent string, ok bool) {
	m := subagentFile().FindStringSubmatch(filepath.ToSlash(p))
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// allSidechain reports whether every user and assistant line is a
// subagent's: the transcript is a subagent's, wherever it was put.
func allSidechain(lines []line) bool {
	seen := false
	for i := range lines {
		l := &lines[i]
		if l.typ != "user" && l.typ != "assistant" {
			continue
		}
		var e struct {
			IsSidechain bool `json:"isSidechain"`
		}
		if json.Unmarshal(l.raw, &e) != nil || !e.IsSidechain {
			return false
		}
		seen = true
	}
	return seen
}

// aloneNote says what a subagent's transcript read alone is. layout is
// true when the file is where Claude Code keeps it, beside its session.
func aloneNote(display, agent, session string, m meta, layout bool) string {
	what := "subagent " + agent
	switch {
	case m.AgentType != "" && m.Description != "":
		what += fmt.Sprintf(" (%s: %s)", m.AgentType, m.Description)
	case m.AgentType != "":
		what += " (" + m.AgentType + ")"
	}
	main := "its session's transcript"
	if session != "" {
		what += " of session " + session
		main += ", " + session + ".jsonl,"
		if layout {
			dir, _, _ := strings.Cut("/"+display, "/"+session+"/subagents/")
			main = path.Join(strings.TrimPrefix(dir, "/"), session+".jsonl")
		}
	}
	return fmt.Sprintf("%s is the transcript of %s, read alone: its first prompt is the task the main agent gave it, not a user's; "+
		"name %s to read the session with its subagents", display, what, main)
}
