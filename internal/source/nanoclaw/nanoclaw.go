// Package nanoclaw imports a run of a NanoClaw agent
// (github.com/qwibitai/nanoclaw) as a trace: the Claude Code transcript of
// the group's session, read by package claude, enriched with what NanoClaw
// knows around it — the group and its memory, the chat its messages went
// to, and the scheduled task the run served with the task's runs.
//
// NanoClaw has had two layouts, told apart by their central database
// (detectLayout). NanoClaw 1, for each group folder:
//
//	groups/<folder>/                  the group's memory (CLAUDE.md, notes, conversations/)
//	groups/global/CLAUDE.md           the memory every group shares
//	data/sessions/<folder>/.claude/projects/-workspace-group/<session>.jsonl
//	                                  the agent's transcripts
//	store/messages.db                 registered groups, sessions, scheduled tasks, run logs
//
// following NanoClaw at commit 12af4510690ab7f9d63b0bc4413d8264fb659705;
// NanoClaw 2, for each agent group (an id, and a folder):
//
//	groups/<folder>/CLAUDE.local.md   the group's memory (CLAUDE.md is composed instructions)
//	data/v2.db                        agent groups, messaging groups, sessions
//	data/v2-sessions/<group id>/<session>/inbound.db, outbound.db
//	                                  a session's messages in (chat, tasks) and out
//	data/v2-sessions/<group id>/.claude-shared/projects/-workspace-agent/<transcript>.jsonl
//	                                  the agent's transcripts, for all the group's sessions
//
// following NanoClaw at commit 0683c6ec589ec0df74c2a3d99f9544127317b490.
// In both, the group's Claude Code auto-memory (the memory/ folder beside
// its transcripts) is the group's memory too.
package nanoclaw

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/trace"
)

// Adapter is the adapter's name, as the trace's source reports it; the
// source's version is the layout read ("1" or "2").
const Adapter = "nanoclaw"

// Capabilities are what the adapter observes of a run.
var Capabilities = []string{capability.ToolTrace, capability.MemoryEvents, capability.SchedulerContext, capability.Replay}

// Options say which run of which NanoClaw root to read.
type Options struct {
	// Root is a NanoClaw project root, or a copy of the parts of it a
	// test needs.
	Root string
	// Display is Root as the test wrote it (for origins and messages);
	// Root when empty.
	Display string
	// Group is the group folder (required).
	Group string
	// Session picks the session. NanoClaw 1: a transcript's session id;
	// by default the sessions table's session of the group, else the
	// group's only transcript. NanoClaw 2: a session id of data/v2.db; by
	// default the session that holds Task, else the group's only session.
	Session string
	// Task is a scheduled task id: the trace is then that task's run.
	Task string
}

// Read reads a NanoClaw run as a trace.
func Read(o Options) (*trace.Trace, error) {
	r := &reader{Options: o}
	if r.Display == "" {
		r.Display = r.Root
	}
	return r.read()
}

// reader reads one run.
type reader struct {
	Options
	lay *layout

	// NanoClaw 1: the store (nil without one), the registered group (nil
	// when unknown), the task and its run logs.
	store  *store
	group  *group
	isMain bool
	task   *task
	runs   []taskRun

	// NanoClaw 2: the agent group's id, and what was read of the session.
	agentGroup string
	v2         *v2run

	// parsed are the transcripts read so far, by session id: choosing a
	// task's run reads its candidates, and the chosen one is not read twice.
	parsed map[string]*trace.Trace
}

// display is a path below the root as the test would write it.
func (r *reader) display(rel string) string {
	if r.Display == "" {
		return rel
	}
	return strings.TrimSuffix(filepath.ToSlash(r.Display), "/") + "/" + rel
}

// host is a path below the root on this machine.
func (r *reader) host(rel string) string { return filepath.Join(r.Root, filepath.FromSlash(rel)) }

func (r *reader) read() (*trace.Trace, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	lay, err := r.detectLayout()
	if err != nil {
		return nil, fmt.Errorf("nanoclaw root %s: %w", r.Display, err)
	}
	r.lay = lay
	if lay == layoutV2 {
		return r.readV2()
	}
	return r.readV1()
}

// check checks the options and that the root and the group folder exist.
func (r *reader) check() error {
	if r.Root == "" {
		return errors.New("nanoclaw: no root")
	}
	if r.Group == "" {
		return errors.New("nanoclaw: no group folder")
	}
	if !validGroupFolder(r.Group) {
		return fmt.Errorf("nanoclaw: %q is not a group folder name (letters, digits, _ and -, not %q)", r.Group, GlobalGroup)
	}
	if err := isDir(r.Root); err != nil {
		return fmt.Errorf("nanoclaw root %s: %w", r.Display, err)
	}
	rel := "groups/" + r.Group
	if err := isDir(r.host(rel)); err != nil {
		return fmt.Errorf("nanoclaw group %s: %s: %w", r.Group, r.display(rel), err)
	}
	return nil
}

// isDir returns an error unless dir is a directory.
func isDir(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the message names the path
		}
		return err
	}
	if !fi.IsDir() {
		return errors.New("not a directory")
	}
	return nil
}
