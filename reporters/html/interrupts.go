package html

import (
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/trace"
)

// interrupt is an interrupt a turn's run ended with (the agent asked the
// client and waited), at AtMs: when that run ended.
type interrupt struct {
	ID         string `json:"id"`
	Reason     string `json:"reason"`
	Message    string `json:"message,omitempty"`
	ToolCallID string `json:"tool_call_id,omitempty"`
	Tool       string `json:"tool,omitempty"`
	Seq        int64  `json:"seq,omitempty"`
	AtMs       int64  `json:"at_ms"`
}

// resume is the answer a turn sent to a pending interrupt, at AtMs: when
// the run that carried it started.
type resume struct {
	InterruptID string `json:"interrupt_id"`
	Answer      string `json:"answer"` // approve, reject, edit
	Status      string `json:"status"` // resolved, cancelled
	Payload     string `json:"payload,omitempty"`
	Reason      string `json:"reason,omitempty"`
	ToolCallID  string `json:"tool_call_id,omitempty"`
	Tool        string `json:"tool,omitempty"`
	Seq         int64  `json:"seq,omitempty"`
	AtMs        int64  `json:"at_ms"`
}

// traceInterrupts fills a turn's interrupts and resumes from its trace
// (already masked), timed by the runs they end and start.
func traceInterrupts(t *turn, tt *trace.Turn, base int64) {
	runAt := func(i int, end bool) int64 {
		if i < 0 || i >= len(tt.Runs) {
			return t.StartMs
		}
		if end {
			return tt.Runs[i].EndMs - base
		}
		return tt.Runs[i].StartMs - base
	}
	for _, in := range tt.Interrupts {
		v := interrupt{ID: in.ID, Reason: in.Reason, ToolCallID: in.ToolCallID, Tool: in.Tool, Seq: in.Seq, AtMs: runAt(in.Run, true)}
		v.Message, _ = cut(in.Message, TextCap)
		t.Interrupts = append(t.Interrupts, v)
	}
	for _, r := range tt.Resumes {
		v := resume{InterruptID: r.InterruptID, Answer: r.Answer, Status: r.Status, Reason: r.Reason, ToolCallID: r.ToolCallID, Tool: r.Tool, Seq: r.Seq, AtMs: runAt(r.Run, false)}
		v.Payload, _ = cut(string(r.Payload), TextCap)
		t.Resumes = append(t.Resumes, v)
	}
}

// summaryInterrupts fills a turn's interrupts and resumes from its
// summary in the report (a report without traces), timed at its start.
func summaryInterrupts(t *turn, rt *report.Turn) {
	for _, in := range rt.Interrupts {
		t.Interrupts = append(t.Interrupts, interrupt{ID: in.ID, Reason: in.Reason, Message: in.Message, ToolCallID: in.ToolCallID, Tool: in.Tool, Seq: in.Seq, AtMs: t.StartMs})
	}
	for _, r := range rt.Resumes {
		t.Resumes = append(t.Resumes, resume{InterruptID: r.InterruptID, Answer: r.Answer, Status: r.Status, Payload: string(r.Payload), Reason: r.Reason,
			ToolCallID: r.ToolCallID, Tool: r.Tool, Seq: r.Seq, AtMs: t.StartMs})
	}
}
