package spec

import (
	"math"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

// Memory and scheduler checks (seed 004's memory, isolation and scheduler
// categories) on traces whose source observes them: a NanoClaw group's
// memory reads and writes, its scheduled task's runs and the messages a
// run sent out.

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
	memoryFields     = []string{"reads", "writes", "forbid"}
	memoryEntryField = []string{"group", "path_match", "content_match", "severity"}
	memoryForbid     = []string{"group", "op", "path_match", "content_match", "severity"}
	schedulerFields  = []string{"task_runs", "outbound"}
	taskRunFields    = []string{"count", "status"}
	outboundFields   = []string{"count", "match"}
	taskRunStatuses  = []string{"success", "error"}
)

func (l *loader) memory(n *yaml.Node, what string, b *Block) {
	f, ok := l.Fields(n, what, memoryFields)
	if !ok {
		return
	}
	for _, k := range memoryFields {
		p, ok := f[k]
		if !ok {
			continue
		}
		known, group := memoryEntryField, GroupOwn
		if k == "forbid" {
			// Forbidding one's own memory is rare; other is what
			// isolation means.
			known, group = memoryForbid, GroupOther
		}
		items, _ := l.List(p.Val, what+"."+k)
		for i, item := range items {
			e, ok := l.memoryEntry(item, decode.Index(what+"."+k, i), known, group)
			if !ok {
				continue
			}
			switch k {
			case "reads":
				b.MemoryReads = append(b.MemoryReads, e)
			case "writes":
				b.MemoryWrites = append(b.MemoryWrites, e)
			default:
				b.MemoryForbid = append(b.MemoryForbid, e)
			}
		}
	}
}

// memoryEntry reads one entry; group is the group it names unless it
// says (a merge key, <<, may say).
func (l *loader) memoryEntry(n *yaml.Node, what string, known []string, group string) (MemoryEntry, bool) {
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
	e.PathMatch = l.optRegex(f, "path_match", what)
	e.ContentMatch = l.optRegex(f, "content_match", what)
	if p, ok := f["severity"]; ok {
		e.Severity = l.severity(p.Val, what+".severity")
	}
	return e, len(*l.Diags) == before
}

func (l *loader) scheduler(n *yaml.Node, what string, b *Block) {
	f, ok := l.Fields(n, what, schedulerFields)
	if !ok {
		return
	}
	if p, ok := f["task_runs"]; ok {
		b.TaskRuns = l.counted(p.Val, what+".task_runs", taskRunFields)
	}
	if p, ok := f["outbound"]; ok {
		b.Outbound = l.counted(p.Val, what+".outbound", outboundFields)
	}
}

// counted reads a number (exactly that many) or {count, status | match}.
func (l *loader) counted(n *yaml.Node, what string, known []string) *Counted {
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
	c.Match = l.optRegex(f, "match", what)
	return c
}

// countOrNumber reads a count: N (exactly), or {exact} / {min, max}.
func (l *loader) countOrNumber(n *yaml.Node, what string) Count {
	if d := l.Deref(n); d != nil && d.Kind == yaml.ScalarNode {
		v, _ := l.Integer(d, what, 0, math.MaxInt32)
		return Count{Pos: l.Pos(d), Min: v, Max: v, Exact: true}
	}
	return l.count(n, what)
}
