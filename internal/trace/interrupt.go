package trace

import (
	"encoding/json"
	"fmt"
)

// Interrupt is one interrupt a run ended with: the agent stopped to ask
// the client something (approve a tool call, answer a question) and waits
// to be resumed (AG-UI: RUN_FINISHED with an interrupt outcome).
type Interrupt struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
	// Message is what the agent asks, for the person who answers.
	Message string `json:"message,omitempty"`
	// ToolCallID is the tool call the interrupt is about, and Tool that
	// call's name when the trace holds the call ("" otherwise).
	ToolCallID string `json:"tool_call_id,omitempty"`
	Tool       string `json:"tool,omitempty"`
	// ResponseSchema is the JSON Schema of the payload the agent accepts
	// when the interrupt is resolved (an edit's arguments); nil: none.
	ResponseSchema json.RawMessage `json:"response_schema,omitempty"`
	// ExpiresAt is when the interrupt can no longer be answered but by
	// rejecting it (RFC 3339; "": never).
	ExpiresAt string `json:"expires_at,omitempty"`
	// Seq is the event the run ended with it (RUN_FINISHED), and Run the
	// turn's run.
	Seq int64 `json:"seq"`
	Run int   `json:"run"`
}

// What the test answered an interrupt with (Resume.Answer).
const (
	AnswerApprove = "approve"
	AnswerReject  = "reject"
	AnswerEdit    = "edit"
)

// What a resume tells the agent (Resume.Status, AG-UI's words).
const (
	StatusResolved  = "resolved"
	StatusCancelled = "cancelled"
)

// Resume is the answer to one pending interrupt, sent with the run that
// resumed it.
type Resume struct {
	InterruptID string `json:"interrupt_id"`
	// Answer is the test's (AnswerApprove, AnswerReject or AnswerEdit),
	// Status what the agent was told (StatusResolved or StatusCancelled).
	Answer string `json:"answer"`
	Status string `json:"status"`
	// Payload is what was sent with it (nil: nothing).
	Payload json.RawMessage `json:"payload,omitempty"`
	// Reason, ToolCallID and Tool are the interrupt's, for reports.
	Reason     string `json:"reason,omitempty"`
	ToolCallID string `json:"tool_call_id,omitempty"`
	Tool       string `json:"tool,omitempty"`
	// Run is the turn's run that carried it, and Seq the sequence number
	// of that run's first event: every event from Seq on came after it.
	Run int   `json:"run"`
	Seq int64 `json:"seq"`
}

// Approved reports whether the resume let the agent go on (approved or
// edited), rather than rejecting.
func (r *Resume) Approved() bool { return r.Status == StatusResolved }

// Describe names an interrupt for messages: its id, reason and the tool
// call it is about ("0309f9… (tool_approval, charge_card call_c78d)").
func (in *Interrupt) Describe() string {
	s := in.ID + " (" + in.Reason
	switch {
	case in.Tool != "" && in.ToolCallID != "":
		s += ", " + in.Tool + " call " + in.ToolCallID
	case in.ToolCallID != "":
		s += ", call " + in.ToolCallID
	}
	return s + ")"
}

// Interrupt records an interrupt the current run ended with, received in
// event in.Seq; Run and, when the trace holds the call, Tool are filled in.
func (r *Recorder) Interrupt(in Interrupt) {
	in.Run = len(r.turn.Runs) - 1
	if in.Tool == "" && in.ToolCallID != "" {
		in.Tool = r.callName(in.ToolCallID)
	}
	r.turn.Interrupts = append(r.turn.Interrupts, in)
}

// Resume records the answer to a pending interrupt, sent with the
// current run (call it after StartRun).
func (r *Recorder) Resume(res Resume) {
	run := len(r.turn.Runs) - 1
	res.Run, res.Seq = run, r.turn.Runs[run].FirstSeq
	r.turn.Resumes = append(r.turn.Resumes, res)
}

// callName is the name of call id, the latest the trace holds ("": none).
func (r *Recorder) callName(id string) string {
	for i := len(r.t.Turns) - 1; i >= 0; i-- {
		calls := r.t.Turns[i].ToolCalls
		for j := len(calls) - 1; j >= 0; j-- {
			if calls[j].ID == id {
				return calls[j].Name
			}
		}
	}
	return ""
}

// NameInterruptCalls names, through name, the tool calls of the current
// turn's interrupts that the trace holds no call for (a call the agent
// sent only in a snapshot of the conversation). name returns "" for a
// call it does not know either.
func (r *Recorder) NameInterruptCalls(name func(callID string) string) {
	for i := range r.turn.Interrupts {
		if in := &r.turn.Interrupts[i]; in.Tool == "" && in.ToolCallID != "" {
			in.Tool = name(in.ToolCallID)
		}
	}
}

// ResumeFor is the resume that answered interrupt id in the scope's turns,
// or nil.
func (s Scope) ResumeFor(id string) *Resume {
	for i := range s.Turns {
		for j := range s.Turns[i].Resumes {
			if r := &s.Turns[i].Resumes[j]; r.InterruptID == id {
				return r
			}
		}
	}
	return nil
}

// Interrupts is every interrupt of the scope, in order.
func (s Scope) Interrupts() []Interrupt {
	var out []Interrupt
	for i := range s.Turns {
		out = append(out, s.Turns[i].Interrupts...)
	}
	return out
}

// Shown is how reports name a resume: "approve charge_card (call c1)".
func (r *Resume) Shown() string {
	s := r.Answer
	switch {
	case r.Tool != "":
		s += " " + r.Tool
	case r.Reason != "":
		s += " " + r.Reason
	}
	return fmt.Sprintf("%s (interrupt %s)", s, r.InterruptID)
}
