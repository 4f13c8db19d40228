package assertion

import (
	"slices"
	"testing"

	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// digest is a scheduled task that ran three times: a success, a failure
// the scheduler retried, and a success recorded without an event.
var digest = &trace.Scheduler{TaskID: "digest", Trigger: "scheduler", Runs: []trace.TaskRun{
	{Seq: 20, RunAt: "2026-01-05T08:00:00Z", DurationMs: 1200, Status: "success", Result: "Sent the digest"},
	{Seq: 21, RunAt: "2026-01-06T08:00:00Z", DurationMs: 300, Status: "error", Error: "container timed out", Result: "partial"},
	{RunAt: "2026-01-06T08:05:00Z", DurationMs: 900, Status: "success"},
}}

// scheduled is the test scope of a NanoClaw trace whose source has the
// scheduler given (nil: the run served no task).
func scheduled(sch *trace.Scheduler, turns ...trace.Turn) trace.Scope {
	src := *nanoSource
	src.Scheduler = sch
	if len(turns) == 0 {
		turns = []trace.Turn{turnOf("done")}
	}
	tr := trace.Trace{Turns: turns, Source: &src}
	return tr.TestScope()
}

func counted(kind Kind, c Count, status, match string) Check {
	ct := &Counted{Count: c, Status: status}
	if match != "" {
		ct.Match = vars.MustRegex(match)
	}
	return Check{ID: "test." + string(kind), Kind: kind, Payload: ct}
}

func exactly(n int64) Count      { return Count{Min: n, Max: n, Exact: true} }
func between(lo, hi int64) Count { return Count{Min: lo, Max: hi} }

func TestTaskRuns(t *testing.T) {
	runs := func(c Count, status string) Check { return counted(KindTaskRuns, c, status, "") }
	s := scheduled(digest)
	runExact(t, []exactCase{
		{"every run", runs(exactly(3), ""), s, status.Pass, "task digest has 3 runs"},
		{"default: at least one", runs(DefaultCount, ""), s, status.Pass, "task digest has 3 runs"},
		{"successes", runs(exactly(2), "success"), s, status.Pass, "task digest has 2 success runs"},
		{"one failure", runs(exactly(1), "error"), s, status.Pass, "task digest has 1 error run"},
		{"no failure expected", runs(exactly(0), "error"), s, status.Fail, "task digest has 1 error run; expected exactly 0 error runs (3 runs recorded in all)"},
		{"at most one run", runs(between(0, 1), ""), s, status.Fail, "task digest has 3 runs; expected at most 1 run (3 runs recorded in all)"},
		{"between", runs(between(1, 2), "success"), s, status.Pass, "task digest has 2 success runs"},
		{"at least four", runs(Count{Min: 4, Max: -1}, ""), s, status.Fail, "task digest has 3 runs; expected at least 4 runs (3 runs recorded in all)"},
		{"no runs recorded", runs(exactly(0), ""), scheduled(&trace.Scheduler{TaskID: "once"}), status.Pass, "task once has 0 runs"},
		{"no scheduled task", runs(exactly(1), ""), scheduled(nil), status.Fail,
			"the trace's run was not triggered by a scheduled task (the test's source names no task)"},
	})
	r := evalOne(t, runs(exactly(1), "success"), scheduled(nil))
	if r.Expected != "exactly 1 success run of the scheduled task" || r.Observed != "no scheduled task" {
		t.Errorf("expected %q, observed %q", r.Expected, r.Observed)
	}
}

// TestTaskRunsEvidence: each counted run is evidence, at its event when it
// has one, with its error or its result.
func TestTaskRunsEvidence(t *testing.T) {
	r := evalOne(t, counted(KindTaskRuns, exactly(3), "", ""), scheduled(digest))
	want := []Evidence{
		{Note: "task run at 2026-01-05T08:00:00Z: success in 1200 ms", Text: "Sent the digest", EventRefs: []int64{20}},
		{Note: "task run at 2026-01-06T08:00:00Z: error in 300 ms", Text: "container timed out", EventRefs: []int64{21}},
		{Note: "task run at 2026-01-06T08:05:00Z: success in 900 ms"},
	}
	if len(r.Evidence) != len(want) {
		t.Fatalf("evidence %s, want %d items", notes(r), len(want))
	}
	for i, w := range want {
		e := r.Evidence[i]
		if e.Note != w.Note || e.Text != w.Text || !slices.Equal(e.EventRefs, w.EventRefs) || e.Call != nil {
			t.Errorf("evidence[%d] = %+v, want %+v", i, e, w)
		}
	}
	if !slices.Equal(r.EventRefs, []int64{20, 21}) {
		t.Errorf("EventRefs %v, want [20 21]", r.EventRefs)
	}
	r = evalOne(t, counted(KindTaskRuns, exactly(0), "error", ""), scheduled(digest))
	if len(r.Evidence) != 1 || r.Evidence[0].Text != "container timed out" || !slices.Equal(r.EventRefs, []int64{21}) {
		t.Errorf("a status counts its runs only: evidence %s, refs %v", notes(r), r.EventRefs)
	}
}

// sent is a turn that sent the daily digest by call c3 and then its
// output, "Done", to the chat.
func sent() trace.Turn {
	t := turnOf("Done", call("c3", "mcp__nanoclaw__send_message", `{"text": "Daily digest: 3 items"}`, seqAt(40), result("sent", false),
		func(c *trace.ToolCall) { c.EndSeq, c.ResultSeq = 41, 42 }))
	t.Outbound = []trace.Outbound{
		{Seq: 43, To: "family-chat", Text: "Daily digest: 3 items", CallID: "c3"},
		{Seq: 44, Text: "Done"},
	}
	return t
}

func TestOutbound(t *testing.T) {
	out := func(c Count, match string) Check { return counted(KindOutbound, c, "", match) }
	s := scheduled(digest, sent())
	runExact(t, []exactCase{
		{"every message", out(exactly(2), ""), s, status.Pass, "test sent 2 outbound messages"},
		{"matching", out(exactly(1), "(?i)digest"), s, status.Pass, "test sent 1 outbound message matching `(?i)digest`"},
		{"too few matching", out(exactly(2), "digest"), s, status.Fail,
			"test sent 1 outbound message matching `digest`; expected exactly 2 outbound messages matching `digest` (2 outbound messages in all)"},
		{"too many", out(between(0, 1), ""), s, status.Fail, "test sent 2 outbound messages; expected at most 1 outbound message (2 outbound messages in all)"},
		{"none matching", out(DefaultCount, "refund"), s, status.Fail,
			"test sent 0 outbound messages matching `refund`; expected at least 1 outbound message matching `refund` (2 outbound messages in all)"},
		{"none sent, none expected", out(exactly(0), ""), scheduled(nil), status.Pass, "test sent 0 outbound messages"},
		{"over turns", out(exactly(4), ""), scheduled(nil, sent(), sent()), status.Pass, "test sent 4 outbound messages"},
	})
}

// TestOutboundEvidence: a message sent by a tool call rests on the call;
// the run's output says so.
func TestOutboundEvidence(t *testing.T) {
	r := evalOne(t, counted(KindOutbound, exactly(2), "", ""), scheduled(nil, sent()))
	if len(r.Evidence) != 2 {
		t.Fatalf("evidence %s, want 2 items", notes(r))
	}
	byCall, output := r.Evidence[0], r.Evidence[1]
	if byCall.Note != "message 1 sent to family-chat" || byCall.Call == nil || byCall.Call.ID != "c3" || byCall.Text != "Daily digest: 3 items" || !slices.Equal(byCall.EventRefs, []int64{43}) {
		t.Errorf("message sent by a call: %+v", byCall)
	}
	if output.Note != "message 2 sent to none (the run's output)" || output.Call != nil || output.Text != "Done" || !slices.Equal(output.EventRefs, []int64{44}) {
		t.Errorf("the run's output: %+v", output)
	}
	if !slices.Equal(r.EventRefs, []int64{40, 41, 42, 43, 44}) {
		t.Errorf("EventRefs %v, want the call's events and both messages'", r.EventRefs)
	}
	// A message whose call is not in the scope keeps its event only.
	tn := sent()
	tn.ToolCalls = nil
	r = evalOne(t, counted(KindOutbound, exactly(1), "", "digest"), scheduled(nil, tn))
	if len(r.Evidence) != 1 || r.Evidence[0].Call != nil || r.Evidence[0].Note != "message 1 sent to family-chat" || !slices.Equal(r.EventRefs, []int64{43}) {
		t.Errorf("evidence %+v, refs %v", r.Evidence, r.EventRefs)
	}
}

// TestMemorySchedulerEmptyScopes: the memory and scheduler kinds evaluate
// over scopes with nothing in them without panicking, and say what they
// expect.
func TestMemorySchedulerEmptyScopes(t *testing.T) {
	checks := []Check{
		memCheck(KindMemoryReads, GroupOwn, "", "x", "y"),
		memCheck(KindMemoryWrites, GroupOther, "", "", ""),
		memCheck(KindMemoryForbid, "work", MemoryOpRead, "", ""),
		counted(KindTaskRuns, DefaultCount, "success", ""),
		counted(KindOutbound, exactly(0), "", "x"),
	}
	empty := trace.Trace{Turns: []trace.Turn{{}}, Source: nanoSource}
	for _, s := range []trace.Scope{{Name: "test", Source: nanoSource}, empty.TurnScope(0), empty.TestScope()} {
		for _, c := range checks {
			r := evalOne(t, c, s)
			if r.Expected == "" || r.Message == "" || r.Status != status.Pass && r.Status != status.Fail || r.EventRefs == nil {
				t.Errorf("%s over %s: %+v; want a status, a message, an expectation and refs ([] at least)", c.Kind, s.Name, r)
			}
		}
	}
}
