package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"time"

	"github.com/ananke/action/internal/agui"
	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/hooks"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// Causes of a context's end, to tell whose deadline passed.
var (
	errTestTimeout = errors.New("test timeout")
	errRunTimeout  = errors.New("run timeout")
)

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
	vars := e.newVars()
	e.play(ctx, t, vars, r, aio)
	if e.opts.Tape != nil && !e.opts.Tape.Live() && r.Trace != nil {
		r.Trace.Source = &trace.Source{Adapter: "ag-ui", Mode: "replay", Capabilities: capability.AGUI}
	}
	if len(t.After) > 0 {
		e.runAfter(ctx, t, vars, r)
		r.Secrets = append(r.Secrets, vars.Secrets()...)
	}
	return r
}

// play runs the attempt's hooks and turns, within --timeout.
func (e *engine) play(ctx context.Context, t *spec.Test, vs *vars.Vars, r *Attempt, aio AttemptIO) {
	if d := e.opts.TestTimeout; d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, d, errTestTimeout)
		defer cancel()
	}
	if !e.runHooks(ctx, t, vs, r) {
		r.Secrets = vs.Secrets()
		return
	}
	p, err := e.newPlan(t, vs, aio)
	if err != nil {
		r.Secrets = vs.Secrets()
		r.Status, r.Reason = Error, err.Error()
		var re *vars.ResolveError
		if errors.As(err, &re) {
			r.Reason, r.ReasonPos = re.Msg, re.Pos
		}
		return
	}
	r.Secrets = p.secrets
	e.playTurns(ctx, t, p, r)
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
			r.Status, r.Reason, r.ReasonPos = Error, re.Msg, re.Pos
			return false
		}
		out, err := hooks.Run(ctx, e.hookCommand(h, argv, t.Path, nil))
		if err != nil {
			r.Status, r.ReasonPos = Error, h.Pos
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
	messages []agui.Message
	state    json.RawMessage
	rec      *trace.Recorder
	// session is an A2A or MCP target's, opened at the first turn.
	session target.Session
	// checkpoints, in a dynamic test, follows its checkpoints.
	checkpoints *checkpoints
}

// playTurns plays every scripted turn, evaluating each one's checks right
// after it and stopping at the first failure; then the simulated turns of
// a dynamic test; then it evaluates the test's checks.
func (e *engine) playTurns(ctx context.Context, t *spec.Test, p *plan, r *Attempt) {
	conv := &conversation{messages: p.history, state: p.state, rec: e.newRecorder()}
	conv.rec.SetHistory(p.given)
	defer func() {
		if conv.session != nil {
			conv.rec.SetSource(conv.session.Source()) // with the ids the turns learnt
			if err := conv.session.Close(); err != nil && r.Status == Pass {
				r.Status, r.Reason = Error, "close the session: "+err.Error()
			}
		}
		r.Trace = conv.rec.Trace()
		if err := conv.rec.Close(); err != nil && r.Status != Error {
			// The events are lost: the report could not show them.
			r.Status, r.Reason = Error, err.Error()
		}
	}()
	if t.Simulator != nil {
		// A dynamic test's checkpoints may be reached in its scripted turns.
		conv.checkpoints = newCheckpoints(t)
		defer func() { r.Checkpoints = conv.checkpoints.results() }()
	}
	for i, turn := range t.Turns {
		if !e.step(ctx, i, turn, p.users[i], p, conv, r) {
			return
		}
		if conv.checkpoints != nil {
			if err := e.reach(ctx, t, conv.checkpoints, i, conv, p, r); err != nil {
				r.Status, r.Reason = Error, err.Error()
				return
			}
		}
	}
	if t.Simulator != nil && !e.simulate(ctx, t, p, conv, r) {
		return
	}
	scope := conv.rec.Trace().TestScope()
	r.Results = append(r.Results, assertion.Evaluate(p.testChecks, scope)...)
	e.scripts(ctx, t, p.testScripts, scope, r)
	e.judgeUnlessFailed(ctx, p.testJudges, scope, r)
	r.Status = verdict(r.Results)
	if r.Status == Error {
		e.checkError(r)
	}
}

// step plays scripted turn i and checks it: the deterministic checks, then
// (when they pass) its judges. It reports whether the test goes on.
func (e *engine) step(ctx context.Context, i int, turn spec.Turn, user string, p *plan, conv *conversation, r *Attempt) bool {
	out := e.playTurn(ctx, i, turn, user, p, conv)
	conv.rec.EndTurn(p.now(), conv.state)
	r.Warnings = append(r.Warnings, out.warnings...)
	r.Results = append(r.Results, out.builtins...)
	if out.err != nil {
		r.Status, r.Reason, r.ReasonPos = Error, fmt.Sprintf("turn[%d]: %v", i, out.err), turn.Pos
		e.skipRest(r, p, i, "not evaluated: the test errored in turn["+itoa(i)+"]")
		return false
	}
	scope := conv.rec.Trace().TurnScope(i)
	r.Results = append(r.Results, assertion.Evaluate(p.turnChecks[i], scope)...)
	e.scripts(ctx, p.test, p.turnScripts[i], scope, r)
	e.judgeUnlessFailed(ctx, p.turnJudges[i], scope, r)
	switch verdict(r.Results) {
	case Fail:
		r.Status = Fail
		e.skipRest(r, p, i, "not evaluated: the test stopped when turn["+itoa(i)+"] failed")
		return false
	case Error:
		r.Status = Error
		e.checkError(r)
		e.skipRest(r, p, i, "not evaluated: a check of turn["+itoa(i)+"] could not be made")
		return false
	}
	return true
}

// verdict is the status results give: a critical failure fails, else a
// critical result that could not be evaluated errors, else it passes.
func verdict(rs []assertion.Result) Status {
	if assertion.Failed(rs) {
		return Fail
	}
	if _, ok := assertion.Errored(rs); ok {
		return Error
	}
	return Pass
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
	for j := i + 1; j < len(p.turnChecks); j++ {
		r.Results = append(r.Results, assertion.Skipped(p.turnChecks[j], "turn["+itoa(j)+"]", reason)...)
		r.Results = append(r.Results, assertion.Skipped(p.turnScripts[j], "turn["+itoa(j)+"]", reason)...)
		r.Results = append(r.Results, assertion.Skipped(p.turnJudges[j], "turn["+itoa(j)+"]", reason)...)
	}
	r.Results = append(r.Results, assertion.Skipped(p.testChecks, "test", reason)...)
	r.Results = append(r.Results, assertion.Skipped(p.testScripts, "test", reason)...)
	r.Results = append(r.Results, assertion.Skipped(p.testJudges, "test", reason)...)
}

// turnOutcome is what a turn's runs produced besides the trace.
type turnOutcome struct {
	builtins []assertion.Result
	warnings []Warning
	err      error // the exchange itself failed: the test errors
}

// playTurn sends the turn's message (if any) and runs until the agent no
// longer waits for client tools.
func (e *engine) playTurn(ctx context.Context, i int, turn spec.Turn, user string, p *plan, conv *conversation) turnOutcome {
	if p.dial != nil {
		return e.playSessionTurn(ctx, i, turn, user, p, conv)
	}
	conv.rec.StartTurn(i, turn.Type, user, p.now())
	if turn.Type != spec.TurnConnect {
		content := agui.StringContent(user)
		if i < len(p.parts) && p.parts[i] != nil {
			content = agui.PartsContent(p.parts[i], p.protocolVersion)
			conv.rec.Attach(p.attachments[i])
		}
		conv.messages = append(conv.messages, agui.Message{ID: e.newID(), Role: agui.RoleUser, Content: content})
	}
	var out turnOutcome
	var protocol []problem
	var runErrs []runError
	clientFailure := ""
	for followups := 0; ; followups++ {
		res, err := e.run(ctx, p, conv)
		for _, pr := range res.Problems {
			pp := problem{seq: conv.rec.Seq(pr.Frame), Problem: pr}
			if pr.Severity == agui.Error {
				protocol = append(protocol, pp)
			} else {
				out.warnings = append(out.warnings, Warning{Turn: i, Seq: pp.seq, Rule: pr.Rule, Message: pr.Message})
			}
		}
		for _, re := range res.RunErrors {
			runErrs = append(runErrs, runError{seq: conv.rec.Seq(re.Frame), message: re.Message, code: re.Code})
		}
		if err != nil {
			out.err = e.explain(ctx, p, err)
			return out
		}
		conv.messages, conv.state = res.Messages, res.State
		if len(protocol) > 0 || len(runErrs) > 0 || len(res.Pending) == 0 {
			break
		}
		if followups == p.maxFollowups {
			clientFailure = fmt.Sprintf("the agent still called client tools after %d follow-up runs (target.max_followups)", p.maxFollowups)
			break
		}
		if clientFailure = e.answer(p, conv, res.Pending); clientFailure != "" {
			break
		}
	}
	out.builtins = append(out.builtins, runErrorResult(i, turn, runErrs), protocolResult(i, turn, protocol))
	if len(p.tools) > 0 || clientFailure != "" {
		out.builtins = append(out.builtins, clientToolsResult(i, turn, clientFailure))
	}
	return out
}

// run posts one run of the conversation.
func (e *engine) run(ctx context.Context, p *plan, conv *conversation) (*agui.Result, error) {
	in := agui.RunAgentInput{ThreadID: p.threadID, RunID: e.newID(), ProtocolVersion: p.protocolVersion, State: conv.state,
		Messages: agui.ForInput(conv.messages), Tools: p.tools, ForwardedProps: p.forwardedProps}
	conv.rec.StartRun(in.RunID, p.now())
	runCtx, cancel := context.WithTimeoutCause(ctx, p.runTimeout, errRunTimeout)
	defer cancel()
	res, err := p.client.Run(runCtx, in, conv.rec.Observe)
	conv.rec.EndRun(res.Frames, agui.ElideData(res.Request), res.Messages, p.now())
	return res, err
}

// answer appends one tool message per pending call, or says why a call
// cannot be answered.
func (e *engine) answer(p *plan, conv *conversation, pending []agui.ToolCall) string {
	for _, c := range pending {
		a := p.answers[c.Function.Name]
		if a == nil {
			return fmt.Sprintf("the agent called %q (call %s) and no result came back: it is not a backend tool that answered with TOOL_CALL_RESULT, nor a client tool declared in this test's tools",
				c.Function.Name, c.ID)
		}
		content, ok := a.reply(c.Function.Arguments)
		if !ok {
			return fmt.Sprintf("no results entry of client tool %q matches the arguments of call %s: %s", c.Function.Name, c.ID, c.Function.Arguments)
		}
		conv.messages = append(conv.messages, agui.Message{ID: e.newID(), Role: agui.RoleTool, ToolCallID: c.ID, Content: agui.StringContent(content)})
		conv.rec.ClientResult(c.ID, content, p.now())
	}
	return ""
}

// explain rewrites a transport error caused by a deadline or cancellation
// into what the user configured.
func (e *engine) explain(ctx context.Context, p *plan, err error) error {
	switch {
	case ctx.Err() != nil:
		return errors.New(e.stopped(ctx))
	case errors.Is(err, errRunTimeout):
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
