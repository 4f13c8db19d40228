package assertion

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// Memory checks read the memory events of the scope's turns; a group
// entry is resolved against the trace's own group (its source's).

// groupOf is the trace's own group ("" when its source names none).
func groupOf(s trace.Scope) string {
	if s.Source == nil {
		return ""
	}
	return s.Source.GroupID
}

// memoryMatches reports whether memory event ev matches entry e, and if
// not, why (for the failure message).
func memoryMatches(e *MemoryEntry, ev *trace.MemoryEvent, own string) bool {
	switch e.Group {
	case GroupOwn:
		if ev.Group != own {
			return false
		}
	case GroupOther:
		if ev.Group == "" || ev.Group == own || ev.Group == "global" {
			return false
		}
	default:
		if ev.Group != e.Group {
			return false
		}
	}
	if e.Op != "" && ev.Op != e.Op {
		return false
	}
	if e.PathMatch != nil && !e.PathMatch.Compiled().MatchString(ev.Path) {
		return false
	}
	return e.ContentMatch == nil || e.ContentMatch.Compiled().MatchString(ev.Content)
}

// describeMemory says what an entry selects: "a read of group family's
// memory with content matching `bullet`".
func describeMemory(e *MemoryEntry, op, own string) string {
	var b strings.Builder
	switch op {
	case trace.MemoryRead:
		b.WriteString("a read of ")
	case trace.MemoryWrite:
		b.WriteString("a write to ")
	default:
		b.WriteString("a read or write of ")
	}
	switch e.Group {
	case GroupOwn:
		if own == "" {
			b.WriteString("the trace's own group's memory")
		} else {
			fmt.Fprintf(&b, "its own group %s's memory", own)
		}
	case GroupOther:
		b.WriteString("another group's memory")
	default:
		fmt.Fprintf(&b, "group %s's memory", e.Group)
	}
	if e.PathMatch != nil {
		fmt.Fprintf(&b, " at a path matching `%s`", e.PathMatch.Raw)
	}
	if e.ContentMatch != nil {
		fmt.Fprintf(&b, " with content matching `%s`", e.ContentMatch.Raw)
	}
	return b.String()
}

// memoryEvents is every memory event of the scope, with the scope's calls
// by id (the call that made an event).
func memoryEvents(s trace.Scope) ([]*trace.MemoryEvent, map[string]*trace.ToolCall) {
	var evs []*trace.MemoryEvent
	for i := range s.Turns {
		for j := range s.Turns[i].Memory {
			evs = append(evs, &s.Turns[i].Memory[j])
		}
	}
	return evs, callsByID(s)
}

// callsByID is the scope's tool calls by id.
func callsByID(s trace.Scope) map[string]*trace.ToolCall {
	calls := map[string]*trace.ToolCall{}
	for i := range s.Turns {
		for j := range s.Turns[i].ToolCalls {
			calls[s.Turns[i].ToolCalls[j].ID] = &s.Turns[i].ToolCalls[j]
		}
	}
	return calls
}

func memoryEvidence(note string, ev *trace.MemoryEvent, calls map[string]*trace.ToolCall) Evidence {
	e := Evidence{Note: fmt.Sprintf("%s: %s %s", note, ev.Op, ev.Path), EventRefs: []int64{ev.Seq}}
	if ev.Content != "" {
		e.Text = shorten(ev.Content, excerptLen)
	}
	if ev.CallID != "" {
		e.Call = calls[ev.CallID]
	} else {
		e.Note += " (loaded by the runtime)"
	}
	return e
}

// memoryRequire: at least one event of op matches the entry.
func memoryRequire(r *Result, e *MemoryEntry, op string, s trace.Scope) {
	own := groupOf(s)
	want := *e
	want.Op = op
	r.Expected = describeMemory(&want, op, own)
	evs, calls := memoryEvents(s)
	var seen []string
	for _, ev := range evs {
		if memoryMatches(&want, ev, own) {
			r.Observed = ev.Op + " " + ev.Path
			r.Evidence = append(r.Evidence, memoryEvidence("matches", ev, calls))
			r.set(status.Pass, "%s: %s %s", s.Name, ev.Op, ev.Path)
			return
		}
		if ev.Op == op && len(seen) < maxReasons {
			seen = append(seen, fmt.Sprintf("%s (group %s)", ev.Path, orNone(ev.Group)))
		}
	}
	r.Observed = plural.Count(countOp(evs, op), "memory "+op)
	if len(seen) == 0 {
		r.set(status.Fail, "%s has no memory %s; expected %s", s.Name, op, r.Expected)
		return
	}
	r.set(status.Fail, "%s has no matching memory %s (expected %s); seen: %s", s.Name, op, r.Expected, strings.Join(seen, ", "))
}

// memoryForbid: no event matches the entry.
func memoryForbid(r *Result, e *MemoryEntry, s trace.Scope) {
	own := groupOf(s)
	r.Expected = "no " + strings.TrimPrefix(describeMemory(e, e.Op, own), "a ")
	evs, calls := memoryEvents(s)
	var bad []string
	n := 0
	for _, ev := range evs {
		if !memoryMatches(e, ev, own) {
			continue
		}
		n++
		if len(bad) < maxReasons {
			bad = append(bad, fmt.Sprintf("%s %s (group %s)", ev.Op, ev.Path, orNone(ev.Group)))
		}
		if len(r.Evidence) < maxEvidence {
			r.Evidence = append(r.Evidence, memoryEvidence("forbidden", ev, calls))
		}
	}
	r.Observed = plural.Count(n, "matching memory event")
	if n == 0 {
		r.set(status.Pass, "%s touched no memory it must not (%s)", s.Name, plural.Count(len(evs), "memory event"))
		return
	}
	if extra := n - len(bad); extra > 0 {
		bad = append(bad, fmt.Sprintf("%d more", extra))
	}
	r.set(status.Fail, "%s touched memory it must not: %s", s.Name, strings.Join(bad, ", "))
}

func countOp(evs []*trace.MemoryEvent, op string) int {
	n := 0
	for _, ev := range evs {
		if ev.Op == op {
			n++
		}
	}
	return n
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
