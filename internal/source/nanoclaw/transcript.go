package nanoclaw

import (
	"errors"
	"os"
	"slices"
	"strings"

	"github.com/ananke/action/internal/source/claude"
	"github.com/ananke/action/internal/trace"
)

// ScheduledPrefix is what NanoClaw's agent runner puts before a scheduled
// task's prompt (container/agent-runner/src/index.ts).
const ScheduledPrefix = "[SCHEDULED TASK - The following message was sent automatically and is not coming directly from the user or group.]\n\n"

// transcripts lists the session ids of the group's transcripts, sorted.
func transcripts(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	var ids []string
	for _, e := range entries {
		if id, ok := strings.CutSuffix(e.Name(), ".jsonl"); ok && !e.IsDir() && id != "" {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// taskTranscript finds the transcript of an isolated run of a task: the one
// whose first prompt is the scheduled-task prefix and the task's prompt (or,
// for a task with a script, NanoClaw's enriched prompt ending in it), the
// newest by last timestamp when several are. Each candidate is read as the
// trace it is, so a prompt is what the claude adapter says one is.
func (r *reader) taskTranscript(rel string, ids []string, prompt string) (string, error) {
	best, bestAt := "", int64(0)
	for _, id := range ids {
		t, err := r.transcript(rel, id)
		if err != nil {
			return "", err
		}
		if len(t.Turns) == 0 || !isTaskPrompt(t.Turns[0].UserText, prompt) {
			continue
		}
		if best == "" || t.TestEndMs > bestAt {
			best, bestAt = id, t.TestEndMs
		}
	}
	return best, nil
}

// transcript reads session id of the transcripts in rel, once.
func (r *reader) transcript(rel, id string) (*trace.Trace, error) {
	if t, ok := r.parsed[id]; ok {
		return t, nil
	}
	file := rel + "/" + id + ".jsonl"
	t, err := claude.Read(r.host(file), r.display(file))
	if err != nil {
		return nil, err
	}
	if r.parsed == nil {
		r.parsed = map[string]*trace.Trace{}
	}
	r.parsed[id] = t
	return t, nil
}

// isTaskPrompt reports whether a session's first prompt is a scheduled run
// of the prompt. NanoClaw may append pending IPC messages after it, and a
// task with a script gets "[SCHEDULED TASK]\n\nScript output:...
// Instructions:\n<prompt>" instead.
func isTaskPrompt(first, prompt string) bool {
	if strings.HasPrefix(first, ScheduledPrefix+prompt) {
		return true
	}
	return strings.HasPrefix(first, "[SCHEDULED TASK]\n\n") && strings.HasSuffix(first, "\nInstructions:\n"+prompt)
}

// listIDs formats session ids for a message.
func listIDs(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}
