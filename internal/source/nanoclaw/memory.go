package nanoclaw

import (
	"encoding/json"
	"errors"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/ananke/action/internal/trace"
)

// memory adds the run's memory events to the trace's turns: the CLAUDE.md
// files the session loaded when it started, and every tool call that read
// or wrote a file of a group folder (every file there is the group's
// memory: CLAUDE.md, notes, conversations/).
func (r *reader) memory(t *trace.Trace) {
	if len(t.Turns) > 0 {
		r.startMemory(&t.Turns[0])
	}
	for i := range t.Turns {
		turn := &t.Turns[i]
		for j := range turn.ToolCalls {
			turn.Memory = append(turn.Memory, r.callMemory(&turn.ToolCalls[j])...)
		}
		sort.SliceStable(turn.Memory, func(a, b int) bool { return turn.Memory[a].Seq < turn.Memory[b].Seq })
	}
}

// startMemory adds what Claude Code loads at session start: the group's
// CLAUDE.md (the working directory's), and for a group other than the main
// one, the global CLAUDE.md, which NanoClaw appends to the system prompt.
func (r *reader) startMemory(turn *trace.Turn) {
	seq := int64(0)
	turn.EachEvent(func(s int64, _ string) {
		if seq == 0 {
			seq = s
		}
	})
	add := func(group string) {
		rel := path.Join("groups", group, "CLAUDE.md")
		b, err := os.ReadFile(r.host(rel))
		if err != nil {
			return
		}
		turn.Memory = append(turn.Memory, trace.MemoryEvent{
			Seq: seq, TimestampMs: turn.StartMs, Op: trace.MemoryRead,
			Group: group, Path: rel, Content: string(b),
		})
	}
	add(r.Group)
	if !r.isMain {
		add(GlobalGroup)
	}
}

// callArgs are the arguments of the file tools that memory reads.
type callArgs struct {
	FilePath     string `json:"file_path"`
	NotebookPath string `json:"notebook_path"`
	Path         string `json:"path"`
	Pattern      string `json:"pattern"`
	Command      string `json:"command"`
	Content      string `json:"content"`
	NewString    string `json:"new_string"`
	NewSource    string `json:"new_source"`
	Edits        []struct {
		NewString string `json:"new_string"`
	} `json:"edits"`
}

// callMemory is the memory events of one tool call.
func (r *reader) callMemory(c *trace.ToolCall) []trace.MemoryEvent {
	var a callArgs
	if !c.ArgsJSON || json.Unmarshal([]byte(c.Args), &a) != nil {
		return nil
	}
	var paths []string
	op := trace.MemoryRead
	switch c.Name {
	case "Read":
		paths = []string{a.FilePath}
	case "LS":
		paths = []string{a.Path}
	case "Grep":
		paths = []string{or(a.Path, ".")}
	case "Glob":
		root := globRoot(a.Pattern)
		if !path.IsAbs(root) {
			root = path.Join(or(a.Path, "."), root)
		}
		paths = []string{root}
	case "Bash":
		paths = commandPaths(a.Command, r.existsInGroup)
	case "Write", "Edit", "MultiEdit":
		op, paths = trace.MemoryWrite, []string{a.FilePath}
	case "NotebookEdit":
		op, paths = trace.MemoryWrite, []string{a.NotebookPath}
	default:
		return nil
	}
	content := ""
	switch {
	case op == trace.MemoryRead:
		if c.Result != nil && c.Result.Error == "" {
			content = c.Result.Content
		}
	case c.Result != nil && c.Result.Error != "":
		return nil // a write that failed changed nothing
	case c.Name == "Write":
		content = a.Content
	case c.Name == "Edit":
		content = a.NewString
	case c.Name == "MultiEdit":
		var parts []string
		for _, e := range a.Edits {
			parts = append(parts, e.NewString)
		}
		content = strings.Join(parts, "\n")
	case c.Name == "NotebookEdit":
		content = a.NewSource
	}
	var out []trace.MemoryEvent
	for _, p := range paths {
		group, rel, ok := hostPath(p, r.Group)
		if !ok {
			continue
		}
		out = append(out, trace.MemoryEvent{
			Seq: c.StartSeq, TimestampMs: c.StartedMs, Op: op,
			Group: group, Path: rel, Content: content, CallID: c.ID,
		})
	}
	return out
}

// existsInGroup reports whether a path relative to the working directory
// names a file or folder of the group.
func (r *reader) existsInGroup(rel string) bool {
	_, host, ok := hostPath(rel, r.Group)
	if !ok {
		return false
	}
	_, err := os.Stat(r.host(host))
	return !errors.Is(err, os.ErrNotExist) && err == nil
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
