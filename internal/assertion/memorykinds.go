package assertion

import (
	"math"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

// Memory and scheduler checks, on traces whose source observes them: a
// NanoClaw group's memory reads and writes, its scheduled task's runs and
// the messages a run sent out.

// Groups a memory entry can name besides a group's own name.
const (
	GroupOwn   = "own"   // the trace's own group
	GroupOther = "other" // any group but the trace's own (and global)
)

// Memory operations a memory.forbid entry can name.
const (
	MemoryOpRead  = "read"
	MemoryOpWrite = "write"
)

// MemoryEntry is one memory.reads or memory.writes entry (at least one such
// event must match it) or one memory.forbid entry (none may).
type MemoryEntry struct {
	Pos diag.Pos
	// Group is GroupOwn (the default), GroupOther, or a group's name.
	Group string
	// Op is the operation a forbid entry forbids ("": both).
	Op           string
	PathMatch    *vars.Regex
	ContentMatch *vars.Regex
	// Severity is the entry's own severity ("": the block's).
	Severity Severity
}

// Counted is a scheduler count: scheduler.task_runs (the task's recorded
// runs, optionally of one status) or scheduler.outbound (the messages sent
// out, optionally matching a regex).
type Counted struct {
	Pos    diag.Pos
	Count  Count
	Status string
	Match  *vars.Regex
}

var (
	memoryEntryField   = []string{"group", "path_match", "content_match", "severity"}
	memoryForbidFields = []string{"group", "op", "path_match", "content_match", "severity"}
	taskRunFields      = []string{"count", "status"}
	outboundFields     = []string{"count", "match"}
	taskRunStatuses    = []string{"success", "error"}
)

// memoryEntry reads one entry; group is the group it names unless it
// says (a merge key, <<, may say).
func (l *reader) memoryEntry(n *yaml.Node, what string, known []string, group string) (MemoryEntry, bool) {
	before := len(*l.Diags)
	f, ok := l.Fields(n, what, known)
	if !ok {
		return MemoryEntry{}, false
	}
	e := MemoryEntry{Pos: l.Pos(l.DerefQuiet(n)), Group: group}
	if p, ok := f["group"]; ok {
		if name, ok := l.Name(p.Val, what+".group"); ok {
			e.Group = name.Value
		}
	}
	if p, ok := f["op"]; ok {
		if v, node, ok := l.Text(p.Val, what+".op"); ok {
			if v != MemoryOpRead && v != MemoryOpWrite {
				l.Errorf(node, "%s.op %q is not one of read, write (leave it out for both)", what, v)
			}
			e.Op = v
		}
	}
	e.PathMatch = l.OptRegex(f, "path_match", what)
	e.ContentMatch = l.OptRegex(f, "content_match", what)
	if p, ok := f["severity"]; ok {
		e.Severity = l.severity(p.Val, what+".severity")
	}
	return e, len(*l.Diags) == before
}

// counted reads a number (exactly that many) or {count, status | match}.
func (l *reader) counted(n *yaml.Node, what string, known []string) *Counted {
	d := l.Deref(n)
	if d == nil {
		return nil
	}
	c := &Counted{Pos: l.Pos(d), Count: DefaultCount}
	if d.Kind == yaml.ScalarNode {
		if v, ok := l.Integer(d, what, 0, math.MaxInt32); ok {
			c.Count = Count{Pos: c.Pos, Min: v, Max: v, Exact: true}
		}
		return c
	}
	f, ok := l.Fields(d, what, known)
	if !ok {
		return nil
	}
	if p, ok := f["count"]; ok {
		c.Count = l.countOrNumber(p.Val, what+".count")
	}
	if p, ok := f["status"]; ok {
		if v, node, ok := l.Text(p.Val, what+".status"); ok {
			if !slices.Contains(taskRunStatuses, v) {
				l.Errorf(node, "%s.status %q is not one of success, error", what, v)
			}
			c.Status = v
		}
	}
	c.Match = l.OptRegex(f, "match", what)
	return c
}

// countOrNumber reads a count: N (exactly), or {exact} / {min, max}.
func (l *reader) countOrNumber(n *yaml.Node, what string) Count {
	if d := l.Deref(n); d != nil && d.Kind == yaml.ScalarNode {
		v, _ := l.Integer(d, what, 0, math.MaxInt32)
		return Count{Pos: l.Pos(d), Min: v, Max: v, Exact: true}
	}
	return l.count(n, what)
}

// readMemory reads memory.reads or memory.writes: entries that at least
// one memory event must match (of the trace's own group unless they say).
func readMemory(l *reader, n *yaml.Node, what string) []Item {
	return l.memoryEntries(n, what, memoryEntryField, GroupOwn)
}

// readMemoryForbid reads memory.forbid: entries no memory event may match.
// Forbidding one's own memory is rare; other is what isolation means.
func readMemoryForbid(l *reader, n *yaml.Node, what string) []Item {
	return l.memoryEntries(n, what, memoryForbidFields, GroupOther)
}

func (l *reader) memoryEntries(n *yaml.Node, what string, known []string, group string) []Item {
	items, _ := l.List(n, what)
	var out []Item
	for i, item := range items {
		if e, ok := l.memoryEntry(item, decode.Index(what, i), known, group); ok {
			out = append(out, Item{Pos: e.Pos, Severity: e.Severity, Payload: &e})
		}
	}
	return out
}

func readTaskRuns(l *reader, n *yaml.Node, what string) []Item {
	return countedItem(l.counted(n, what, taskRunFields))
}

func readOutbound(l *reader, n *yaml.Node, what string) []Item {
	return countedItem(l.counted(n, what, outboundFields))
}

func countedItem(c *Counted) []Item {
	if c == nil {
		return nil
	}
	return []Item{{Pos: c.Pos, Payload: c}}
}

// Refs implements Payload.
func (e *MemoryEntry) Refs() []vars.Ref { return regexRefs(e.PathMatch, e.ContentMatch) }

// Bind implements Payload.
func (e *MemoryEntry) Bind(v *vars.Vars) (Payload, error) {
	b := *e
	var err error
	if b.PathMatch, err = bindOpt(e.PathMatch, v); err != nil {
		return nil, err
	}
	if b.ContentMatch, err = bindOpt(e.ContentMatch, v); err != nil {
		return nil, err
	}
	return &b, nil
}

// Refs implements Payload.
func (c *Counted) Refs() []vars.Ref { return regexRefs(c.Match) }

// Bind implements Payload.
func (c *Counted) Bind(v *vars.Vars) (Payload, error) {
	if c.Match == nil {
		return c, nil
	}
	b := *c
	var err error
	if b.Match, err = c.Match.Bind(v); err != nil {
		return nil, err
	}
	return &b, nil
}
