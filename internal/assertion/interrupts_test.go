package assertion

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// askCharge is turn 0 of an approval: the agent proposes charge_card
// (call c1, seq 2, no result) and ends its run (seq 5) with interrupt i-1
// about it.
func askCharge() trace.Turn {
	t := turnOf("", call("c1", "charge_card", `{"amount":42}`, seqAt(2), inTurn(0)))
	t.Interrupts = []trace.Interrupt{{ID: "i-1", Reason: "tool_approval", Message: "Charge 42 EUR to the card ending 4242?", ToolCallID: "c1", Tool: "charge_card", Seq: 5}}
	return t
}

// resumed is turn i, which answered i-1 (its run's first event: seq) and
// then made calls.
func resumed(i int, answer string, seq int64, calls ...trace.ToolCall) trace.Turn {
	t := turnOf("", calls...)
	t.Index = i
	st := trace.StatusResolved
	if answer == trace.AnswerReject {
		st = trace.StatusCancelled
	}
	t.Resumes = []trace.Resume{{InterruptID: "i-1", Answer: answer, Status: st, ToolCallID: "c1", Tool: "charge_card", Reason: "tool_approval", Seq: seq}}
	return t
}

// ran is a call of charge_card in turn i that ran (its result arrived).
func ran(id string, i int, seq int64) trace.ToolCall {
	return call(id, "charge_card", `{"amount":42}`, seqAt(seq), inTurn(i), result(`{"receipt":"CH-1"}`, true))
}

// hitlTest is the test scope of turns, numbered by their place;
// hitlTurn is turn i's.
func hitlTest(turns ...trace.Turn) trace.Scope {
	for i := range turns {
		turns[i].Index = i
	}
	return testScope(turns...)
}

func hitlTurn(i int, turns ...trace.Turn) trace.Scope {
	for j := range turns {
		turns[j].Index = j
	}
	return turnScope(i, turns...)
}

func beforeCheck(tool string) Check {
	return Check{ID: "test.interrupts.before_tool[0]", Kind: KindBeforeTool, Payload: Tool{Name: name(tool)}}
}

func TestBeforeTool(t *testing.T) {
	runExact(t, []exactCase{
		{"approved, then ran", beforeCheck("charge_card"), hitlTest(askCharge(), resumed(1, trace.AnswerApprove, 6, ran("c1", 1, 7))),
			status.Pass, "`charge_card` ran only after an approval in test: call c1 in turn[1]"},
		{"the resume turn's own scope", beforeCheck("charge_card"), hitlTurn(1, askCharge(), resumed(1, trace.AnswerEdit, 6, ran("c1", 1, 7))),
			status.Pass, "`charge_card` ran only after an approval in turn[1]: call c1 in turn[1]"},
		{"approved in one turn, run in the next", beforeCheck("charge_card"), hitlTurn(2, askCharge(), resumed(1, trace.AnswerApprove, 6), turnOf("", ran("c1", 2, 9))),
			status.Pass, "`charge_card` ran only after an approval in turn[2]: call c1 in turn[2]"},
		{"asked and rejected: never ran", beforeCheck("charge_card"), hitlTest(askCharge(), resumed(1, trace.AnswerReject, 6)),
			status.Pass, "`charge_card` did not run in test"},
		{"ran before it asked", beforeCheck("charge_card"), hitlTest(turnOf("", ran("c0", 0, 2))),
			status.Fail, "`charge_card` ran without an approval in test: call c0 in turn[0] ran with no approval before it"},
		{"ran after a rejection", beforeCheck("charge_card"), hitlTest(askCharge(), resumed(1, trace.AnswerReject, 6, ran("c1", 1, 7))),
			status.Fail, "`charge_card` ran without an approval in test: call c1 in turn[1] ran after its interrupt i-1 was rejected"},
		{"ran twice on one approval", beforeCheck("charge_card"), hitlTest(askCharge(), resumed(1, trace.AnswerApprove, 6, ran("c1", 1, 7), ran("c2", 1, 10))),
			status.Fail, "`charge_card` ran without an approval in test: call c2 in turn[1] ran with no approval before it"},
		{"another tool is not held", beforeCheck("refund"), hitlTest(turnOf("", call("r1", "refund", `{}`, seqAt(2), result("ok", false)))),
			status.Fail, "`refund` ran without an approval in test: call r1 in turn[0] ran with no approval before it"},
	})
	// The evidence names the interrupt (its RUN_FINISHED) and the call.
	ok := evalOne(t, beforeCheck("charge_card"), hitlTest(askCharge(), resumed(1, trace.AnswerApprove, 6, ran("c1", 1, 7))))
	if !hasRefs(ok, 5, 7) || notes(ok) != "ran after interrupt i-1 (tool_approval, charge_card call c1) (event #5) was answered approve" {
		t.Errorf("evidence %s, refs %v", notes(ok), ok.EventRefs)
	}
	r := evalOne(t, beforeCheck("charge_card"), hitlTest(askCharge(), resumed(1, trace.AnswerReject, 6, ran("c1", 1, 7))))
	if !hasRefs(r, 5, 7) || !strings.Contains(notes(r), "rejected: interrupt i-1 (tool_approval, charge_card call c1) at event #5") {
		t.Errorf("evidence %s, refs %v", notes(r), r.EventRefs)
	}
}

func interruptCheck(kind Kind, reason, tool, message string) Check {
	e := &InterruptEntry{Reason: reason, Tool: tool}
	if message != "" {
		e.MessageMatch = vars.MustRegex(message)
	}
	return Check{ID: "test." + string(kind) + "[0]", Kind: kind, Payload: e}
}

func TestInterruptsRequireAndForbid(t *testing.T) {
	asked := hitlTest(askCharge())
	none := hitlTest(turnOf("hi"))
	require := func(reason, tool, message string) Check {
		return interruptCheck(KindInterruptsRequire, reason, tool, message)
	}
	forbid := func(reason, tool, message string) Check {
		return interruptCheck(KindInterruptsForbid, reason, tool, message)
	}
	runExact(t, []exactCase{
		{"require by all three", require("tool_approval", "charge_card", `42 EUR`), asked, status.Pass,
			"test: interrupt i-1 (tool_approval, charge_card call c1)"},
		{"require any", require("", "", ""), asked, status.Pass, "test: interrupt i-1 (tool_approval, charge_card call c1)"},
		{"require another tool", require("", "refund", ""), asked, status.Fail,
			"test has no matching interrupt (expected an interrupt about a `refund` call); seen: i-1 (tool_approval, charge_card call c1)"},
		{"require with none", require("tool_approval", "", ""), none, status.Fail,
			"test has no interrupt; expected an interrupt with reason tool_approval"},
		{"forbid any", forbid("", "", ""), asked, status.Fail, "test has 1 interrupt it must not: i-1 (tool_approval, charge_card call c1)"},
		{"forbid another message", forbid("", "", "(?i)weather"), asked, status.Pass, "test has no interrupt it must not (1 interrupt)"},
		{"forbid with none", forbid("", "", ""), none, status.Pass, "test has no interrupt it must not (0 interrupts)"},
	})
	r := evalOne(t, require("", "charge_card", ""), asked)
	if !hasRefs(r, 2, 5) || r.Evidence[0].Call == nil || r.Evidence[0].Text != "Charge 42 EUR to the card ending 4242?" {
		t.Errorf("evidence %+v, refs %v; want the interrupt (#5) and its call (#2)", r.Evidence, r.EventRefs)
	}
}

// TestInterruptsGated: a trace whose source records no interrupts (an
// imported transcript) skips the checks, saying why.
func TestInterruptsGated(t *testing.T) {
	s := withSource(hitlTest(askCharge()), nanoSource)
	for _, c := range []Check{beforeCheck("charge_card"), interruptCheck(KindInterruptsRequire, "", "", "")} {
		if r := evalOne(t, c, s); r.Status != status.Skip || !strings.Contains(r.Message, "needs supports_interrupts, which the nanoclaw trace does not provide") {
			t.Errorf("%s: %s %q", c.Kind, r.Status, r.Message)
		}
	}
}
