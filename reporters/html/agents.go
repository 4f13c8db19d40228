package html

import (
	"strings"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/trace"
)

// A turn's reasoning, activity messages and sub-agent runs, for the page:
// the page shows each sub-agent run with the calls made in it.

type activity struct {
	ID           string `json:"id"`
	Type         string `json:"type"`
	Content      string `json:"content"`
	ContentBytes int    `json:"content_bytes,omitempty"`
	Updates      int    `json:"updates"`
	FirstMs      int64  `json:"first_ms"`
	LastMs       int64  `json:"last_ms"`
	FirstSeq     int64  `json:"first_seq,omitempty"`
	LastSeq      int64  `json:"last_seq,omitempty"`
}

type subagent struct {
	RunID            string `json:"run_id"`
	Name             string `json:"name"`
	Description      string `json:"description,omitempty"`
	Status           string `json:"status"`
	Error            string `json:"error,omitempty"`
	ParentRunID      string `json:"parent_run_id,omitempty"`
	ParentToolCallID string `json:"parent_tool_call_id,omitempty"`
	Result           string `json:"result,omitempty"`
	ResultBytes      int    `json:"result_bytes,omitempty"`
	StartMs          int64  `json:"start_ms"`
	EndMs            int64  `json:"end_ms,omitempty"`
	StartSeq         int64  `json:"start_seq,omitempty"`
	EndSeq           int64  `json:"end_seq,omitempty"`
}

// addAgents gives a turn of the shown trace its reasoning (rt's, cut and
// masked, when the trace holds none), activities and sub-agent runs.
func addAgents(t *turn, tt *trace.Turn, rt *report.Turn, base int64) {
	switch {
	case len(tt.Reasoning) > 0:
		t.Reasoning, t.ReasoningBytes = cut(strings.Join(tt.Reasoning, "\n"), TextCap)
	case rt != nil:
		t.Reasoning, t.ReasoningBytes = rt.Reasoning, rt.ReasoningBytes
	}
	for _, a := range tt.Activities {
		act := activity{ID: a.ID, Type: a.Type, Updates: a.Updates, FirstMs: since(a.FirstMs, base), LastMs: since(a.LastMs, base),
			FirstSeq: a.FirstSeq, LastSeq: a.LastSeq}
		act.Content, act.ContentBytes = cut(string(a.Content), TextCap)
		t.Activities = append(t.Activities, act)
	}
	for _, s := range tt.Subagents {
		sa := subagent{RunID: s.RunID, Name: s.Name, Description: s.Description, Status: s.Status, Error: s.Error,
			ParentRunID: s.ParentRunID, ParentToolCallID: s.ParentToolCallID, StartMs: since(s.StartedMs, base), EndMs: since(s.EndedMs, base),
			StartSeq: s.StartSeq, EndSeq: s.EndSeq}
		sa.Result, sa.ResultBytes = cut(string(s.Result), TextCap)
		t.Subagents = append(t.Subagents, sa)
	}
}

// reportSubagents are the sub-agent runs of a turn read without its trace.
func reportSubagents(ss []report.Subagent) []subagent {
	var out []subagent
	for _, s := range ss {
		sa := subagent{RunID: s.RunID, Name: s.Name, Status: s.Status, Error: s.Error, ParentRunID: s.ParentRunID,
			ParentToolCallID: s.ParentToolCallID, StartMs: s.AtMs, StartSeq: s.Seq}
		if s.DurationMs > 0 {
			sa.EndMs = s.AtMs + s.DurationMs
		}
		out = append(out, sa)
	}
	return out
}
