package engine_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/agui/aguitest"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/status"
)

// TestResumeTurns: against an agent that asks before it charges a card,
// approving runs the call once after the approval, rejecting runs none,
// and both pass interrupts.before_tool; a message sent while the
// interrupt is pending errors the test at that turn, naming it.
func TestResumeTurns(t *testing.T) {
	const ask = `  - user: "charge 42"
    assert:
      interrupts: {require: [{tool: charge_card, reason: tool_approval, message_match: "42 EUR"}]}
`
	const guard = "assert: {interrupts: {before_tool: charge_card}}\n"
	for _, tc := range []struct {
		name, test string
		status     status.Status
		reason     string // the error's, at line
		line       int
		calls      []string // the turns' calls that ran, per turn
	}{
		{"approve", "turns:\n" + ask + "  - resume: {tool: charge_card, answer: approve}\n    assert: {tools: {require: [{name: charge_card, count: {exact: 1}, args_match: {amount: \"^42$\"}}]}}\n" + guard,
			status.Pass, "", 0, []string{"", "charge_card"}},
		{"edit", "turns:\n" + ask + "  - resume: {edit: {amount: 30}}\n    assert: {tools: {require: [{name: charge_card, args_match: {amount: \"^30$\"}}]}}\n" + guard,
			status.Pass, "", 0, []string{"", "charge_card"}},
		{"reject", "turns:\n" + ask + "  - resume: reject\n    assert: {text: {contains: [\"did not charge\"]}}\n" + guard,
			status.Pass, "", 0, []string{"", ""}},
		{"ignored", "turns:\n" + ask + "  - user: \"hello?\"\n" + guard,
			status.Error, "turn[1]: an interrupt is pending: int-1 (tool_approval, charge_card call call-1); answer it with a resume turn", 7, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := aguitest.New(t, aguitest.Approvals())
			r := one(t, run(t, suite(t, srv.Endpoint(), "", map[string]string{"r": tc.test})))
			if r.Status != tc.status || !strings.HasPrefix(r.Reason, tc.reason) || (tc.line > 0 && r.ReasonPos.Line != tc.line) {
				t.Fatalf("%s %q at %v; want %s %q at line %d; failed %q", r.Status, r.Reason, r.ReasonPos, tc.status, tc.reason, tc.line, failed(r))
			}
			if tc.calls == nil {
				return
			}
			tr := r.Shown().Trace
			var ran []string
			for _, turn := range tr.Turns {
				var names []string
				for _, c := range turn.ToolCalls {
					if c.Result != nil {
						names = append(names, c.Name)
					}
				}
				ran = append(ran, strings.Join(names, ","))
			}
			if !slices.Equal(ran, tc.calls) || tr.Turns[1].Kind != "resume" || len(tr.Turns[1].Resumes) != 1 {
				t.Errorf("calls that ran %q, turn 1 %s with %d resumes; want %q after a resume", ran, tr.Turns[1].Kind, len(tr.Turns[1].Resumes), tc.calls)
			}
			var before string
			for _, res := range r.Shown().Results {
				if res.ID == "test.interrupts.before_tool[0]" {
					before = fmt.Sprint(res.Status, ": ", res.Message)
				}
			}
			if !strings.HasPrefix(before, "pass: ") {
				t.Errorf("before_tool: %s", before)
			}
		})
	}
}

// TestOnInterrupt: a dynamic test answers the interrupt the agent ends a
// run with as on_interrupt says, in a resume turn of its own; by default
// it errors, naming it.
func TestOnInterrupt(t *testing.T) {
	const dynamic = `simulator: {persona: "a shopper", goal: "pay 42 EUR"}
max_turns: 3
checkpoints:
  - id: asked
    assert: {interrupts: {require: [{tool: charge_card}]}}
  - id: charged
    after: asked
    assert: {text: {contains: ["Charged 42 EUR"]}}
`
	for _, tc := range []struct {
		on      string
		approve bool // the simulated user's decision
		status  status.Status
		message string // the checkpoints' message, or the error's
		kinds   []string
	}{
		{"approve", false, status.Pass, "every checkpoint reached: asked (turn[0]), charged (turn[1])", []string{"simulated", "resume"}},
		{"reject", false, status.Fail, "missing checkpoints: charged (after asked)", []string{"simulated", "resume", "simulated"}},
		{"simulator", true, status.Pass, "every checkpoint reached", []string{"simulated", "resume"}},
		{"simulator", false, status.Fail, "missing checkpoints: charged (after asked)", []string{"simulated", "resume", "simulated"}},
		{"", false, status.Error, "turn[1]: an interrupt is pending: int-1 (tool_approval, charge_card call call-1); answer it with a resume turn (resume: approve, reject or edit) before sending the agent anything else (on_interrupt: error; a dynamic test answers them with on_interrupt: approve, reject or simulator)", []string{"simulated"}},
	} {
		t.Run(fmt.Sprint(tc.on, " ", tc.approve), func(t *testing.T) {
			srv := aguitest.New(t, aguitest.Approvals())
			test := dynamic
			if tc.on != "" {
				test += "on_interrupt: " + tc.on + "\n"
			}
			s := suite(t, srv.Endpoint(), modelSection, map[string]string{"d": test})
			m := &fakeModel{lines: []string{"please charge 42 EUR", "(resumed)", "thanks"}, approve: tc.approve}
			r := one(t, run(t, s, func(o *engine.Options) { o.Model = m }))
			a := r.Shown()
			msg := r.Reason
			for _, res := range a.Results {
				if res.ID == "test.checkpoints" {
					msg = res.Message
				}
			}
			if r.Status != tc.status || !strings.HasPrefix(msg, tc.message) {
				t.Fatalf("%s %q; want %s %q", r.Status, msg, tc.status, tc.message)
			}
			var kinds []string
			for _, turn := range a.Trace.Turns {
				kinds = append(kinds, turn.Kind)
			}
			if !slices.Equal(kinds, tc.kinds) {
				t.Errorf("turns %q; want %q", kinds, tc.kinds)
			}
			if asked := m.calls["approval"]; (tc.on == "simulator") != (asked == 1) {
				t.Errorf("the simulated user was asked to approve %d times", asked)
			}
		})
	}
}
