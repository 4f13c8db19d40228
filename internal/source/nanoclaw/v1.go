package nanoclaw

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ananke/action/internal/trace"
)

// readV1 reads a run of NanoClaw 1.
func (r *reader) readV1() (*trace.Trace, error) {
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
	t, err := r.transcript(r.transcriptDir(), session)
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
	rel := r.transcriptDir()
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
		Version:      layoutV1.version,
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
	rel := r.transcriptDir()
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
