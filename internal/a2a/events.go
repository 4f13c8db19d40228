package a2a

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/ananke/action/internal/trace"
)

// run records one turn's exchange: every event as received, then what it
// says — the assistant's text, tool calls, the task's state.
type run struct {
	s    *Session
	rec  *trace.Recorder
	sent string // the id of the message the turn sent

	frames    int
	final     bool // a message, or a task in a terminal or interrupted state
	state     a2a.TaskState
	taskID    a2a.TaskID
	contextID string
	failed    bool   // a RunError was recorded
	polled    []byte // the last polled task, to record only changes
	// asked is the status message of the interrupted state the turn
	// answers, and said the last status message seen: a task polled
	// before the agent took the answer still shows the question, which
	// does not end the turn.
	asked, said string
	// The turn's calls in order, and their names.
	open      []string
	callNames map[string]string
	// usage is what the exchange reported using (usage.go).
	usage ledger
}

// record keeps one raw event and returns its time and sequence number.
func (r *run) record(typ string, raw json.RawMessage) (time.Time, int64) {
	at := r.s.now()
	r.frames++
	return at, r.rec.Record(typ, raw, at)
}

// kind names an event as A2A 0.3 did: message, task, status-update,
// artifact-update.
func kind(ev a2a.Event) string {
	switch ev.(type) {
	case *a2a.Message:
		return "message"
	case *a2a.Task:
		return "task"
	case *a2a.TaskStatusUpdateEvent:
		return "status-update"
	case *a2a.TaskArtifactUpdateEvent:
		return "artifact-update"
	}
	return fmt.Sprintf("%T", ev)
}

// event records an event and applies it.
func (r *run) event(ev a2a.Event) {
	raw, err := json.Marshal(ev)
	if err != nil {
		raw, _ = json.Marshal(err.Error())
	}
	if _, ok := ev.(*a2a.Task); ok {
		r.polled = raw
	}
	at, seq := r.record("a2a:"+kind(ev), raw)
	r.apply(ev, at, seq)
}

// poll records a polled task when it changed, and applies it.
func (r *run) poll(t *a2a.Task) {
	raw, err := json.Marshal(t)
	if err == nil && string(raw) == string(r.polled) {
		return
	}
	r.polled = raw
	at, seq := r.record("a2a:task", raw)
	r.apply(t, at, seq)
}

func (r *run) apply(ev a2a.Event, at time.Time, seq int64) {
	info := ev.TaskInfo()
	if info.ContextID != "" {
		r.contextID = info.ContextID
	}
	if info.TaskID != "" {
		r.taskID = info.TaskID
	}
	switch e := ev.(type) {
	case *a2a.Message:
		r.message(e, at, seq, true)
		r.final = true // a message answers the turn
	case *a2a.Task:
		r.history(e.History, at, seq)
		if e.Status.Message != nil {
			r.message(e.Status.Message, at, seq, true)
		}
		for _, a := range e.Artifacts {
			r.artifact(e.ID, a, false, at, seq)
		}
		r.report("task:"+string(e.ID), e.Metadata, true)
		r.status(e.Status, seq)
	case *a2a.TaskStatusUpdateEvent:
		// The event's metadata or its message's: one report.
		reported := r.report(fmt.Sprintf("status:%d", seq), e.Metadata, false)
		if e.Status.Message != nil {
			r.message(e.Status.Message, at, seq, !reported)
		}
		r.status(e.Status, seq)
	case *a2a.TaskArtifactUpdateEvent:
		r.artifact(e.TaskID, e.Artifact, e.Append, at, seq)
	}
}

// history applies the agent messages of a task's history that came after
// the message this turn sent (all of them when the history lacks it).
func (r *run) history(h []*a2a.Message, at time.Time, seq int64) {
	from := 0
	for i, m := range h {
		if m != nil && m.ID == r.sent {
			from = i + 1
		}
	}
	for _, m := range h[from:] {
		if m != nil {
			r.message(m, at, seq, true)
		}
	}
}

// message records an agent message once: its text parts as assistant text,
// its ADK data parts as tool calls, and, with usage set, the usage its
// metadata reports.
func (r *run) message(m *a2a.Message, at time.Time, seq int64, usage bool) {
	if m.Role == a2a.MessageRoleUser {
		return
	}
	id := m.ID
	if id == "" {
		id = fmt.Sprintf("message-%d", seq)
	} else if r.s.seenMsgs[id] {
		return
	}
	r.s.seenMsgs[id] = true
	if usage {
		r.report("message:"+id, m.Metadata, false)
	}
	f, files := contentOf(m.Parts)
	if f.text != "" {
		r.rec.Text(id, f.text, at, seq)
	}
	for _, f := range files {
		r.rec.AgentFile(f)
	}
	for _, p := range m.Parts {
		if c, ok := adkPart(p); ok {
			r.call(c, at, seq)
		}
	}
}

// artifactSoFar is what the session recorded of an artifact: its text
// (and whether it ended in a block, parts.go), and how many files.
type artifactSoFar struct {
	flow
	files int
}

// artifact records what an artifact's parts say (parts.go) as assistant
// text, and its files: appended (append), or as far as it grew since it
// was last seen.
func (r *run) artifact(task a2a.TaskID, a *a2a.Artifact, appended bool, at time.Time, seq int64) {
	if a == nil {
		return
	}
	key := string(task) + "/" + string(a.ID)
	r.report("artifact:"+key, a.Metadata, false)
	before := r.s.artifacts[key]
	var delta string
	var files []trace.Attachment
	if appended {
		now := before
		for _, p := range a.Parts {
			s, att := now.add(p)
			delta += s
			if att != nil {
				files = append(files, *att)
			}
		}
		now.files += len(files)
		r.s.artifacts[key] = now
	} else {
		var now artifactSoFar
		var all []trace.Attachment
		now.flow, all = contentOf(a.Parts)
		delta = now.text
		switch {
		case strings.HasPrefix(now.text, before.text):
			delta = now.text[len(before.text):]
		default: // replaced: its new text follows the old
			now.text = before.text + now.text
		}
		if len(all) > before.files {
			files = all[before.files:]
		}
		now.files = max(before.files, len(all))
		r.s.artifacts[key] = now
	}
	if delta != "" {
		r.rec.Text(string(a.ID), delta, at, seq)
	}
	for _, f := range files {
		r.rec.AgentFile(f)
	}
}

// status applies a task's state: a terminal or interrupted state ends the
// turn; failed, rejected and canceled are the agent's errors.
func (r *run) status(st a2a.TaskStatus, seq int64) {
	r.state = st.State
	asking := ""
	if st.Message != nil {
		asking = string(st.Message.ID)
		r.said = asking
	}
	switch st.State {
	case a2a.TaskStateInputRequired, a2a.TaskStateAuthRequired:
		r.final = r.asked == "" || asking != r.asked
	case a2a.TaskStateCompleted:
		r.final = true
	case a2a.TaskStateFailed, a2a.TaskStateRejected, a2a.TaskStateCanceled:
		r.final = true
		if !r.failed {
			r.failed = true
			msg := stateName(st.State)
			if st.Message != nil {
				if t := textOf(st.Message.Parts); t != "" {
					msg = t
				}
			}
			r.rec.RunError(msg, stateName(st.State), seq)
		}
	}
}

// lastState describes the last state seen, for errors.
func (r *run) lastState() string {
	if r.state == a2a.TaskStateUnspecified {
		if r.frames == 0 {
			return " (no events)"
		}
		return fmt.Sprintf(" (%d events, no task state)", r.frames)
	}
	return fmt.Sprintf(" (last state: %s)", stateName(r.state))
}

// stateName is a task state as A2A 0.3 spelled it: "input-required".
func stateName(s a2a.TaskState) string {
	n := strings.TrimPrefix(string(s), "TASK_STATE_")
	return strings.ReplaceAll(strings.ToLower(n), "_", "-")
}

// textOf is the text of a message or an artifact: its text parts as they
// are, one after the other, with nothing added between them. An artifact
// streamed in chunks is, in a task snapshot, the list of its chunks' parts:
// joined any other way, the same artifact would read differently streamed
// and polled (docs/a2a.md).
func textOf(parts a2a.ContentParts) string {
	var out strings.Builder
	for _, p := range parts {
		if p == nil {
			continue
		}
		if t, ok := p.Content.(a2a.Text); ok {
			out.WriteString(string(t))
		}
	}
	return out.String()
}
