package spec

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/vars"
)

// describeEntry says what a memory entry holds: its group, then what is
// set of op, path_match, content_match and severity.
func describeEntry(e assertion.MemoryEntry) string {
	s := e.Group
	if e.Op != "" {
		s += " op=" + e.Op
	}
	if e.PathMatch != nil {
		s += " path=" + e.PathMatch.Raw
	}
	if e.ContentMatch != nil {
		s += " content=" + e.ContentMatch.Raw
	}
	if e.Severity != "" {
		s += " " + string(e.Severity)
	}
	return s
}

// describeCounted says what a scheduler count holds.
func describeCounted(c *assertion.Counted) string {
	s := c.Count.String()
	if c.Status != "" {
		s += " status=" + c.Status
	}
	if c.Match != nil {
		s += " match=" + c.Match.Raw
	}
	return s
}

// describeSections lists a block's memory and scheduler entries.
func describeSections(b *assertion.Block) string {
	var out []string
	for _, s := range []struct {
		name string
		kind assertion.Kind
	}{{"reads", assertion.KindMemoryReads}, {"writes", assertion.KindMemoryWrites}, {"forbid", assertion.KindMemoryForbid}} {
		for _, e := range payloads[*assertion.MemoryEntry](b, s.kind) {
			out = append(out, s.name+": "+describeEntry(*e))
		}
	}
	for _, c := range payloads[*assertion.Counted](b, assertion.KindTaskRuns) {
		out = append(out, "task_runs: "+describeCounted(c))
	}
	for _, c := range payloads[*assertion.Counted](b, assertion.KindOutbound) {
		out = append(out, "outbound: "+describeCounted(c))
	}
	return strings.Join(out, " | ")
}

// turnAssert is a test whose one turn has the assert block given (written
// after "assert: " on line 5, column 13).
func turnAssert(block string) string {
	return "version: \"1.0\"\nname: t\nx-own: &own {group: own}\nturns:\n  - assert: " + block + "\n    user: hi\n"
}

func TestMemoryAndSchedulerSections(t *testing.T) {
	tests := []struct {
		block, want string
	}{
		{"{memory: {reads: [{}]}}", "reads: own"},
		{`{memory: {reads: [{group: family, path_match: "CLAUDE\\.md$", content_match: "(?i)bullet", severity: warning}]}}`,
			`reads: family path=CLAUDE\.md$ content=(?i)bullet warning`},
		{"{memory: {writes: [{}, {group: other}, {group: global}]}}", "writes: own | writes: other | writes: global"},
		{"{memory: {forbid: [{}]}}", "forbid: other"},
		{"{memory: {forbid: [{op: read}, {op: write, group: own}, {group: family}]}}", "forbid: other op=read | forbid: own op=write | forbid: family"},
		{"{memory: {forbid: [{<<: *own, op: write}]}}", "forbid: own op=write"},
		{"{memory: {reads: [{<<: *own}], forbid: [{<<: *own}]}}", "reads: own | forbid: own"},
		{"{memory: {reads: [], writes: [], forbid: []}}", ""},
		{"{scheduler: {task_runs: 2}}", "task_runs: exactly 2 times"},
		{"{scheduler: {task_runs: 0}}", "task_runs: exactly 0 times"},
		{"{scheduler: {task_runs: {count: 2}}}", "task_runs: exactly 2 times"},
		{"{scheduler: {task_runs: {count: {min: 1, max: 3}, status: error}}}", "task_runs: between 1 and 3 times status=error"},
		{"{scheduler: {task_runs: {count: {exact: 0}}}}", "task_runs: exactly 0 times"},
		{"{scheduler: {task_runs: {count: {min: 2}}}}", "task_runs: at least 2 times"},
		{"{scheduler: {task_runs: {status: success}}}", "task_runs: at least 1 time status=success"},
		{"{scheduler: {task_runs: {}}}", "task_runs: at least 1 time"},
		{"{scheduler: {outbound: 1}}", "outbound: exactly 1 time"},
		{"{scheduler: {outbound: {count: {min: 0, max: 2}, match: digest}}}", "outbound: at most 2 times match=digest"},
		{"{scheduler: {outbound: {match: '(?i)daily'}}}", "outbound: at least 1 time match=(?i)daily"},
		{"{scheduler: {task_runs: 1, outbound: 1}, memory: {reads: [{}]}}", "reads: own | task_runs: exactly 1 time | outbound: exactly 1 time"},
	}
	for _, tc := range tests {
		t.Run(tc.block, func(t *testing.T) {
			tt := mustTest(t, turnAssert(tc.block))
			if got := describeSections(tt.Turns[0].Assert); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestMemoryPositions: entries and counts are where they are written.
func TestMemoryPositions(t *testing.T) {
	tt := mustTest(t, turnAssert("{memory: {reads: [{}]}, scheduler: {task_runs: {count: 3}, outbound: 4}}"))
	b := tt.Turns[0].Assert
	reads := payloads[*assertion.MemoryEntry](b, assertion.KindMemoryReads)
	runs := payloads[*assertion.Counted](b, assertion.KindTaskRuns)[0]
	out := payloads[*assertion.Counted](b, assertion.KindOutbound)[0]
	got := fmt.Sprint(reads[0].Pos.Line, ":", reads[0].Pos.Col, " ",
		runs.Pos.Col, " ", runs.Count.Pos.Col, " ", out.Pos.Col, " ", out.Count.Pos.Col)
	if want := "5:31 60 68 82 82"; got != want {
		t.Errorf("positions %s, want %s", got, want)
	}
}

func TestMemoryAndSchedulerErrors(t *testing.T) {
	tests := []struct {
		name, block, want string
	}{
		{"bad op", "{memory: {forbid: [{op: delete}]}}", `t.ananke.yaml:5:37: turns[0].assert.memory.forbid[0].op "delete" is not one of read, write (leave it out for both)`},
		{"op on reads", "{memory: {reads: [{op: read}]}}", `t.ananke.yaml:5:32: unknown field "op" in turns[0].assert.memory.reads[0]`},
		{"reads not a list", "{memory: {reads: {group: own}}}", `t.ananke.yaml:5:30: turns[0].assert.memory.reads must be a list, not a mapping`},
		{"entry not a mapping", "{memory: {writes: [own]}}", `t.ananke.yaml:5:32: turns[0].assert.memory.writes[0] must be a mapping, not a string`},
		{"unknown section", "{memory: {read: []}}", `t.ananke.yaml:5:23: unknown field "read" in turns[0].assert.memory (did you mean "reads"?)`},
		{"memory not a mapping", "{memory: [reads]}", `t.ananke.yaml:5:22: turns[0].assert.memory must be a mapping, not a list`},
		{"empty group", "{memory: {reads: [{group: ''}]}}", `t.ananke.yaml:5:39: turns[0].assert.memory.reads[0].group must not be empty`},
		{"bad regex", "{memory: {reads: [{path_match: '('}]}}", "t.ananke.yaml:5:44: turns[0].assert.memory.reads[0].path_match: invalid regex \"(\": missing closing ): `(`"},
		{"bad severity", "{memory: {forbid: [{severity: high}]}}", `t.ananke.yaml:5:43: turns[0].assert.memory.forbid[0].severity "high" is not one of critical, warning`},
		{"bad status", "{scheduler: {task_runs: {status: failed}}}", `t.ananke.yaml:5:46: turns[0].assert.scheduler.task_runs.status "failed" is not one of success, error`},
		{"negative", "{scheduler: {task_runs: -1}}", `t.ananke.yaml:5:37: turns[0].assert.scheduler.task_runs must be between 0 and 2147483647, got -1`},
		{"not a number", "{scheduler: {outbound: two}}", `t.ananke.yaml:5:36: turns[0].assert.scheduler.outbound must be a whole number, not a string`},
		{"fraction", "{scheduler: {outbound: {count: 1.5}}}", `t.ananke.yaml:5:44: turns[0].assert.scheduler.outbound.count must be a whole number, not a number`},
		{"min over max", "{scheduler: {task_runs: {count: {min: 3, max: 1}}}}", `t.ananke.yaml:5:46: turns[0].assert.scheduler.task_runs.count: min 3 is greater than max 1`},
		{"empty count", "{scheduler: {task_runs: {count: {}}}}", `t.ananke.yaml:5:45: turns[0].assert.scheduler.task_runs.count is empty: write {exact: N} or {min: A, max: B}`},
		{"match on task_runs", "{scheduler: {task_runs: {match: x}}}", `t.ananke.yaml:5:38: unknown field "match" in turns[0].assert.scheduler.task_runs`},
		{"status on outbound", "{scheduler: {outbound: {status: success}}}", `t.ananke.yaml:5:37: unknown field "status" in turns[0].assert.scheduler.outbound`},
		{"outbound a list", "{scheduler: {outbound: [1]}}", `t.ananke.yaml:5:36: turns[0].assert.scheduler.outbound must be a mapping, not a list`},
		{"unknown scheduler field", "{scheduler: {runs: 1}}", `t.ananke.yaml:5:26: unknown field "runs" in turns[0].assert.scheduler; known fields: task_runs, outbound`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := parseTest(t, turnAssert(tc.block))
			if len(diags) != 1 || !strings.HasPrefix(diags[0].String(), tc.want) {
				t.Errorf("diagnostics:\n%s\nwant one starting %s", diags, tc.want)
			}
		})
	}
}

// TestMemoryChecks: memory and scheduler entries become checks — forbid
// with the prohibitions of every level, reads, writes and the scheduler
// counts with the requirements — each with its own severity over the
// block's, and a scheduler count set by two merged blocks is a clash.
func TestMemoryChecks(t *testing.T) {
	s, diags := loadSuite(t, map[string]string{
		"ananke.config.yaml": minimalConfig + "  assert: {memory: {forbid: [{group: other}]}, scheduler: {outbound: 1}}\nassertions:\n  sched: {scheduler: {task_runs: 1}}\n",
		"t.ananke.yaml": `version: "1.0"
name: t
turns:
  - user: hi
    assert: {memory: {forbid: [{op: write}], reads: [{content_match: x}]}}
assert:
  severity: warning
  extends: sched
  memory:
    reads: [{}]
    writes: [{severity: critical}, {path_match: "CLAUDE\\.md$"}]
  scheduler: {outbound: {count: 2, match: digest}}
`,
	})
	if diags != nil {
		t.Fatal(diags)
	}
	test := s.Tests[0]
	describe := func(cs []assertion.Check) string {
		var out []string
		for _, c := range cs {
			out = append(out, fmt.Sprintf("%s %s %d:%d", c.Severity, c.ID, c.Pos.Line, c.Pos.Col))
		}
		return strings.Join(out, "\n")
	}
	want := strings.Join([]string{
		"critical turn[0].target.memory.forbid[0] 6:30",
		"critical turn[0].memory.forbid[0] 5:32",
		"critical turn[0].memory.reads[0] 5:54",
	}, "\n")
	if got := describe(TurnChecks(s.Config, test, 0)); got != want {
		t.Errorf("turn checks:\n%s\nwant:\n%s", got, want)
	}
	want = strings.Join([]string{
		"critical test.target.memory.forbid[0] 6:30",
		"critical test.target.scheduler.outbound 6:70",
		"warning test.memory.reads[0] 10:13",
		"critical test.memory.writes[0] 11:14",
		"warning test.memory.writes[1] 11:36",
		"warning test.scheduler.outbound 12:25",
		"warning test.scheduler.task_runs 8:34",
	}, "\n")
	if got := describe(TestChecks(s.Config, test)); got != want {
		t.Errorf("test checks:\n%s\nwant:\n%s", got, want)
	}
	bound, err := assertion.BindChecks(TestChecks(s.Config, test), vars.NewVars(nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range bound {
		switch c.ID {
		case "test.memory.writes[1]":
			if m, _ := c.Payload.(*assertion.MemoryEntry); m == nil || m.PathMatch.Compiled() == nil || !m.PathMatch.Compiled().MatchString("groups/family/CLAUDE.md") {
				t.Errorf("bound writes[1] = %+v", m)
			}
		case "test.scheduler.outbound":
			if ct, _ := c.Payload.(*assertion.Counted); ct == nil || ct.Match.Compiled() == nil || describeCounted(ct) != "exactly 2 times match=digest" {
				t.Errorf("bound outbound = %+v", ct)
			}
		}
	}

	_, diags = loadSuite(t, map[string]string{
		"ananke.config.yaml": minimalConfig + "assertions:\n  sched: {scheduler: {task_runs: 1, outbound: 1}}\n",
		"t.ananke.yaml":      "version: \"1.0\"\nname: t\nturns: [{user: hi}]\nassert: {extends: sched, scheduler: {task_runs: 2, outbound: 2}}\n",
	})
	for _, w := range []string{
		"t.ananke.yaml:4:19: scheduler.task_runs is set twice: in this block (",
		"t.ananke.yaml:4:19: scheduler.outbound is set twice: in this block (",
	} {
		if !hasDiag(diags, w) {
			t.Errorf("diagnostics:\n%s\nwant %q", diags, w)
		}
	}
}
