package assertion

import (
	"slices"
	"testing"

	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// Memory events of a NanoClaw run of group family: its own CLAUDE.md and
// global's loaded by the runtime, another group's read by call c1, and a
// note written by call c2.
var (
	ownRead    = trace.MemoryEvent{Seq: 10, Op: trace.MemoryRead, Group: "family", Path: "/workspace/group/CLAUDE.md", Content: "Biscuit's bed is by the window"}
	globalRead = trace.MemoryEvent{Seq: 11, Op: trace.MemoryRead, Group: "global", Path: "/workspace/global/CLAUDE.md", Content: "Answer in English"}
	otherRead  = trace.MemoryEvent{Seq: 12, Op: trace.MemoryRead, Group: "work", Path: "/workspace/project/groups/work/CLAUDE.md", Content: "Rex the dog", CallID: "c1"}
	ownWrite   = trace.MemoryEvent{Seq: 13, Op: trace.MemoryWrite, Group: "family", Path: "/workspace/group/notes.md", CallID: "c2"}
)

// memTurn is a turn with memory events and the calls c1 (Read, seq 4-6)
// and c2 (Write, seq 7-9) that made some of them.
func memTurn(evs ...trace.MemoryEvent) trace.Turn {
	t := turnOf("Biscuit sleeps by the window.",
		call("c1", "Read", `{"file_path": "/workspace/project/groups/work/CLAUDE.md"}`, seqAt(4), result("Rex the dog", false), func(c *trace.ToolCall) { c.EndSeq, c.ResultSeq = 5, 6 }),
		call("c2", "Write", `{"file_path": "/workspace/group/notes.md"}`, seqAt(7), result("ok", false), func(c *trace.ToolCall) { c.EndSeq, c.ResultSeq = 8, 9 }))
	t.Memory = evs
	return t
}

// nanoTest is the test scope of a NanoClaw trace of group (no group: "").
func nanoTest(group string, turns ...trace.Turn) trace.Scope {
	src := *nanoSource
	src.GroupID = group
	tr := trace.Trace{Turns: turns, Source: &src}
	return tr.TestScope()
}

func memCheck(kind Kind, group, op, path, content string) Check {
	e := &MemoryEntry{Group: group, Op: op}
	if path != "" {
		e.PathMatch = vars.MustRegex(path)
	}
	if content != "" {
		e.ContentMatch = vars.MustRegex(content)
	}
	return Check{ID: "test." + string(kind) + "[0]", Kind: kind, Payload: e}
}

func TestMemoryReadsAndWrites(t *testing.T) {
	all := nanoTest("family", memTurn(ownRead, globalRead, otherRead, ownWrite))
	reads := func(group, path, content string) Check {
		return memCheck(KindMemoryReads, group, "", path, content)
	}
	writes := func(group, path, content string) Check {
		return memCheck(KindMemoryWrites, group, "", path, content)
	}
	runExact(t, []exactCase{
		{"own read", reads(GroupOwn, "", ""), all, status.Pass, "test: read /workspace/group/CLAUDE.md"},
		{"own read with content", reads(GroupOwn, "", "(?i)biscuit"), all, status.Pass, "test: read /workspace/group/CLAUDE.md"},
		{"own read, content not there", reads(GroupOwn, "", "Rex"), all, status.Fail,
			"test has no matching memory read (expected a read of its own group family's memory with content matching `Rex`); " +
				"seen: /workspace/group/CLAUDE.md (group family), /workspace/global/CLAUDE.md (group global), /workspace/project/groups/work/CLAUDE.md (group work)"},
		{"other group read", reads(GroupOther, "", ""), all, status.Pass, "test: read /workspace/project/groups/work/CLAUDE.md"},
		{"global is never other", reads(GroupOther, "", ""), nanoTest("family", memTurn(ownRead, globalRead)), status.Fail,
			"test has no matching memory read (expected a read of another group's memory); seen: /workspace/group/CLAUDE.md (group family), /workspace/global/CLAUDE.md (group global)"},
		{"a named group", reads("global", "", ""), all, status.Pass, "test: read /workspace/global/CLAUDE.md"},
		{"a named group read, by path", reads("work", `CLAUDE\.md$`, ""), all, status.Pass, "test: read /workspace/project/groups/work/CLAUDE.md"},
		{"path not matching", reads(GroupOwn, `notes\.md$`, ""), all, status.Fail,
			"test has no matching memory read (expected a read of its own group family's memory at a path matching `notes\\.md$`); " +
				"seen: /workspace/group/CLAUDE.md (group family), /workspace/global/CLAUDE.md (group global), /workspace/project/groups/work/CLAUDE.md (group work)"},
		{"no reads at all", reads(GroupOwn, "", ""), nanoTest("family", memTurn(ownWrite)), status.Fail,
			"test has no memory read; expected a read of its own group family's memory"},
		{"own write", writes(GroupOwn, "", ""), all, status.Pass, "test: write /workspace/group/notes.md"},
		{"a read is not a write", writes("work", "", ""), all, status.Fail,
			"test has no matching memory write (expected a write to group work's memory); seen: /workspace/group/notes.md (group family)"},
		{"no memory events", writes(GroupOwn, "", ""), nanoTest("family", memTurn()), status.Fail,
			"test has no memory write; expected a write to its own group family's memory"},
		{"a trace without a group", reads(GroupOwn, "", ""), nanoTest("", memTurn(ownRead)), status.Fail,
			"test has no matching memory read (expected a read of the trace's own group's memory); seen: /workspace/group/CLAUDE.md (group family)"},
	})
}

func TestMemoryForbid(t *testing.T) {
	all := nanoTest("family", memTurn(ownRead, globalRead, otherRead, ownWrite))
	forbid := func(group, op string) Check { return memCheck(KindMemoryForbid, group, op, "", "") }
	many := []trace.MemoryEvent{ownRead}
	for i, g := range []string{"a", "b", "c", "d", "e"} {
		many = append(many, trace.MemoryEvent{Seq: int64(20 + i), Op: trace.MemoryRead, Group: g, Path: "/workspace/project/groups/" + g + "/CLAUDE.md"})
	}
	runExact(t, []exactCase{
		{"another group's memory", forbid(GroupOther, ""), all, status.Fail,
			"test touched memory it must not: read /workspace/project/groups/work/CLAUDE.md (group work)"},
		{"global and own are not other", forbid(GroupOther, ""), nanoTest("family", memTurn(ownRead, globalRead, ownWrite)), status.Pass,
			"test touched no memory it must not (3 memory events)"},
		{"only writes forbidden", forbid(GroupOther, MemoryOpWrite), all, status.Pass, "test touched no memory it must not (4 memory events)"},
		{"own writes forbidden", forbid(GroupOwn, MemoryOpWrite), all, status.Fail,
			"test touched memory it must not: write /workspace/group/notes.md (group family)"},
		{"global forbidden by name", forbid("global", ""), all, status.Fail,
			"test touched memory it must not: read /workspace/global/CLAUDE.md (group global)"},
		{"no memory events", forbid(GroupOther, ""), nanoTest("family", memTurn()), status.Pass, "test touched no memory it must not (0 memory events)"},
		{"many, listed by three", forbid(GroupOther, MemoryOpRead), nanoTest("family", memTurn(many...)), status.Fail,
			"test touched memory it must not: read /workspace/project/groups/a/CLAUDE.md (group a), read /workspace/project/groups/b/CLAUDE.md (group b), read /workspace/project/groups/c/CLAUDE.md (group c), 2 more"},
	})
	r := evalOne(t, forbid(GroupOther, ""), nanoTest("family", memTurn(many...)))
	if r.Observed != "5 matching memory events" || r.Expected != "no read or write of another group's memory" {
		t.Errorf("expected %q, observed %q", r.Expected, r.Observed)
	}
	if len(r.Evidence) != 5 || !slices.Equal(r.EventRefs, []int64{20, 21, 22, 23, 24}) {
		t.Errorf("evidence %s, refs %v; want the 5 events", notes(r), r.EventRefs)
	}
}

// TestMemoryEvidence: a result rests on the event that matched (its Seq)
// and on the call that made it, when that call is in the scope.
func TestMemoryEvidence(t *testing.T) {
	first := memTurn(ownRead, otherRead)
	second := memTurn(ownWrite)
	second.ToolCalls = second.ToolCalls[:0:0] // c2 was made in the first turn
	tr := trace.Trace{Turns: []trace.Turn{first, second}, Source: nanoSource}
	tests := []struct {
		name  string
		check Check
		scope trace.Scope
		note  string
		text  string
		call  string
		refs  []int64
	}{
		{"loaded by the runtime", memCheck(KindMemoryReads, GroupOwn, "", "", ""), tr.TestScope(),
			"matches: read /workspace/group/CLAUDE.md (loaded by the runtime)", "Biscuit's bed is by the window", "", []int64{10}},
		{"read by a call", memCheck(KindMemoryReads, GroupOther, "", "", ""), tr.TestScope(),
			"matches: read /workspace/project/groups/work/CLAUDE.md", "Rex the dog", "c1", []int64{4, 5, 6, 12}},
		{"forbidden, by a call", memCheck(KindMemoryForbid, GroupOther, "", "", ""), tr.TestScope(),
			"forbidden: read /workspace/project/groups/work/CLAUDE.md", "Rex the dog", "c1", []int64{4, 5, 6, 12}},
		{"written by a call of the test", memCheck(KindMemoryWrites, GroupOwn, "", "", ""), tr.TestScope(),
			"matches: write /workspace/group/notes.md", "", "c2", []int64{7, 8, 9, 13}},
		{"written by a call outside the turn", memCheck(KindMemoryWrites, GroupOwn, "", "", ""), tr.TurnScope(1),
			"matches: write /workspace/group/notes.md", "", "", []int64{13}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := evalOne(t, tc.check, tc.scope)
			if len(r.Evidence) != 1 {
				t.Fatalf("%s %q: evidence %s, want one item", r.Status, r.Message, notes(r))
			}
			e := r.Evidence[0]
			call := ""
			if e.Call != nil {
				call = e.Call.ID
			}
			if e.Note != tc.note || e.Text != tc.text || call != tc.call || !slices.Equal(e.EventRefs, tc.refs[len(tc.refs)-1:]) {
				t.Errorf("evidence {%q %q call %q refs %v}, want {%q %q call %q refs [%d]}", e.Note, e.Text, call, e.EventRefs, tc.note, tc.text, tc.call, tc.refs[len(tc.refs)-1])
			}
			if !slices.Equal(r.EventRefs, tc.refs) {
				t.Errorf("EventRefs %v, want %v", r.EventRefs, tc.refs)
			}
		})
	}
	// A turn's scope holds its own events only.
	r := evalOne(t, memCheck(KindMemoryReads, GroupOwn, "", "", ""), tr.TurnScope(1))
	if r.Status != status.Fail || r.Message != "turn[1] has no memory read; expected a read of its own group family's memory" || r.Observed != "0 memory reads" {
		t.Errorf("turn[1]: %s %q, observed %q", r.Status, r.Message, r.Observed)
	}
	r = evalOne(t, memCheck(KindMemoryReads, "work", "", "", ""), tr.TurnScope(0))
	if r.Status != status.Pass || r.Observed != "read /workspace/project/groups/work/CLAUDE.md" {
		t.Errorf("turn[0]: %s %q, observed %q", r.Status, r.Message, r.Observed)
	}
}

// TestMemoryWarning: a failing memory check of severity warning warns.
func TestMemoryWarning(t *testing.T) {
	c := memCheck(KindMemoryForbid, GroupOther, "", "", "")
	c.Severity = Warning
	r := evalOne(t, c, nanoTest("family", memTurn(otherRead)))
	if r.Status != status.Warn || r.Severity != Warning {
		t.Errorf("%s %s; want a warning", r.Status, r.Severity)
	}
}
