package target

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/schemacheck"
	"github.com/ananke/action/internal/trace"
)

// Answer is one entry of a resume turn, resolved: the pending interrupts
// it answers — every one its selectors (ID, Reason, Tool) all match; with
// none, every pending interrupt — and how (docs/files.md, "Interrupts").
type Answer struct {
	// What names it in messages ("resume[0]").
	What string
	// ID, Reason and Tool select interrupts: by id, by reason, or by the
	// name of the tool call the interrupt is about ("": any).
	ID, Reason, Tool string
	// Action is trace.AnswerApprove, AnswerReject or AnswerEdit.
	Action string
	// Payload is sent with the resume; nil sends the default: ApprovePayload
	// for an approval, nothing for a rejection.
	Payload json.RawMessage
	// Edit is an edit's changed arguments (a JSON object): the payload is
	// the call's arguments with them set, which must validate against the
	// interrupt's responseSchema.
	Edit json.RawMessage
}

// ApprovePayload is the payload of an approval that gives none. A
// resolved resume needs one: LangGraph refuses a resume without
// ("Received empty Command input"), and true reads as a yes to a graph
// in JavaScript and in Python alike, where an empty object is falsy
// (docs/protocol.md, "Interrupts").
var ApprovePayload = json.RawMessage("true")

// Resolve answers the pending interrupts: one resume per pending
// interrupt, in the order they are pending. args gives the arguments of a
// tool call by id (false: unknown), which an edit changes; now reads the
// clock, when an interrupt expires (an expired one can only be
// rejected). It returns
// an error naming the pending interrupts when nothing is pending, when an
// answer matches none, or when one is answered twice or not at all; and
// naming the field when an edit is not allowed or does not validate.
func Resolve(pending []trace.Interrupt, answers []Answer, args func(callID string) (string, bool), now func() time.Time) ([]trace.Resume, error) {
	if len(pending) == 0 {
		return nil, fmt.Errorf("nothing to resume: the agent's last run did not end with an interrupt")
	}
	by := make([]int, len(pending)) // answer index + 1; 0: unanswered
	for i, a := range answers {
		matched := false
		for j := range pending {
			if !a.matches(&pending[j]) {
				continue
			}
			matched = true
			if by[j] != 0 {
				return nil, fmt.Errorf("%s and %s both answer interrupt %s: answer each pending interrupt once", answers[by[j]-1].What, a.What, pending[j].Describe())
			}
			by[j] = i + 1
		}
		if !matched {
			return nil, fmt.Errorf("%s (%s) matches no pending interrupt; pending: %s", a.What, a.selects(), Describe(pending))
		}
	}
	out := make([]trace.Resume, 0, len(pending))
	for j := range pending {
		if by[j] == 0 {
			return nil, fmt.Errorf("interrupt %s is not answered: a resume must answer every pending interrupt (pending: %s)", pending[j].Describe(), Describe(pending))
		}
		r, err := answers[by[j]-1].resume(&pending[j], args, now)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// Describe lists pending interrupts for messages.
func Describe(pending []trace.Interrupt) string {
	parts := make([]string, len(pending))
	for i := range pending {
		parts[i] = pending[i].Describe()
	}
	return strings.Join(parts, ", ")
}

// PendingError is the error of a turn that sends a message, or runs
// without one, while interrupts are pending: the agent waits for their
// answers (an official client refuses to start such a run).
func PendingError(pending []trace.Interrupt) error {
	what, them := "an interrupt is", "it"
	if len(pending) > 1 {
		what, them = plural.Count(len(pending), "interrupt")+" are", "them"
	}
	return fmt.Errorf("%s pending: %s; answer %s with a resume turn (resume: approve, reject or edit) before sending the agent anything else",
		what, Describe(pending), them)
}

func (a *Answer) matches(in *trace.Interrupt) bool {
	return (a.ID == "" || a.ID == in.ID) && (a.Reason == "" || a.Reason == in.Reason) && (a.Tool == "" || a.Tool == in.Tool)
}

// selects says what the answer selects: "tool charge_card", "every
// interrupt".
func (a *Answer) selects() string {
	var parts []string
	for _, s := range [][2]string{{"id", a.ID}, {"reason", a.Reason}, {"tool", a.Tool}} {
		if s[1] != "" {
			parts = append(parts, s[0]+" "+s[1])
		}
	}
	if len(parts) == 0 {
		return "every interrupt"
	}
	return strings.Join(parts, ", ")
}

// resume is the answer to interrupt in.
func (a *Answer) resume(in *trace.Interrupt, args func(string) (string, bool), now func() time.Time) (trace.Resume, error) {
	r := trace.Resume{InterruptID: in.ID, Answer: a.Action, Status: trace.StatusResolved, Payload: a.Payload,
		Reason: in.Reason, ToolCallID: in.ToolCallID, Tool: in.Tool}
	switch a.Action {
	case trace.AnswerReject:
		r.Status = trace.StatusCancelled
	case trace.AnswerApprove:
		if r.Payload == nil {
			r.Payload = ApprovePayload
		}
	case trace.AnswerEdit:
		p, err := a.edited(in, args)
		if err != nil {
			return r, err
		}
		r.Payload = p
	}
	if in.ExpiresAt != "" && r.Status != trace.StatusCancelled {
		if at, err := time.Parse(time.RFC3339Nano, in.ExpiresAt); err == nil && !now().Before(at) {
			return r, fmt.Errorf("%s: interrupt %s expired at %s; an expired interrupt can only be rejected", a.What, in.Describe(), in.ExpiresAt)
		}
	}
	return r, nil
}

// edited is an edit's payload: the arguments of the call the interrupt is
// about with the edit's set over them (the edit alone when the call's
// arguments are unknown), valid against the interrupt's responseSchema.
func (a *Answer) edited(in *trace.Interrupt, args func(string) (string, bool)) (json.RawMessage, error) {
	if len(in.ResponseSchema) == 0 {
		return nil, fmt.Errorf("%s.edit: interrupt %s gives no responseSchema, so it takes no edited arguments (approve or reject it, with a payload if it needs one)", a.What, in.Describe())
	}
	payload := a.Edit
	if s, ok := args(in.ToolCallID); ok && in.ToolCallID != "" {
		payload = merge(json.RawMessage(s), a.Edit)
	}
	sch, err := schemacheck.Compile(in.ResponseSchema, "interrupt:"+in.ID)
	if err != nil {
		return nil, fmt.Errorf("%s.edit: the responseSchema of interrupt %s is %v", a.What, in.Describe(), err)
	}
	ps, err := sch.Check(payload)
	if err != nil {
		return nil, fmt.Errorf("%s.edit: the edited arguments are %v", a.What, err)
	}
	if len(ps) > 0 {
		return nil, fmt.Errorf("%s.edit: the edited arguments %s do not validate against the responseSchema of interrupt %s: %s",
			a.What, payload, in.Describe(), schemacheck.Join(ps, 3))
	}
	return payload, nil
}

// merge sets over's keys over base's, when both are JSON objects;
// otherwise it is over.
func merge(base, over json.RawMessage) json.RawMessage {
	var b, o map[string]json.RawMessage
	if json.Unmarshal(base, &b) != nil || b == nil || json.Unmarshal(over, &o) != nil || o == nil {
		return over
	}
	for k, v := range o {
		b[k] = v
	}
	out, err := json.Marshal(b) // sorted keys: the same arguments, the same bytes
	if err != nil {
		return over
	}
	return out
}

// shownResume is how the trace shows a resume turn: "resume: approve tool
// charge_card".
func shownResume(as []Answer) string {
	parts := make([]string, len(as))
	for i, a := range as {
		s := a.Action
		if sel := a.selects(); sel != "every interrupt" {
			s += " " + sel
		}
		if a.Action == trace.AnswerEdit {
			s += " " + string(a.Edit)
		}
		parts[i] = s
	}
	return "resume: " + strings.Join(parts, "; ")
}
