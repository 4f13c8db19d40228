package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/attack/plant"
	"github.com/ananke/action/internal/simulator"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// KindCheckpoints is the built-in result of a dynamic test: were all its
// checkpoints reached, in order, within its turns and time.
const KindCheckpoints assertion.Kind = "checkpoints"

var errSimTimeout = errors.New("simulator timeout")

// simulate plays the simulated turns of a dynamic test: the simulated user
// writes each message, Ananke plays it as a turn, the turn's checks run
// (target and test prohibitions, as on every turn), then the checkpoints
// are checked. It stops when every checkpoint is reached, the user
// declares its goal achieved, max_turns is spent or timeout_ms passes, and
// records the checkpoints' result. It reports whether the test goes on to
// its whole-test checks.
func (e *engine) simulate(ctx context.Context, t *spec.Test, p *plan, conv *conversation, r *Attempt) bool {
	timeout := time.Duration(t.SimulatorTimeoutMs) * time.Millisecond
	sctx, cancel := context.WithTimeoutCause(ctx, timeout, errSimTimeout)
	defer cancel()
	cp := conv.checkpoints
	end := ""
	if cp.all() {
		end = "done" // reached in the scripted turns
	}
	first := true // the simulated user's first message is still to be sent
	for k := 0; k < t.MaxTurns && end == ""; k++ {
		i := len(t.Turns) + k
		turn := spec.Turn{Pos: t.Simulator.Pos, Index: i, Type: trace.KindSimulated}
		var in target.Turn
		var move simulator.Move
		var err error
		if len(conv.pending) > 0 {
			// The agent waits for answers: the turn resumes it.
			turn.Type = spec.TurnResume
			in = target.Turn{Index: i, Type: target.TurnResume}
			if in.Resume, err = e.onInterrupt(sctx, t, p, conv, r, k); err != nil {
				err = fmt.Errorf("turn[%d]: %w", i, err)
			}
		} else {
			move, err = e.nextMove(sctx, t, p, conv, r, k)
			in = target.Turn{Index: i, Type: target.TurnUser, Text: move.Message}
		}
		switch {
		case errors.Is(context.Cause(sctx), errSimTimeout):
			end = "timeout after " + timeout.String()
			continue
		case err != nil:
			r.Status, r.Reason, r.ReasonPos = status.Error, err.Error(), t.Simulator.Pos
			return false
		case move.GoalAchieved && move.Message == "":
			end = fmt.Sprintf("the simulated user declared its goal achieved before turn[%d]", i)
			continue
		}
		if in.Type == target.TurnUser && first {
			// An attack run's payload rides on it (plant.Simulator); the
			// trace shows it as sent.
			first = false
			in.Text = t.Attack.Text(plant.Simulator, "", in.Text)
		}
		out := e.playTurn(sctx, turn, in, p, conv)
		if err := e.endTurn(ctx, p, conv, r, out.err != nil); err != nil && out.err == nil {
			out.err = err
		}
		r.Warnings = append(r.Warnings, out.warnings...)
		r.Results = append(r.Results, out.builtins...)
		if out.err != nil {
			if errors.Is(context.Cause(sctx), errSimTimeout) {
				end = "timeout after " + timeout.String()
				continue
			}
			r.Status, r.Reason, r.ReasonPos = status.Error, fmt.Sprintf("turn[%d]: %v", i, out.err), t.Simulator.Pos
			return false
		}
		checks, err := assertion.BindChecks(spec.TurnChecks(e.opts.Suite.Config, t, i), p.vars)
		if err != nil {
			r.Status, r.Reason = status.Error, err.Error()
			return false
		}
		checks, scripts := splitKind(checks, assertion.KindScript)
		scope := conv.rec.Trace().TurnScope(i)
		r.Results = append(r.Results, assertion.Evaluate(checks, scope)...)
		e.scripts(sctx, t, scripts, scope, r)
		if assertion.Failed(r.Results) {
			r.Status = status.Fail
			e.skipRest(r, p, len(p.turns), fmt.Sprintf("not evaluated: the test stopped when turn[%d] failed", i))
			return false
		}
		if err := e.reach(sctx, t, cp, i, conv, p, r); err != nil {
			r.Status, r.Reason, r.ReasonPos = status.Error, err.Error(), t.Simulator.Pos
			return false
		}
		switch {
		case cp.all():
			end = "done"
		case move.GoalAchieved:
			end = fmt.Sprintf("the simulated user declared its goal achieved at turn[%d]", i)
		}
	}
	if end == "" {
		end = fmt.Sprintf("max turns (%d) exceeded", t.MaxTurns)
	}
	r.Results = append(r.Results, cp.result(t, end))
	return true
}

// nextMove asks the simulated user for the message of its turn k (from
// 0).
func (e *engine) nextMove(ctx context.Context, t *spec.Test, p *plan, conv *conversation, r *Attempt, k int) (simulator.Move, error) {
	if e.opts.Model == nil {
		return simulator.Move{}, errors.New("no language model is configured for the simulator")
	}
	move, usage, err := simulator.Next(ctx, e.opts.Model, e.opts.Prompts.Simulator, p.persona, exchanges(conv.rec.Trace()), k+1, t.MaxTurns)
	r.Usage.Add(usage)
	if err != nil {
		return move, fmt.Errorf("simulator: %w", err)
	}
	return move, nil
}

// onInterrupt answers the interrupts pending before a dynamic test's
// simulated turn k as its on_interrupt says: approve or reject them all,
// or let the simulated user decide each; by default (error) the test
// errors, naming them.
func (e *engine) onInterrupt(ctx context.Context, t *spec.Test, p *plan, conv *conversation, r *Attempt, k int) ([]target.Answer, error) {
	switch t.OnInterrupt {
	case spec.OnInterruptApprove, spec.OnInterruptReject:
		return []target.Answer{{What: "on_interrupt", Action: t.OnInterrupt}}, nil
	case spec.OnInterruptSimulator:
		if e.opts.Model == nil {
			return nil, errors.New("no language model is configured for the simulator (on_interrupt: simulator)")
		}
		tr := conv.rec.Trace()
		var out []target.Answer
		for _, in := range conv.pending {
			ask := simulator.Request{Message: in.Message, Tool: in.Tool, Args: callArgs(tr, in.ToolCallID)}
			d, usage, err := simulator.Decide(ctx, e.opts.Model, e.opts.Prompts.Simulator, p.persona, exchanges(tr), k+1, t.MaxTurns, ask)
			r.Usage.Add(usage)
			if err != nil {
				return nil, fmt.Errorf("simulator (on_interrupt): %w", err)
			}
			a := target.Answer{What: "on_interrupt", ID: in.ID, Action: trace.AnswerReject}
			if d.Approve {
				a.Action = trace.AnswerApprove
			}
			out = append(out, a)
		}
		return out, nil
	}
	return nil, fmt.Errorf("%w (on_interrupt: error; a dynamic test answers them with on_interrupt: approve, reject or simulator)", target.PendingError(conv.pending))
}

// callArgs are the arguments of call id as the trace holds them ("": not
// found).
func callArgs(tr *trace.Trace, id string) string {
	for i := len(tr.Turns) - 1; i >= 0 && id != ""; i-- {
		for _, c := range tr.Turns[i].ToolCalls {
			if c.ID == id {
				return c.Args
			}
		}
	}
	return ""
}

// reach marks the checkpoints turn i reaches: each not reached yet whose
// after are all reached (this turn included) and whose block passes over
// the turn. It repeats until no more is reached, so a chain can complete
// in one turn.
func (e *engine) reach(ctx context.Context, t *spec.Test, cp *checkpoints, i int, conv *conversation, p *plan, r *Attempt) error {
	scope := conv.rec.Trace().TurnScope(i)
	for changed := true; changed; {
		changed = false
		for j := range cp.list {
			c := &cp.list[j]
			if cp.at[j] >= 0 || !cp.ready(c) {
				continue
			}
			checks, err := assertion.BindChecks(spec.CheckpointChecks(e.opts.Suite.Config, t, c, i), p.vars)
			if err != nil {
				return err
			}
			det, judges := splitKind(checks, assertion.KindJudge)
			det, scripts := splitKind(det, assertion.KindScript)
			res := assertion.Evaluate(det, scope)
			if passed(res) && len(scripts) > 0 {
				var sr Attempt
				e.scripts(ctx, p.test, scripts, scope, &sr)
				res = append(res, sr.Results...)
			}
			if passed(res) && len(judges) > 0 {
				var jr Attempt
				e.judge(ctx, judges, scope, &jr)
				r.Usage.Add(jr.Usage)
				res = append(res, jr.Results...)
			}
			if passed(res) {
				cp.at[j], changed = i, true
			}
		}
	}
	return nil
}

// passed reports whether every result passed (or was not evaluated).
func passed(rs []assertion.Result) bool {
	for _, r := range rs {
		if r.Status != status.Pass && r.Status != status.Skip {
			return false
		}
	}
	return true
}

// exchanges turns the trace into what the simulated user reads.
func exchanges(tr *trace.Trace) []simulator.Exchange {
	var out []simulator.Exchange
	for _, t := range tr.Turns {
		x := simulator.Exchange{User: t.UserText, Reply: t.Text()}
		for _, c := range t.ToolCalls {
			res := "(no result)"
			if c.Result != nil {
				res = c.Result.Content
			}
			x.Tools = append(x.Tools, fmt.Sprintf("%s %s -> %s", c.Name, c.Args, res))
		}
		for _, in := range t.Interrupts {
			// The run stopped to ask: the user answers in the next turn.
			ask := "[the assistant stopped to ask for your approval: " + in.Message + "]"
			x.Reply = strings.TrimSpace(x.Reply + "\n" + ask)
		}
		out = append(out, x)
	}
	return out
}

// checkpoints tracks where each checkpoint was reached.
type checkpoints struct {
	list []spec.Checkpoint
	at   []int // turn index, -1: not reached
	byID map[string]int
}

func newCheckpoints(t *spec.Test) *checkpoints {
	cp := &checkpoints{list: t.Checkpoints, at: make([]int, len(t.Checkpoints)), byID: map[string]int{}}
	for j, c := range t.Checkpoints {
		cp.at[j] = -1
		cp.byID[c.ID.Value] = j
	}
	return cp
}

func (cp *checkpoints) ready(c *spec.Checkpoint) bool {
	for _, a := range c.After {
		if j, ok := cp.byID[a.Value]; !ok || cp.at[j] < 0 {
			return false
		}
	}
	return true
}

func (cp *checkpoints) all() bool {
	for _, at := range cp.at {
		if at < 0 {
			return false
		}
	}
	return true
}

func (cp *checkpoints) results() []Checkpoint {
	out := make([]Checkpoint, len(cp.list))
	for j, c := range cp.list {
		out[j] = Checkpoint{ID: c.ID.Value, Description: c.Description, Pos: c.Pos, ReachedAt: cp.at[j]}
	}
	return out
}

// result is the dynamic test's checkpoints check: pass when every
// checkpoint was reached; else fail naming the missing ones and why the
// conversation ended.
func (cp *checkpoints) result(t *spec.Test, end string) assertion.Result {
	r := assertion.Result{ID: "test.checkpoints", Level: LevelBuiltin, Kind: KindCheckpoints, Scope: "test", Source: t.Simulator.Pos,
		Severity: assertion.Critical, Expected: fmt.Sprintf("every checkpoint reached, in order, within %d turns", t.MaxTurns)}
	var reached, missing []string
	for j, c := range cp.list {
		if at := cp.at[j]; at >= 0 {
			reached = append(reached, fmt.Sprintf("%s (turn[%d])", c.ID.Value, at))
			r.Evidence = append(r.Evidence, assertion.Evidence{Note: fmt.Sprintf("checkpoint %s reached at turn[%d]", c.ID.Value, at), Text: c.Description})
			continue
		}
		m := c.ID.Value
		if len(c.After) > 0 {
			var after []string
			for _, a := range c.After {
				after = append(after, a.Value)
			}
			m += " (after " + strings.Join(after, ", ") + ")"
		}
		missing = append(missing, m)
		r.Evidence = append(r.Evidence, assertion.Evidence{Note: "checkpoint " + c.ID.Value + " not reached", Text: c.Description})
		if len(missing) == 1 {
			r.Source = c.Pos
		}
	}
	r.Observed = fmt.Sprintf("%d of %d reached", len(reached), len(cp.list))
	if len(missing) == 0 {
		r.Status = status.Pass
		r.Message = "every checkpoint reached: " + strings.Join(reached, ", ")
	} else {
		r.Status = status.Fail
		r.Message = fmt.Sprintf("missing checkpoints: %s; %s", strings.Join(missing, ", "), end)
	}
	r.Finish()
	return r
}
