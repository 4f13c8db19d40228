package engine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"time"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/hooks"
	"github.com/ananke/action/internal/otel/tracectx"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// errTestTimeout is the cause of a context the test's timeout (--timeout)
// ended; a run's (target.timeout_ms) ends with target.ErrRunTimeout.
var errTestTimeout = errors.New("test timeout")

// runAttempt runs one attempt of a test to its status: the hooks, then
// the turns on a fresh thread, then the after hooks.
func (e *engine) runAttempt(ctx context.Context, t *spec.Test, run, retry int) *Attempt {
	if t.Source != nil {
		return e.runImported(ctx, t, run, retry)
	}
	aio := AttemptIO{HTTP: e.opts.HTTP, Now: e.opts.Now}
	if e.opts.Tape != nil {
		aio = e.opts.Tape.Attempt(t, run, retry, e.opts.HTTP)
	}
	r := &Attempt{Run: run, Retry: retry, Start: aio.Now(), Results: []assertion.Result{}, Warnings: []Warning{}, Trace: &trace.Trace{Turns: []trace.Turn{}}}
	defer func() { r.End = aio.Now() }()
	tc, err := e.traceContext()
	if err != nil {
		r.Status, r.Reason = status.Error, err.Error()
		return r
	}
	aio.HTTP = tc.Client(aio.HTTP)
	vars := e.newVars()
	e.play(ctx, t, vars, r, aio, tc)
	if e.opts.Tape != nil && !e.opts.Tape.Live() && r.Trace != nil {
		e.replayed(r.Trace)
	}
	if len(t.After) > 0 {
		e.runAfter(ctx, t, vars, r)
		r.Secrets = append(r.Secrets, vars.Secrets()...)
	}
	return r
}

// replayed marks a replayed attempt's trace: its session's source in mode
// replay, or without one (an AG-UI session's, or an attempt that never
// reached its turns), the protocol's source of a replayed trace.
func (e *engine) replayed(tr *trace.Trace) {
	if tr.Source != nil {
		tr.Source.Mode = "replay"
		return
	}
	if proto, ok := e.protocol(); ok && proto.Replayed != nil {
		src := *proto.Replayed
		tr.Source = &src
	}
}

// play runs the attempt's hooks and turns, within --timeout.
func (e *engine) play(ctx context.Context, t *spec.Test, vs *vars.Vars, r *Attempt, aio AttemptIO, tc *tracectx.Attempt) {
	if d := e.opts.TestTimeout; d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, d, errTestTimeout)
		defer cancel()
	}
	bd := e.bind(t, r.Run, r.Retry, vs)
	if bd != nil {
		defer func() {
			e.late(bd, r)
			bd.Release()
		}()
	}
	if !e.runHooks(ctx, t, vs, r) {
		r.Secrets = vs.Secrets()
		return
	}
	p, err := e.newPlan(t, vs, aio, bd)
	if err != nil {
		r.Secrets = vs.Secrets()
		r.Status, r.Reason = status.Error, err.Error()
		var re *vars.ResolveError
		if errors.As(err, &re) {
			r.Reason, r.ReasonPos = re.Msg, re.Pos
		}
		return
	}
	r.Secrets = p.secrets
	p.tc = tc
	e.playTurns(ctx, t, p, r)
	// A session may learn secrets as it plays (an OAuth2 token it
	// fetched: Setup.Secret).
	r.Secrets = p.secrets
}

// spillBytes is how much memory an attempt's events may take (their raw
// bytes and their records) before they go to a spool file: most tests
// never make a file, and a long stream holds a byte per event.
const spillBytes = 1 << 20

// newRecorder records an attempt's trace: its raw events in memory, moved
// to a spool in Options.SpoolDir once they pass spillBytes (without a
// SpoolDir, all in memory).
func (e *engine) newRecorder() *trace.Recorder {
	if e.opts.SpoolDir == "" {
		return trace.NewRecorder()
	}
	return trace.NewSpillingRecorder(e.opts.SpoolDir, spillBytes)
}

// newVars is a test attempt's variables: the environment, and what the
// before_all hooks set.
func (e *engine) newVars() *vars.Vars {
	vars := vars.NewVars(e.opts.LookupEnv)
	for k, v := range e.globals {
		vars.Set(k, v)
	}
	return vars
}

// runHooks runs the hooks in order, each seeing the variables of those
// before it. It reports false (and sets the error) when one fails.
func (e *engine) runHooks(ctx context.Context, t *spec.Test, vars *vars.Vars, r *Attempt) bool {
	for i, h := range t.Hooks {
		if h.Output != nil { // a fixture file: its output, no command
			for k, v := range h.Output {
				vars.Set(k, v)
			}
			continue
		}
		argv, re := hookArgv(h, vars)
		if re != nil {
			r.Status, r.Reason, r.ReasonPos = status.Error, re.Msg, re.Pos
			return false
		}
		out, err := hooks.Run(ctx, e.hookCommand(h, argv, t.Path, nil))
		if err != nil {
			r.Status, r.ReasonPos = status.Error, h.Pos
			r.Reason = fmt.Sprintf("hooks[%d]: %v", i, err)
			var he *hooks.Error
			if errors.As(err, &he) {
				r.Detail = he.Stderr
			}
			if ctx.Err() != nil {
				r.Reason = fmt.Sprintf("hooks[%d]: %s", i, e.stopped(ctx))
			}
			return false
		}
		for k, v := range out {
			vars.Set(k, v)
		}
	}
	return true
}

// hookArgv resolves a hook's command.
func hookArgv(h spec.Hook, vs *vars.Vars) ([]string, *vars.ResolveError) {
	argv := make([]string, len(h.Cmd))
	for j, a := range h.Cmd {
		s, err := a.Resolve(vs)
		if err != nil {
			re := &vars.ResolveError{Pos: h.Pos, Msg: err.Error()}
			errors.As(err, &re)
			return nil, re
		}
		argv[j] = s
	}
	return argv, nil
}

// hookCommand is how a hook runs: in the directory of the file that
// declares it, with the hooks' environment.
func (e *engine) hookCommand(h spec.Hook, argv []string, file string, stdin []byte) hooks.Command {
	return hooks.Command{Argv: argv, Dir: filepath.Dir(file), Env: e.opts.Env, Stdin: stdin,
		Timeout: time.Duration(h.TimeoutMs) * time.Millisecond}
}

// conversation is the state carried from turn to turn.
type conversation struct {
	rec *trace.Recorder
	// checkpoints, in a dynamic test, follows its checkpoints.
	checkpoints *checkpoints
	// pending are the interrupts the last turn's last run ended with.
	pending []trace.Interrupt
}

// playTurns plays every scripted turn, evaluating each one's checks right
// after it and stopping at the first failure; then the simulated turns of
// a dynamic test; then it evaluates the test's checks.
func (e *engine) playTurns(ctx context.Context, t *spec.Test, p *plan, r *Attempt) {
	conv := &conversation{rec: e.newRecorder()}
	conv.rec.SetHistory(p.given)
	tr := conv.rec.Trace()
	tr.TraceID, tr.SpanID = p.tc.TraceID(), p.tc.SpanID()
	e.startBackend(p.binding, conv.rec.Trace())
	e.startSpans(conv.rec.Trace())
	defer func() {
		if src := p.session.Source(); src != nil {
			conv.rec.SetSource(*src) // with the ids the turns learnt
		}
		if err := p.session.Close(); err != nil && r.Status == status.Pass {
			r.Status, r.Reason = status.Error, "close the session: "+err.Error()
		}
		e.endSpans(conv.rec.Trace(), r)
		r.Trace = conv.rec.Trace()
		if err := conv.rec.Close(); err != nil && r.Status != status.Error {
			// The events are lost: the report could not show them.
			r.Status, r.Reason = status.Error, err.Error()
		}
	}()
	if t.Simulator != nil {
		// A dynamic test's checkpoints may be reached in its scripted turns.
		conv.checkpoints = newCheckpoints(t)
		defer func() { r.Checkpoints = conv.checkpoints.results() }()
	}
	for i, turn := range t.Turns {
		if !e.step(ctx, i, turn, p.turns[i], p, conv, r) {
			return
		}
		if conv.checkpoints != nil {
			if err := e.reach(ctx, t, conv.checkpoints, i, conv, p, r); err != nil {
				r.Status, r.Reason = status.Error, err.Error()
				return
			}
		}
	}
	if t.Simulator != nil && !e.simulate(ctx, t, p, conv, r) {
		return
	}
	e.lateSpans(conv.rec.Trace(), r)
	scope := conv.rec.Trace().TestScope()
	r.Results = append(r.Results, assertion.Evaluate(p.checks.checks, scope)...)
	e.snapshots(t, p.checks.snapshots, scope, r)
	e.scripts(ctx, t, p.checks.scripts, scope, r)
	e.judgeUnlessFailed(ctx, p.checks.judges, scope, r)
	r.Status = verdict(r.Results)
	if r.Status == status.Error {
		e.checkError(r)
	}
}

// step plays scripted turn i and checks it: the deterministic checks, then
// (when they pass) its judges. It reports whether the test goes on.
func (e *engine) step(ctx context.Context, i int, turn spec.Turn, tp turnPlan, p *plan, conv *conversation, r *Attempt) bool {
	out := e.playTurn(ctx, turn, tp.in, p, conv)
	if err := e.endTurn(ctx, p, conv, r, out.err != nil); err != nil && out.err == nil {
		out.err = err
	}
	r.Warnings = append(r.Warnings, out.warnings...)
	r.Results = append(r.Results, out.builtins...)
	if out.err != nil {
		r.Status, r.Reason, r.ReasonPos = status.Error, fmt.Sprintf("turn[%d]: %v", i, out.err), turn.Pos
		e.skipRest(r, p, i, "not evaluated: the test errored in turn["+itoa(i)+"]")
		return false
	}
	scope := conv.rec.Trace().TurnScope(i)
	r.Results = append(r.Results, assertion.Evaluate(tp.checks.checks, scope)...)
	e.snapshots(p.test, tp.checks.snapshots, scope, r)
	e.scripts(ctx, p.test, tp.checks.scripts, scope, r)
	e.judgeUnlessFailed(ctx, tp.checks.judges, scope, r)
	switch verdict(r.Results) {
	case status.Fail:
		r.Status = status.Fail
		e.skipRest(r, p, i, "not evaluated: the test stopped when turn["+itoa(i)+"] failed")
		return false
	case status.Error:
		r.Status = status.Error
		e.checkError(r)
		e.skipRest(r, p, i, "not evaluated: a check of turn["+itoa(i)+"] could not be made")
		return false
	}
	return true
}

// verdict is the status results give: a critical failure fails, else a
// critical result that could not be evaluated errors, else it passes.
func verdict(rs []assertion.Result) status.Status {
	if assertion.Failed(rs) {
		return status.Fail
	}
	if _, ok := assertion.Errored(rs); ok {
		return status.Error
	}
	return status.Pass
}

// checkError says why the attempt errored: the first check that could
// not be made (a judge without a verdict, a script that crashed).
func (e *engine) checkError(r *Attempt) {
	if res, ok := assertion.Errored(r.Results); ok {
		r.Reason, r.ReasonPos = res.ID+": "+res.Message, res.Source
	}
}

// skipRest records the checks of the turns after i and of the whole test as
// not evaluated.
func (e *engine) skipRest(r *Attempt, p *plan, i int, reason string) {
	for j := i + 1; j < len(p.turns); j++ {
		r.Results = append(r.Results, p.turns[j].checks.skipped("turn["+itoa(j)+"]", reason)...)
	}
	r.Results = append(r.Results, p.checks.skipped("test", reason)...)
}

// skipped is the set's results when it is not evaluated: the
// deterministic checks, the snapshots, the scripts, then the judges.
func (cs checkSet) skipped(scope, reason string) []assertion.Result {
	out := assertion.Skipped(cs.checks, scope, reason)
	out = append(out, assertion.Skipped(cs.snapshots, scope, reason)...)
	out = append(out, assertion.Skipped(cs.scripts, scope, reason)...)
	return append(out, assertion.Skipped(cs.judges, scope, reason)...)
}

// turnOutcome is what a turn's runs produced besides the trace.
type turnOutcome struct {
	builtins []assertion.Result
	warnings []Warning
	err      error // the exchange itself failed: the test errors
}

// playTurn plays the turn through the attempt's session, and makes the
// turn's built-in checks of what it reports: the agent's errors, and
// when the session checks them, the protocol and the client tools.
func (e *engine) playTurn(ctx context.Context, turn spec.Turn, in target.Turn, p *plan, conv *conversation) turnOutcome {
	i := in.Index
	if bd := p.binding; bd != nil {
		bd.SetTurn(i)
		if e.opts.Backend.Doubles() {
			in.Served = func(name, args string) bool { return bd.Served(i, name, args) }
		}
	}
	conv.rec.StartTurn(i, turn.Type, in.Shown(), p.now())
	var out turnOutcome
	span, err := p.tc.StartTurn(i)
	if err != nil {
		out.err = err
		return out
	}
	tt := conv.rec.Trace().Turns
	tt[len(tt)-1].SpanID = span
	res, err := p.session.Turn(ctx, in, conv.rec)
	conv.pending = res.Pending
	for _, w := range res.Warnings {
		out.warnings = append(out.warnings, Warning{Turn: i, Seq: w.Seq, Rule: w.Rule, Message: w.Message})
	}
	if err != nil {
		out.err = e.explain(ctx, p, err)
		return out
	}
	tr := conv.rec.Trace()
	var errs []runError
	for _, re := range tr.Turns[len(tr.Turns)-1].RunErrors {
		errs = append(errs, runError{seq: re.Seq, message: re.Message, code: re.Code})
	}
	out.builtins = append(out.builtins, errorResult(i, turn, errs, p.words))
	if res.Conformance {
		out.builtins = append(out.builtins, protocolResult(i, turn, res.Violations, p.words))
	}
	if res.ClientTools {
		out.builtins = append(out.builtins, clientToolsResult(i, turn, res.ClientFailure))
	}
	return out
}

// explain rewrites a transport error caused by a deadline or cancellation
// into what the user configured.
func (e *engine) explain(ctx context.Context, p *plan, err error) error {
	switch {
	case ctx.Err() != nil:
		return errors.New(e.stopped(ctx))
	case errors.Is(err, target.ErrRunTimeout):
		return fmt.Errorf("the run did not finish within target.timeout_ms (%d ms)", p.runTimeout.Milliseconds())
	}
	return err
}

// stopped says why ctx ended: the test's --timeout, or a cancellation.
func (e *engine) stopped(ctx context.Context) string {
	if errors.Is(context.Cause(ctx), errTestTimeout) {
		return fmt.Sprintf("the test did not finish within --timeout %v", e.opts.TestTimeout)
	}
	return "cancelled"
}

func itoa(i int) string { return strconv.Itoa(i) }
