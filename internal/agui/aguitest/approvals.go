package aguitest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sync"

	"github.com/ananke/action/internal/agui"
)

// ChargeSchema is the responseSchema of the Approvals agent's interrupts:
// the arguments of charge_card.
const ChargeSchema = `{"type":"object","properties":{"amount":{"type":"number","exclusiveMinimum":0,"maximum":1000},"currency":{"type":"string","enum":["EUR","USD"]}},"required":["amount","currency"],"additionalProperties":false}`

var chargeRequest = regexp.MustCompile(`(?i)charge (\d+)`)

// Approvals is an agent that asks before it charges a card, as a
// LangGraph graph's interrupt() does over AG-UI (docs/langgraph-wire.md):
// "charge N" streams a charge_card call and ends the run with an
// interrupt about it (reason tool_approval, the arguments' schema as its
// responseSchema); the run that resumes it runs the call — with the
// payload's arguments when it holds an amount — or, rejected, declines.
// A run without a resume while the interrupt is pending announces it
// again, and a resume naming another interrupt is a RUN_ERROR. Its
// threads are kept apart.
func Approvals() Handler {
	a := &approvals{pending: map[string]*charge{}}
	return a.handle
}

type approvals struct {
	mu      sync.Mutex
	n       int
	pending map[string]*charge // by thread
}

type charge struct {
	interrupt, call string
	args            map[string]any
}

func (a *approvals) handle(r *Request) Response {
	in := r.Input
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.pending[in.ThreadID]
	switch {
	case p != nil && len(in.Resume) == 0:
		return Response{Events: []any{E{"type": agui.RunStarted, "threadId": in.ThreadID, "runId": in.RunID}, a.finish(in, p)}}
	case len(in.Resume) > 0:
		e := in.Resume[0]
		if p == nil || e.InterruptID != p.interrupt || len(in.Resume) > 1 {
			return Response{Events: []any{E{"type": agui.RunStarted, "threadId": in.ThreadID, "runId": in.RunID},
				E{"type": agui.RunError, "message": fmt.Sprintf("no pending interrupt '%s' on this thread", e.InterruptID), "code": "unknown_interrupt"}}}
		}
		delete(a.pending, in.ThreadID)
		if e.Status == "cancelled" {
			return Response{Events: Run(in, Text("declined-"+p.call, "Understood: I did not charge your card.")...)}
		}
		args := p.args
		var edit map[string]any
		if json.Unmarshal(e.Payload, &edit) == nil && edit["amount"] != nil {
			args = edit
		}
		js, _ := json.Marshal(args)
		result := fmt.Sprintf(`{"receipt":"CH-1","amount":%v,"currency":%q}`, args["amount"], args["currency"])
		return Response{Events: Run(in, Seq(Call(p.call, "charge_card", string(js), result),
			Text("charged-"+p.call, fmt.Sprintf("Charged %v %v.", args["amount"], args["currency"])))...)}
	}
	m := chargeRequest.FindStringSubmatch(lastUser(in))
	if m == nil {
		return Response{Events: Run(in, Text("m-"+in.RunID, "You said: "+lastUser(in))...)}
	}
	a.n++
	p = &charge{interrupt: fmt.Sprintf("int-%d", a.n), call: fmt.Sprintf("call-%d", a.n), args: map[string]any{"amount": json.Number(m[1]), "currency": "EUR"}}
	a.pending[in.ThreadID] = p
	js, _ := json.Marshal(p.args)
	events := []any{E{"type": agui.RunStarted, "threadId": in.ThreadID, "runId": in.RunID}}
	for _, e := range Call(p.call, "charge_card", string(js), "") {
		events = append(events, e)
	}
	return Response{Events: append(events, a.finish(in, p))}
}

// finish ends a run with p's interrupt pending.
func (a *approvals) finish(in agui.RunAgentInput, p *charge) E {
	return E{"type": agui.RunFinished, "threadId": in.ThreadID, "runId": in.RunID, "outcome": E{"type": "interrupt", "interrupts": []E{{
		"id": p.interrupt, "reason": "tool_approval", "message": fmt.Sprintf("Charge %v EUR to the card ending 4242?", p.args["amount"]),
		"toolCallId": p.call, "responseSchema": json.RawMessage(ChargeSchema),
	}}}}
}
