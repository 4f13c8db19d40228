package nanoclaw

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// ScheduledPrefix is what NanoClaw's agent runner puts before a scheduled
// task's prompt (container/agent-runner/src/index.ts).
const ScheduledPrefix = "[SCHEDULED TASK - The following message was sent automatically and is not coming directly from the user or group.]\n\n"

// transcriptDir is where Claude Code keeps a group's transcripts, relative to
// the root: each group has its own .claude (mounted at /home/node/.claude) and
// the agent's working directory is /workspace/group.
func transcriptDir(group string) string {
	return path.Join("data/sessions", group, ".claude/projects/-workspace-group")
}

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

// summary is what choosing a transcript needs of one: its first user prompt
// and its last timestamp.
type summary struct {
	FirstPrompt string
	Last        time.Time
}

// line is the part of a transcript line that summarize reads.
type line struct {
	Type        string `json:"type"`
	IsSidechain bool   `json:"isSidechain"`
	IsMeta      bool   `json:"isMeta"`
	Timestamp   string `json:"timestamp"`
	Message     struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

// summarize reads a transcript's first user prompt and last timestamp.
func summarize(file string) (summary, error) {
	var s summary
	f, err := os.Open(file)
	if err != nil {
		return s, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	found := false
	for {
		b, err := r.ReadBytes('\n')
		if len(strings.TrimSpace(string(b))) > 0 {
			var l line
			if json.Unmarshal(b, &l) == nil {
				if ts, err := time.Parse(time.RFC3339Nano, l.Timestamp); err == nil && ts.After(s.Last) {
					s.Last = ts
				}
				if !found && l.Type == "user" && !l.IsSidechain && !l.IsMeta {
					if text, ok := promptText(l.Message.Content); ok {
						s.FirstPrompt, found = text, true
					}
				}
			}
		}
		if errors.Is(err, io.EOF) {
			return s, nil
		}
		if err != nil {
			return s, err
		}
	}
}

// promptText is the text of a user message's content when it is a prompt
// (a string, or text blocks) rather than tool results.
func promptText(content json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s, true
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(content, &blocks) != nil {
		return "", false
	}
	var texts []string
	for _, b := range blocks {
		if b.Type == "tool_result" {
			return "", false
		}
		if b.Type == "text" {
			texts = append(texts, b.Text)
		}
	}
	return strings.Join(texts, "\n"), len(texts) > 0
}

// taskTranscript finds the transcript of an isolated run of a task: the one
// whose first prompt is the scheduled-task prefix and the task's prompt (or,
// for a task with a script, NanoClaw's enriched prompt ending in it), the
// newest by last timestamp when several are.
func taskTranscript(dir string, ids []string, prompt string) (string, error) {
	best, bestAt := "", time.Time{}
	for _, id := range ids {
		s, err := summarize(filepath.Join(dir, id+".jsonl"))
		if err != nil {
			return "", err
		}
		if !isTaskPrompt(s.FirstPrompt, prompt) {
			continue
		}
		if best == "" || s.Last.After(bestAt) {
			best, bestAt = id, s.Last
		}
	}
	return best, nil
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
