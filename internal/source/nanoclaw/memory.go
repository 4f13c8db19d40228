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

// memory adds the run's memory events to the trace's turns: the memory
// Claude Code loaded when the run's session started, and every tool call
// that read or wrote a file of a group folder (every file there is the
// group's memory: CLAUDE.md, notes, conversations/) or of the group's
// auto-memory.
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

// autoMemoryLines is how much of MEMORY.md Claude Code loads.
const autoMemoryLines = 200

// startMemory adds what Claude Code loads at session start: the group's
// memory file in its working directory (NanoClaw 1's CLAUDE.md, NanoClaw
// 2's CLAUDE.local.md); for a NanoClaw 1 group other than main, the global
// CLAUDE.md, which NanoClaw appends to the system prompt; and the first
// lines of the auto-memory's MEMORY.md.
func (r *reader) startMemory(turn *trace.Turn) {
	seq := int64(0)
	turn.EachEvent(func(s int64, _ string) {
		if seq == 0 {
			seq = s
		}
	})
	add := func(group, rel string, lines int) {
		b, err := os.ReadFile(r.host(rel))
		if err != nil {
			return
		}
		content := string(b)
		if lines > 0 {
			content = firstLines(content, lines)
		}
		turn.Memory = append(turn.Memory, trace.MemoryEvent{
			Seq: seq, TimestampMs: turn.StartMs, Op: trace.MemoryRead,
			Group: group, Path: rel, Content: content,
		})
	}
	lay := r.layout()
	add(r.Group, path.Join("groups", r.Group, lay.memory), 0)
	if lay.global && !r.isMain {
		add(GlobalGroup, path.Join("groups", GlobalGroup, "CLAUDE.md"), 0)
	}
	add(r.Group, path.Join(r.autoMemoryDir(), "MEMORY.md"), autoMemoryLines)
}

// firstLines is the first n lines of s.
func firstLines(s string, n int) string {
	i := 0
	for ; n > 0 && i < len(s); n-- {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			return s
		}
		i += j + 1
	}
	return s[:i]
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
		group, rel, ok := r.hostPath(p)
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
	_, host, ok := r.hostPath(rel)
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
