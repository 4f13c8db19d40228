package nanoclaw

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/ananke/action/internal/trace"
)

// NanoClaw 2 keeps a session per chat an agent group is wired to
// (data/v2.db's sessions) with a folder of its own: inbound.db, the
// messages the host hands the agent (chat, and scheduled tasks: rows of
// kind task due at process_after), and outbound.db, what the agent's
// container wrote (messages_out, processing_ack, and in session_state the
// Claude Code session it resumes). A scheduled task is a message of its
// session's conversation: its run is the turn whose prompt carries it.

// v2run is what was read of a NanoClaw 2 session.
type v2run struct {
	session string // its id
	dir     string // its folder, relative to the root
	in, out *store
	// The task's occurrences, oldest first; occ is the one whose run the
	// trace is; acks are processing_ack's rows.
	series []taskRow
	occ    *taskRow
	acks   map[string]ack
}

func (v *v2run) close() {
	for _, s := range []*store{v.in, v.out} {
		if s != nil {
			s.Close()
		}
	}
}

// readV2 reads a run of NanoClaw 2.
func (r *reader) readV2() (*trace.Trace, error) {
	t, err := r.readV2Run()
	if r.v2 != nil {
		r.v2.close()
	}
	if err != nil {
		return nil, fmt.Errorf("nanoclaw: %w", err)
	}
	return t, nil
}

func (r *reader) readV2Run() (*trace.Trace, error) {
	db := r.display(V2StorePath)
	central, err := openStore(r.host(V2StorePath))
	if err != nil {
		return nil, wrapStore(db, err)
	}
	if central == nil {
		return nil, fmt.Errorf("%s does not exist", db)
	}
	defer central.Close()
	ag, err := central.agentGroup(r.Group)
	if err != nil {
		return nil, wrapStore(db, err)
	}
	if ag == nil {
		folders, err := central.agentGroupFolders()
		if err != nil {
			return nil, wrapStore(db, err)
		}
		return nil, fmt.Errorf("group %s is not an agent group in %s (agent groups: %s)", r.Group, db, listIDs(folders))
	}
	r.agentGroup = ag.ID
	ids, err := central.sessionIDs(ag.ID)
	if err != nil {
		return nil, wrapStore(db, err)
	}
	if err := r.pickSession(ids); err != nil {
		return nil, err
	}
	v := r.v2
	if r.Task != "" {
		if err := r.loadTask(); err != nil {
			return nil, err
		}
	}
	transcript, err := r.sessionTranscript()
	if err != nil {
		return nil, err
	}
	full, err := r.transcript(r.transcriptDir(), transcript)
	if err != nil {
		return nil, err
	}
	// Messages out are placed in the session's turns before the task's
	// run is cut out of it: a message belongs to the turn that wrote it.
	if err := r.outboundV2(full); err != nil {
		return nil, err
	}
	t := full
	var sc *trace.Scheduler
	if r.Task != "" {
		i := r.occurrenceTurn(full, v.occ)
		if i < 0 {
			return nil, fmt.Errorf("task %s: the transcript %s has no run of the occurrence due at %s (no prompt with the task's <task> at or after it)",
				r.Task, transcript, v.occ.ProcessAfter)
		}
		sc = r.schedulerV2(full)
		t = sliceTurns(full, i, i+1)
		sc.Timezone = promptZone(t)
	}
	t.Source = &trace.Source{
		Adapter:      Adapter,
		Version:      layoutV2.version,
		Mode:         "import",
		Capabilities: Capabilities,
		Path:         r.Display,
		AgentID:      ag.ID,
		GroupID:      r.Group,
		SessionID:    v.session,
		TaskID:       r.Task,
		Scheduler:    sc,
	}
	r.memory(t)
	return t, nil
}

// sessionDir is a session's folder, relative to the root.
func (r *reader) sessionDir(id string) string {
	return path.Join("data/v2-sessions", r.agentGroup, id)
}

// openSession opens a session's inbound.db and outbound.db.
func (r *reader) openSession(id string) (*v2run, error) {
	v := &v2run{session: id, dir: r.sessionDir(id)}
	for _, f := range []struct {
		name string
		to   **store
	}{{"inbound.db", &v.in}, {"outbound.db", &v.out}} {
		rel := v.dir + "/" + f.name
		s, err := openStore(r.host(rel))
		if err == nil && s == nil {
			err = fmt.Errorf("session %s has no %s", id, f.name)
		}
		if err != nil {
			v.close()
			return nil, wrapStore(r.display(rel), err)
		}
		*f.to = s
	}
	return v, nil
}

// pickSession opens the session to read: the one named, else the one
// that holds the task, else the group's only one.
func (r *reader) pickSession(ids []string) error {
	db := r.display(V2StorePath)
	switch {
	case len(ids) == 0:
		return fmt.Errorf("group %s has no session in %s", r.Group, db)
	case r.Session != "":
		if !slices.Contains(ids, r.Session) {
			return fmt.Errorf("group %s has no session %s in %s (sessions: %s)", r.Group, r.Session, db, listIDs(ids))
		}
		v, err := r.openSession(r.Session)
		r.v2 = v
		return err
	case r.Task != "":
		for _, id := range ids {
			v, err := r.openSession(id)
			if err != nil {
				return err
			}
			rows, err := v.in.taskRows(r.Task)
			if err != nil {
				v.close()
				return fmt.Errorf("task %s: %w", r.Task, wrapStore(r.display(v.dir+"/inbound.db"), err))
			}
			if len(rows) > 0 {
				r.v2 = v
				return nil
			}
			v.close()
		}
		return fmt.Errorf("task %s: no session of group %s has it in its inbound.db (sessions: %s)", r.Task, r.Group, listIDs(ids))
	case len(ids) > 1:
		return fmt.Errorf("group %s has %d sessions in %s; choose one: %s", r.Group, len(ids), db, listIDs(ids))
	}
	v, err := r.openSession(ids[0])
	r.v2 = v
	return err
}

// sessionTranscript is the transcript of the session's conversation: the
// Claude Code session its outbound.db says the agent resumes, else the
// group's only transcript.
func (r *reader) sessionTranscript() (string, error) {
	v := r.v2
	out := r.display(v.dir + "/outbound.db")
	conts, err := v.out.continuations()
	if err != nil {
		return "", wrapStore(out, err)
	}
	rel := r.transcriptDir()
	ids, err := transcripts(r.host(rel))
	if err != nil {
		return "", fmt.Errorf("list transcripts: %w", err)
	}
	dir := r.display(rel)
	if id, ok := conts["claude"]; ok {
		if strings.ContainsAny(id, `/\`) || !slices.Contains(ids, id) {
			return "", fmt.Errorf("session %s resumes Claude Code session %s (%s), which is not in %s (transcripts: %s)", v.session, id, out, dir, listIDs(ids))
		}
		return id, nil
	}
	if len(conts) > 0 {
		var providers []string
		for p := range conts {
			providers = append(providers, p)
		}
		sort.Strings(providers)
		return "", fmt.Errorf("session %s ran on provider %s (%s), which keeps no Claude Code transcript", v.session, strings.Join(providers, ", "), out)
	}
	switch len(ids) {
	case 0:
		return "", fmt.Errorf("group %s has no transcript: %s has no .jsonl file", r.Group, dir)
	case 1:
		return ids[0], nil
	}
	return "", fmt.Errorf("session %s names no Claude Code session (%s has no continuation:claude), and %s has %d transcripts: %s",
		v.session, out, dir, len(ids), listIDs(ids))
}

// loadTask reads the task's occurrences and picks the one whose run the
// trace is: the last that ran (the container acknowledged it completed or
// failed, or the host marked it so).
func (r *reader) loadTask() error {
	v := r.v2
	in := r.display(v.dir + "/inbound.db")
	rows, err := v.in.taskRows(r.Task)
	if err != nil {
		return fmt.Errorf("task %s: %w", r.Task, wrapStore(in, err))
	}
	if len(rows) == 0 {
		return fmt.Errorf("task %s: no such task in %s", r.Task, in)
	}
	if v.acks, err = v.out.acks(); err != nil {
		return fmt.Errorf("task %s: %w", r.Task, wrapStore(r.display(v.dir+"/outbound.db"), err))
	}
	v.series = rows
	for i := range rows {
		if v.ran(&rows[i]) {
			v.occ = &rows[i]
		}
	}
	if v.occ == nil {
		last := rows[len(rows)-1]
		return fmt.Errorf("task %s has not run yet in session %s (%s: due at %s, %s)", r.Task, v.session, in, last.ProcessAfter, last.Status)
	}
	return nil
}

// ran reports whether an occurrence ran, and failed reports whether that
// run failed.
func (v *v2run) ran(o *taskRow) bool {
	a := v.acks[o.ID]
	return a.Status == "completed" || a.Status == "failed" || o.Status == "completed" || o.Status == "failed"
}

func (v *v2run) failed(o *taskRow) bool {
	return v.acks[o.ID].Status == "failed" || o.Status == "failed"
}

// occurrenceTurn is the turn of t that ran occurrence o: the first whose
// prompt carries the task and that started when it was due or later (the
// container takes a task once process_after has passed), or -1.
func (r *reader) occurrenceTurn(t *trace.Trace, o *taskRow) int {
	due, known := parseTime(o.ProcessAfter)
	for i := range t.Turns {
		if isTaskMessage(t.Turns[i].UserText, o.Prompt) && (!known || t.Turns[i].StartMs >= due.UnixMilli()) {
			return i
		}
	}
	return -1
}

// isTaskMessage reports whether a NanoClaw 2 prompt carries a task with
// the prompt: the agent runner formats a task as `<task time="...">`,
// the script's output when it has one, then "Instructions:" and the
// prompt (container/agent-runner/src/formatter.ts).
func isTaskMessage(text, prompt string) bool {
	return strings.Contains(text, "<task") && strings.Contains(text, "Instructions:\n"+prompt+"</task>")
}

// schedulerV2 is the scheduler context of the task: its schedule, when the
// occurrence whose run the trace is was due, and its runs, from the
// occurrences that ran (their durations from their turns in t).
func (r *reader) schedulerV2(t *trace.Trace) *trace.Scheduler {
	v := r.v2
	sc := &trace.Scheduler{
		TaskID:       r.Task,
		Trigger:      "scheduler",
		ScheduleType: "once",
		ContextMode:  "group",
		Prompt:       v.occ.Prompt,
		Runs:         []trace.TaskRun{},
	}
	sc.ScheduledFor = v.occ.ProcessAfter
	if at, ok := parseTime(v.occ.ProcessAfter); ok {
		sc.ScheduledFor = isoMillis(at)
	}
	for _, o := range v.series {
		if o.Recurrence != "" {
			sc.ScheduleValue = o.Recurrence
		}
	}
	switch {
	case sc.ScheduleValue != "" || len(v.series) > 1:
		sc.ScheduleType = "cron"
	default:
		sc.ScheduleValue = v.series[0].ProcessAfter
	}
	for i := range v.series {
		o := &v.series[i]
		if !v.ran(o) {
			continue
		}
		run := trace.TaskRun{Status: "success"}
		if at, ok := parseTime(v.acks[o.ID].Changed); ok {
			run.RunAt = isoMillis(at)
		}
		if v.failed(o) {
			run.Status = "error"
			run.Error = fmt.Sprintf("failed after %d tries", o.Tries)
		}
		if j := r.occurrenceTurn(t, o); j >= 0 {
			run.DurationMs = t.Turns[j].DurationMs()
		}
		sc.Runs = append(sc.Runs, run)
	}
	return sc
}
