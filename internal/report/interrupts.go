package report

import (
	"encoding/json"
	"slices"

	"github.com/ananke/action/internal/trace"
)

// Interrupt is an interrupt a turn's run ended with: the agent asked the
// client something (approve a tool call) and waited to be resumed.
type Interrupt struct {
	ID      string `json:"id"`
	Reason  string `json:"reason"`
	Message string `json:"message,omitempty"`
	// ToolCallID is the call it is about, and Tool its name when known.
	ToolCallID string `json:"tool_call_id,omitempty"`
	Tool       string `json:"tool,omitempty"`
	// Seq is the event the run ended with it (RUN_FINISHED).
	Seq int64 `json:"seq"`
}

// Resume is the answer a turn sent to a pending interrupt.
type Resume struct {
	InterruptID string `json:"interrupt_id"`
	// Answer is the test's (approve, reject, edit), Status what the
	// agent was told (resolved, cancelled).
	Answer string `json:"answer"`
	Status string `json:"status"`
	// Payload is what was sent with it, masked (absent: nothing).
	Payload    json.RawMessage `json:"payload,omitempty"`
	Reason     string          `json:"reason,omitempty"`
	ToolCallID string          `json:"tool_call_id,omitempty"`
	Tool       string          `json:"tool,omitempty"`
	// Seq is the first event of the run that carried it: the events
	// from Seq on came after it.
	Seq int64 `json:"seq"`
}

// interrupts fills a report turn's interrupts and resumes from the
// trace's, the texts and payloads masked.
func (b *builder) interrupts(t *Turn, tt *trace.Turn) {
	for _, in := range tt.Interrupts {
		t.Interrupts = append(t.Interrupts, Interrupt{ID: in.ID, Reason: b.red.String(in.Reason), Message: b.red.String(in.Message),
			ToolCallID: in.ToolCallID, Tool: in.Tool, Seq: in.Seq})
	}
	for _, r := range tt.Resumes {
		var payload json.RawMessage
		if r.Payload != nil {
			payload = b.red.JSON(r.Payload)
		}
		t.Resumes = append(t.Resumes, Resume{InterruptID: r.InterruptID, Answer: r.Answer, Status: r.Status, Payload: payload,
			Reason: b.red.String(r.Reason), ToolCallID: r.ToolCallID, Tool: r.Tool, Seq: r.Seq})
	}
}

// maskInterrupts masks a turn's interrupts and resumes in the masked copy
// of its trace: their messages, schemas and payloads.
func (b *builder) maskInterrupts(tt *trace.Turn) {
	tt.Interrupts = slices.Clone(tt.Interrupts)
	for j := range tt.Interrupts {
		in := &tt.Interrupts[j]
		in.Reason, in.Message = b.red.String(in.Reason), b.red.String(in.Message)
		if in.ResponseSchema != nil {
			in.ResponseSchema = b.red.JSON(in.ResponseSchema)
		}
	}
	tt.Resumes = slices.Clone(tt.Resumes)
	for j := range tt.Resumes {
		r := &tt.Resumes[j]
		r.Reason = b.red.String(r.Reason)
		if r.Payload != nil {
			r.Payload = b.red.JSON(r.Payload)
		}
	}
}
