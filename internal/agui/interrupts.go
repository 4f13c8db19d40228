package agui

import (
	"fmt"
	"slices"

	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// Interrupts (docs/protocol.md, "Interrupts"): a run that ends with
// RUN_FINISHED{outcome: {type: "interrupt", interrupts}} waits for the
// client's answers, which the next run carries as RunAgentInput.resume,
// one entry per pending interrupt. A session keeps the interrupts its
// last run ended with; a resume turn answers them, and any other turn
// while they are pending is an error, as the official client refuses to
// start a run that leaves one unanswered.

// traceInterrupt is an interrupt as the trace records it, received in
// event seq.
func traceInterrupt(in Interrupt, seq int64) trace.Interrupt {
	return trace.Interrupt{ID: in.ID, Reason: in.Reason, Message: in.Message, ToolCallID: in.ToolCallID,
		ResponseSchema: in.ResponseSchema, ExpiresAt: in.ExpiresAt, Seq: seq}
}

// resumes are the answers turn in sends with its first run: those of a
// resume turn to the pending interrupts, none for another turn — an
// error when interrupts are pending, or when a resume turn finds none
// or does not answer them all.
func (s *Session) resumes(in target.Turn) ([]trace.Resume, error) {
	if in.Type == target.TurnResume {
		return target.Resolve(s.pending, in.Resume, s.callArgs, s.o.Now)
	}
	if len(s.pending) > 0 {
		return nil, target.PendingError(s.pending)
	}
	return nil, nil
}

// settle completes the trace's record of the interrupts a run ended with
// — the names of the calls they are about that only the conversation
// holds (a call sent in a snapshot, never streamed) — and warns of each
// interrupt the run answered and ended with again: the agent did not take
// the answer (LangGraph does so after refusing a resume with RUN_ERROR),
// at the event it came in.
func (s *Session) settle(answered []trace.Resume, rec *trace.Recorder) []target.Problem {
	rec.NameInterruptCalls(func(id string) string { c, _ := findCall(s.messages, id); return c.Function.Name })
	var out []target.Problem
	for _, r := range answered {
		if !slices.ContainsFunc(s.pending, func(in trace.Interrupt) bool { return in.ID == r.InterruptID }) {
			continue
		}
		var seq int64
		tr := rec.Trace()
		for _, in := range tr.Turns[len(tr.Turns)-1].Interrupts {
			if in.ID == r.InterruptID {
				seq = in.Seq
			}
		}
		out = append(out, target.Problem{Seq: seq, Rule: RuleOutcome,
			Message: fmt.Sprintf("the run that answered interrupt %s (%s) ended with it again: the agent did not take the answer", r.InterruptID, r.Answer)})
	}
	return out
}

// entries are resumes as RunAgentInput.resume holds them.
func entries(rs []trace.Resume) []ResumeEntry {
	var out []ResumeEntry
	for _, r := range rs {
		out = append(out, ResumeEntry{InterruptID: r.InterruptID, Status: r.Status, Payload: r.Payload})
	}
	return out
}

// interrupted is what a run left pending: the interrupts of its last
// RUN_FINISHED, with the names of the calls they are about.
func interrupted(res *Result) []trace.Interrupt {
	o := res.Outcome
	if o == nil || o.Type != "interrupt" {
		return nil
	}
	out := make([]trace.Interrupt, 0, len(o.Interrupts))
	for _, in := range o.Interrupts {
		ti := traceInterrupt(in, 0)
		if c, ok := findCall(res.Messages, in.ToolCallID); ok {
			ti.Tool = c.Function.Name
		}
		out = append(out, ti)
	}
	return out
}

// callArgs are the arguments of call id as the conversation holds them.
func (s *Session) callArgs(id string) (string, bool) {
	c, ok := findCall(s.messages, id)
	return c.Function.Arguments, ok
}

// findCall is the latest call id of the conversation's assistant
// messages.
func findCall(msgs []Message, id string) (ToolCall, bool) {
	if id == "" {
		return ToolCall{}, false
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		for _, c := range msgs[i].ToolCalls {
			if c.ID == id {
				return c, true
			}
		}
	}
	return ToolCall{}, false
}
