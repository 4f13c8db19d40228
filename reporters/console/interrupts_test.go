package console_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/console"
)

// TestVerboseInterrupts: the -v tree shows the interrupt a turn's run
// ended with (its id, reason, call, message and event) under the turn, and
// the resume turn's answer first under its own.
func TestVerboseInterrupts(t *testing.T) {
	tt := report.Test{ID: "approve", Name: "approve", File: "approve.ananke.yaml", Status: status.Pass, Turns: []report.Turn{
		{Index: 0, Type: "user", User: "Charge my card 42 EUR", Runs: 1, RunErrors: []string{},
			ToolCalls:  []report.Call{{ID: "call_c7", Name: "charge_card", Turn: 0, Args: `{"amount":42}`, AtMs: 40}},
			Interrupts: []report.Interrupt{{ID: "0309f9", Reason: "tool_approval", Message: "Charge 42 EUR to the card ending 4242?", ToolCallID: "call_c7", Tool: "charge_card", Seq: 34}}},
		{Index: 1, Type: "resume", User: "resume: approve tool charge_card", Runs: 1, Text: "Charged 42 EUR.", RunErrors: []string{}, ToolCalls: []report.Call{},
			Resumes: []report.Resume{{InterruptID: "0309f9", Answer: "approve", Status: "resolved", Payload: json.RawMessage("true"), Reason: "tool_approval", ToolCallID: "call_c7", Tool: "charge_card", Seq: 35}}},
	}}
	var b strings.Builder
	r := &report.Report{Status: status.Pass, Totals: report.Totals{Total: 1, Passed: 1, PassRate: 100}, Tests: []report.Test{tt}}
	if err := console.Write(&b, r, console.Options{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	checkOutput(t, b.String(), []string{
		"  ├─ turn[0] \"Charge my card 42 EUR\" → (no text)\n" +
			"  │  ├─ tool charge_card {\"amount\":42} → (no result)  (call call_c7, +40ms)\n" +
			"  │  └─ interrupt 0309f9 (tool_approval, charge_card call call_c7): \"Charge 42 EUR to the card ending 4242?\" (event #34)\n" +
			"  └─ turn[1] (resume: approve tool charge_card) → \"Charged 42 EUR.\"\n" +
			"     └─ resume: approve interrupt 0309f9 (tool_approval, charge_card call call_c7) → resolved, payload true\n",
	}, nil)
}
