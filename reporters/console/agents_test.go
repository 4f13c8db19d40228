package console_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/console"
)

// TestReasoningAndSubagents: -v and the transcript show a turn's reasoning
// and its sub-agent runs; each call says which sub-agent made it.
func TestReasoningAndSubagents(t *testing.T) {
	notes := "notes"
	turn := report.Turn{Index: 0, Type: "user", User: "research the teddy bear", Text: "Done.",
		Reasoning: "The user wants research. Delegate it.",
		ToolCalls: []report.Call{
			{ID: "d1", Name: "delegate", Args: `{}`, Result: &notes},
			{ID: "c1", Name: "search_notes", Args: `{}`, Result: &notes, Agent: "researcher", SubagentRunID: "sa-1", AtMs: 5}},
		Subagents: []report.Subagent{
			{RunID: "sa-1", Name: "researcher", Status: "finished", ParentToolCallID: "d1"},
			{RunID: "sa-2", Name: "writer", Status: "error", Error: "no ink"}}}
	r := &report.Report{Status: status.Pass, Totals: report.Totals{Total: 1, Passed: 1, PassRate: 100},
		Tests: []report.Test{{Name: "research", File: "t.ananke.yaml", Status: status.Pass, Runs: 1, PassedRuns: 1, Turns: []report.Turn{turn}}}}
	for _, opts := range []console.Options{{Verbose: true}, {Transcript: true}} {
		var b bytes.Buffer
		if err := console.Write(&b, r, opts); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{
			`reasoning "The user wants research. Delegate it."`,
			"subagent researcher (run sa-1) finished, 1 call",
			"subagent writer (run sa-2) error, 0 calls: no ink",
			`search_notes {} → notes  (call c1, by subagent researcher, +5ms)`,
		} {
			if !strings.Contains(b.String(), want) {
				t.Errorf("%+v: no %q in\n%s", opts, want, b.String())
			}
		}
	}
}
