package nanoclaw

import (
	"errors"
	"os"
	"path"
	"strings"
)

// NanoClaw has had two layouts. The adapter tells them apart by the
// central database each keeps: NanoClaw 2's data/v2.db, else NanoClaw 1's
// store/messages.db (or neither: a copy of only groups/ and data/sessions/
// is read as NanoClaw 1).
const (
	// StorePath is NanoClaw 1's database, relative to the root.
	StorePath = "store/messages.db"
	// V2StorePath is NanoClaw 2's central database, relative to the root.
	V2StorePath = "data/v2.db"
)

// layout is what differs between the layouts for reading a run.
type layout struct {
	// version is the layout, as the trace's source version reports it.
	version string
	// workdir is the group's folder as its agent's container mounts it:
	// the agent's working directory.
	workdir string
	// project: the main group also sees the NanoClaw root, read-only, at
	// /workspace/project (NanoClaw 1 only).
	project bool
	// memory is the group's own memory file that Claude Code loads at
	// session start, in the group's folder.
	memory string
	// global: a group other than main also loads the global memory,
	// groups/global/CLAUDE.md (NanoClaw 1 only; NanoClaw 2 folds it into
	// the instructions every group shares).
	global bool
}

var (
	layoutV1 = &layout{version: "1", workdir: "/workspace/group", project: true, memory: "CLAUDE.md", global: true}
	layoutV2 = &layout{version: "2", workdir: "/workspace/agent", memory: "CLAUDE.local.md"}
)

// detectLayout tells which layout the root has.
func (r *reader) detectLayout() (*layout, error) {
	_, err := os.Stat(r.host(V2StorePath))
	switch {
	case err == nil:
		return layoutV2, nil
	case errors.Is(err, os.ErrNotExist):
		return layoutV1, nil
	}
	return nil, err
}

// Container paths: the global memory is mounted beside the group's folder,
// NanoClaw 1's main group sees the project at /workspace/project, and each
// group's Claude Code state (transcripts, auto-memory) is its container's
// ~/.claude.
const (
	containerGlobal  = "/workspace/global"
	containerProject = "/workspace/project"
	containerClaude  = "/home/node/.claude"
)

// claudeProject is the folder Claude Code keeps a working directory's
// sessions and auto-memory in, under ~/.claude/projects: the directory's
// path with every character other than a letter or digit replaced by "-".
func claudeProject(workdir string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, workdir)
}

// claudeHome is where the group's ~/.claude is kept, relative to the root:
// NanoClaw 1 keeps one per group folder, NanoClaw 2 one per agent group id,
// shared by the group's sessions.
func (r *reader) claudeHome() string {
	if r.layout() == layoutV2 {
		return path.Join("data/v2-sessions", r.agentGroup, ".claude-shared")
	}
	return path.Join("data/sessions", r.Group, ".claude")
}

// transcriptDir is where Claude Code keeps the group's transcripts,
// relative to the root.
func (r *reader) transcriptDir() string {
	return path.Join(r.claudeHome(), "projects", claudeProject(r.layout().workdir))
}

// autoMemoryDir is Claude Code's auto-memory of the group's working
// directory, relative to the root (MEMORY.md and the notes it indexes).
func (r *reader) autoMemoryDir() string { return path.Join(r.transcriptDir(), "memory") }

// layout is the layout being read (NanoClaw 1 until one is detected).
func (r *reader) layout() *layout {
	if r.lay == nil {
		return layoutV1
	}
	return r.lay
}
