package nanoclaw

import (
	"regexp"
	"sync"
	"time"

	"github.com/ananke/action/internal/trace"
)

// A scheduled task's run is one turn of a session: the turn whose prompt
// is the task's. An isolated run has a session of its own, but a task
// with context_mode group resumes the group's session, and a NanoClaw 2
// task is a message of its session's conversation: the session holds the
// chat before and after the run, which is not the task's.

// lastTurn is the index of the last turn whose prompt is, by isPrompt, the
// task's, or -1.
func lastTurn(t *trace.Trace, isPrompt func(string) bool) int {
	for i := len(t.Turns) - 1; i >= 0; i-- {
		if isPrompt(t.Turns[i].UserText) {
			return i
		}
	}
	return -1
}

// sliceTurns is the trace of turns [from, to) of t, numbered from 0. The
// events keep their sequence numbers and origins, so evidence still leads
// to the transcript's lines.
func sliceTurns(t *trace.Trace, from, to int) *trace.Trace {
	out := &trace.Trace{Mask: t.Mask, Turns: make([]trace.Turn, 0, to-from)}
	for i := from; i < to; i++ {
		turn := t.Turns[i]
		turn.Index = i - from
		turn.ToolCalls = append([]trace.ToolCall(nil), turn.ToolCalls...)
		for j := range turn.ToolCalls {
			turn.ToolCalls[j].Turn = turn.Index
		}
		out.Turns = append(out.Turns, turn)
	}
	if n := len(out.Turns); n > 0 {
		out.TestStartMs, out.TestEndMs = out.Turns[0].StartMs, out.Turns[n-1].EndMs
	}
	return out
}

// contextZone finds the timezone NanoClaw declares at the head of every
// prompt it formats (`<context timezone="America/New_York" />`).
var contextZone = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<context timezone="([^"<>]+)"`) })

// promptZone is the timezone the first prompt of t that declares one
// names ("" when none does).
func promptZone(t *trace.Trace) string {
	for i := range t.Turns {
		if m := contextZone().FindStringSubmatch(t.Turns[i].UserText); m != nil {
			return m[1]
		}
	}
	return ""
}

// isoMillis formats a time as NanoClaw writes times (JavaScript's
// toISOString): UTC, with milliseconds.
func isoMillis(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// parseTime reads a time as NanoClaw writes them: an ISO 8601 time with a
// zone (toISOString), or SQLite's datetime('now'), which is UTC without a
// zone ("2026-04-08 12:00:14").
func parseTime(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
