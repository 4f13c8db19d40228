package engine

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/ananke/action/internal/backend"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// What Ananke serves behind the agent — its tool doubles and its model
// gateway — is attributed to the attempt bound to Options.Backend while it
// plays (docs/backend.md). A test that plays turns and that the board says
// uses the backend binds each attempt before its hooks and releases it
// after its last turn; its requests to the agent carry the binding's
// token (backend.Header, and ${ANANKE_TEST}). When the agent does not
// forward the token, such tests run one at a time (scheduler.next).

// usesBackend reports whether test t's attempts bind to the backend: it
// plays turns (an imported trace never reaches it) and the board says it
// uses it.
func (e *engine) usesBackend(t *spec.Test) bool {
	return t.Source == nil && e.opts.Backend.Uses(t.ID)
}

// alone reports whether test t must run one attempt at a time among the
// tests that do: it uses the backend and the agent does not forward the
// token, so a request is attributed to the only attempt bound.
func (e *engine) alone(t *spec.Test) bool {
	return e.usesBackend(t) && e.opts.Backend.Alone(t.ID)
}

// bind binds attempt retry of run run of t to the backend when it uses
// it (nil otherwise), and sets ${ANANKE_TEST} to its token ("" without
// one).
func (e *engine) bind(t *spec.Test, run, retry int, vs *vars.Vars) *backend.Binding {
	if !e.usesBackend(t) {
		vs.Set(backend.Var, "")
		return nil
	}
	bd := e.opts.Backend.BindAttempt(t.ID, run, retry)
	vs.Set(backend.Var, bd.Token)
	return bd
}

// startBackend marks the attempt's trace with what the backend observes
// of it, before its first turn, so that its checks can be made.
func (e *engine) startBackend(bd *backend.Binding, tr *trace.Trace) {
	if bd == nil {
		return
	}
	tr.Doubles, tr.Gateway = e.opts.Backend.Doubles(), e.opts.Backend.Gateway()
}

// endTurn closes the turn playing: what the backend served during it is
// moved into it (backend.Fill), the agent's spans of it join the trace
// (turnSpans; waited for unless the turn failed), it is priced, and each call to a double
// the test gave no answer becomes a warning. It returns the error of a
// model call the gateway could not answer (a replay without a
// recording, an upstream that failed): the attempt then errors, since
// the agent was not given what the test meant it to get.
func (e *engine) endTurn(ctx context.Context, p *plan, conv *conversation, r *Attempt, failed bool) error {
	turn := conv.rec.EndTurn(p.now(), p.session.State())
	turn.Requests = p.tc.EndTurn(turn.Index)
	if bd := p.binding; bd != nil {
		calls, models := bd.Take(turn.Index)
		backend.Fill(turn, calls, models)
	}
	e.turnSpans(ctx, conv.rec.Trace(), turn, r, !failed)
	e.price(turn)
	for _, c := range turn.ToolCalls {
		if c.Served != nil && c.Served.Unanswered {
			r.Warnings = append(r.Warnings, Warning{Turn: turn.Index, Rule: "doubles",
				Message: fmt.Sprintf("%s was called with %s, and the test gives the double %s no answer: the agent got an MCP error", c.Name, args(c.Args), c.Served.Tool)})
		}
	}
	for _, m := range turn.ModelCalls {
		if m.Error != "" {
			return fmt.Errorf("model gateway: %s", m.Error)
		}
	}
	return nil
}

// late warns of what the backend served for a turn after the turn ended
// (a call the agent made once its answer was sent, a request still in
// flight when the test ended): it is in no turn of the trace.
func (e *engine) late(bd *backend.Binding, r *Attempt) {
	if r.Trace == nil {
		return
	}
	for _, turn := range r.Trace.Turns {
		calls, models := bd.Take(turn.Index)
		for _, c := range calls {
			r.Warnings = append(r.Warnings, Warning{Turn: turn.Index, Rule: "backend",
				Message: fmt.Sprintf("%s called with %s was answered after turn[%d] ended: the trace leaves it out", c.Name, args(c.Args), turn.Index)})
		}
		for _, m := range models {
			r.Warnings = append(r.Warnings, Warning{Turn: turn.Index, Rule: "backend",
				Message: fmt.Sprintf("a request to model %s in turn[%d] was answered after the turn ended: the trace leaves it out", m.Model, turn.Index)})
		}
	}
}

// args writes a call's arguments for a warning: as they are, cut.
func args(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return "no arguments"
	}
	if len(s) > 200 {
		end := 200
		for end > 0 && !utf8.RuneStart(s[end]) {
			end--
		}
		s = s[:end] + "…"
	}
	return s
}
