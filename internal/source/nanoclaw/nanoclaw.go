// Package nanoclaw imports a run of a NanoClaw agent (github.com/qwibitai/nanoclaw,
// the v1 layout with scheduled tasks and run logs) as a trace: the Claude
// Code transcript of the group's session, read by package claude, enriched
// with what NanoClaw knows around it — the group and its memory, the chat
// its messages went to, and the scheduled task the run served with the
// task's run logs.
//
// A NanoClaw root holds, for each group folder:
//
//	groups/<folder>/                  the group's memory (CLAUDE.md, notes, conversations/)
//	groups/global/CLAUDE.md           the memory every group shares
//	data/sessions/<folder>/.claude/projects/-workspace-group/<session>.jsonl
//	                                  the agent's transcripts
//	store/messages.db                 registered groups, sessions, scheduled tasks, run logs
//
// The formats follow NanoClaw at commit 12af4510690ab7f9d63b0bc4413d8264fb659705.
package nanoclaw

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/trace"
)

// The adapter's name and version, as the trace's source reports them.
const (
	Adapter = "nanoclaw"
	Version = "1"
)

// Capabilities are what the adapter observes of a run.
var Capabilities = []string{capability.ToolTrace, capability.MemoryEvents, capability.SchedulerContext, capability.Replay}

// Options say which run of which NanoClaw root to read.
type Options struct {
	// Root is a NanoClaw project root, or a copy of the parts of it a
	// test needs (groups/, data/sessions/, store/messages.db).
	Root string
	// Display is Root as the test wrote it (for origins and messages);
	// Root when empty.
	Display string
	// Group is the group folder (required).
	Group string
	// Session is the session id. By default it is the sessions table's
	// session of the group, else the group's only transcript.
	Session string
	// Task is a scheduled task id: the trace is then that task's run, in
	// the group's session (context_mode group) or in the newest transcript
	// that started with the task's prompt (isolated).
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
	store  *store
	group  *group // the registered group; nil when unknown
	isMain bool
	task   *task
	runs   []taskRun
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
	st, err := openStore(r.host(StorePath))
	if err != nil {
		return nil, fmt.Errorf("nanoclaw: %w", wrapStore(r.display(StorePath), err))
	}
	if st != nil {
		r.store = st
		defer st.Close()
	}
	if err := r.load(); err != nil {
		return nil, fmt.Errorf("nanoclaw: %w", err)
	}
	session, err := r.session()
	if err != nil {
		return nil, fmt.Errorf("nanoclaw: %w", err)
	}
	t, err := r.transcript(transcriptDir(r.Group), session)
	if err != nil {
		return nil, fmt.Errorf("nanoclaw: %w", err)
	}
	zone := ""
	if r.task != nil {
		zone = r.zone(t)
		if t, err = r.taskRun(t, session); err != nil {
			return nil, fmt.Errorf("nanoclaw: %w", err)
		}
	}
	t.Source = r.source(session, t, zone)
	r.memory(t)
	r.outbound(t)
	return t, nil
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

// load reads the group and the task from the store.
func (r *reader) load() error {
	db := r.display(StorePath)
	if r.store == nil {
		if r.Task != "" {
			return fmt.Errorf("task %s: %s does not exist", r.Task, db)
		}
		// Without the table, NanoClaw's migration makes the folder
		// "main" the main group.
		r.isMain = r.Group == "main"
		return nil
	}
	g, err := r.store.group(r.Group)
	if err != nil {
		return wrapStore(db, err)
	}
	r.group = g
	if g != nil {
		r.isMain = g.IsMain
	} else {
		r.isMain = r.Group == "main"
	}
	if r.Task == "" {
		return nil
	}
	t, err := r.store.task(r.Task)
	if errors.Is(err, errNoTask) {
		return fmt.Errorf("task %s: no such task in %s", r.Task, db)
	}
	if err != nil {
		return fmt.Errorf("task %s: %w", r.Task, wrapStore(db, err))
	}
	if t.GroupFolder != r.Group {
		return fmt.Errorf("task %s belongs to group %s, not %s", r.Task, t.GroupFolder, r.Group)
	}
	r.task = t
	if r.runs, err = r.store.runs(r.Task); err != nil {
		return fmt.Errorf("task %s: %w", r.Task, wrapStore(db, err))
	}
	return nil
}

// session picks the transcript to read.
func (r *reader) session() (string, error) {
	rel := transcriptDir(r.Group)
	ids, err := transcripts(r.host(rel))
	if err != nil {
		return "", fmt.Errorf("list transcripts: %w", err)
	}
	dir := r.display(rel)
	known := func(id, from string) (string, error) {
		if strings.ContainsAny(id, `/\`) || !slices.Contains(ids, id) {
			return "", fmt.Errorf("group %s has no session %s%s in %s (sessions: %s)", r.Group, id, from, dir, listIDs(ids))
		}
		return id, nil
	}
	if r.Session != "" {
		return known(r.Session, "")
	}
	if len(ids) == 0 {
		return "", fmt.Errorf("group %s has no transcript: %s has no .jsonl file", r.Group, dir)
	}
	if r.task != nil {
		if r.task.ContextMode == "group" {
			id, err := r.storeSession()
			if err != nil {
				return "", fmt.Errorf("task %s: %w", r.Task, err)
			}
			if id == "" {
				return "", fmt.Errorf("task %s runs in the group's session, and group %s has no session in %s", r.Task, r.Group, r.display(StorePath))
			}
			return known(id, " (the group's session in "+r.display(StorePath)+")")
		}
		id, err := r.taskTranscript(rel, ids, r.task.Prompt)
		if err != nil {
			return "", fmt.Errorf("find the run of task %s: %w", r.Task, err)
		}
		if id == "" {
			return "", fmt.Errorf("task %s: no transcript in %s starts with the task's prompt (sessions: %s)", r.Task, dir, listIDs(ids))
		}
		return id, nil
	}
	if r.store != nil {
		id, err := r.storeSession()
		if err != nil {
			return "", err
		}
		if id != "" {
			return known(id, " (the group's session in "+r.display(StorePath)+")")
		}
	}
	if len(ids) > 1 {
		why := "no " + r.display(StorePath)
		if r.store != nil {
			why = "no session in " + r.display(StorePath)
		}
		return "", fmt.Errorf("group %s has %d transcripts in %s and %s; choose one: %s", r.Group, len(ids), dir, why, listIDs(ids))
	}
	return ids[0], nil
}

// storeSession is the group's session in the sessions table.
func (r *reader) storeSession() (string, error) {
	id, err := r.store.session(r.Group)
	if err != nil {
		return "", wrapStore(r.display(StorePath), err)
	}
	return id, nil
}

// source is the trace's source; zone is NanoClaw's timezone, when known.
func (r *reader) source(session string, tr *trace.Trace, zone string) *trace.Source {
	s := &trace.Source{
		Adapter:      Adapter,
		Version:      Version,
		Mode:         "import",
		Capabilities: Capabilities,
		Path:         r.Display,
		GroupID:      r.Group,
		SessionID:    session,
		TaskID:       r.Task,
	}
	if t := r.task; t != nil {
		sc := &trace.Scheduler{
			TaskID:        t.ID,
			Trigger:       "scheduler",
			ScheduleType:  t.ScheduleType,
			ScheduleValue: t.ScheduleValue,
			ScheduledFor:  dueTime(t, r.runOf(tr), zone),
			Timezone:      zone,
			ContextMode:   t.ContextMode,
			Prompt:        t.Prompt,
			Runs:          []trace.TaskRun{},
		}
		for _, run := range r.runs {
			sc.Runs = append(sc.Runs, trace.TaskRun{
				RunAt:      run.RunAt,
				DurationMs: run.DurationMs,
				Status:     run.Status,
				Result:     run.Result,
				Error:      run.Error,
			})
		}
		s.Scheduler = sc
	}
	return s
}

// taskRun is the task's run in the session's trace t: its last turn whose
// prompt is NanoClaw's scheduled-task prefix and the task's prompt. A task
// with context_mode group resumes the group's session, so the turns before
// and after it are the group's chat, not the task's run.
func (r *reader) taskRun(t *trace.Trace, session string) (*trace.Trace, error) {
	i := lastTurn(t, func(p string) bool { return isTaskPrompt(p, r.task.Prompt) })
	if i < 0 {
		return nil, fmt.Errorf("task %s: session %s has no run of the task (no prompt is NanoClaw's scheduled-task prefix and the task's prompt)", r.Task, session)
	}
	return sliceTurns(t, i, i+1), nil
}

// runOf is the task's run log of the run in t: the first log written after
// the run started (NanoClaw logs a run when it ends), or nil when the run
// has none yet.
func (r *reader) runOf(t *trace.Trace) *taskRun {
	for i := range r.runs {
		if at, ok := parseTime(r.runs[i].RunAt); ok && at.UnixMilli() >= t.TestStartMs {
			return &r.runs[i]
		}
	}
	return nil
}

// zone is NanoClaw's timezone as its prompts declare it: in the session t,
// else in the group's other transcripts (a task's isolated session has
// only the task's prompt, which declares none).
func (r *reader) zone(t *trace.Trace) string {
	if z := promptZone(t); z != "" {
		return z
	}
	rel := transcriptDir(r.Group)
	ids, _ := transcripts(r.host(rel))
	for _, id := range ids {
		if other, err := r.transcript(rel, id); err == nil {
			if z := promptZone(other); z != "" {
				return z
			}
		}
	}
	return ""
}

// chatJID is where the run's messages went: the task's chat, else the
// group's.
func (r *reader) chatJID() string {
	if r.task != nil {
		return r.task.ChatJID
	}
	if r.group != nil {
		return r.group.JID
	}
	return ""
}
