package engine

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"time"

	"github.com/ananke/action/internal/a2a"
	"github.com/ananke/action/internal/mcp"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/target"
)

// A test of an A2A or MCP target plays its turns through a
// target.Session: the engine resolves the target's fields into the
// session's options, opens it before the first turn and closes it after
// the last; checks, judges, runs and reports are the same as for AG-UI.

// dialer opens an attempt's session; nil for an AG-UI target.
type dialer func(ctx context.Context) (target.Session, error)

// sessionPlan resolves what a session needs from the config and the
// test: its dialer and each turn's call. Secrets it resolves (headers,
// auth, environment) are added to the plan's.
func (e *engine) sessionPlan(p *plan, r *resolver, header http.Header, endpoint string) {
	tg := e.opts.Suite.Config.Target
	timeout := time.Duration(tg.TimeoutMs) * time.Millisecond
	switch {
	case tg.A2A != nil:
		a := tg.A2A
		o := a2a.Options{CardURL: r.url(a.AgentCardURL), Endpoint: endpoint, Headers: header, Timeout: timeout,
			ContextID: r.str(a.ContextID), Blocking: a.Blocking, AcceptedOutputModes: a.AcceptedOutputModes,
			ToolTrace: a.ToolTrace, HTTP: e.opts.HTTP, Now: p.now}
		if !a.AgentCard.IsZero() {
			o.Card = r.json(a.AgentCard, "{}")
		}
		if au := a.Auth; au != nil {
			o.Auth = &a2a.Auth{Scheme: au.Scheme, Name: au.Name, In: au.In, Value: r.str(au.Value), Token: r.str(au.Token)}
			p.secrets = append(p.secrets, o.Auth.Value, o.Auth.Token)
		}
		p.dial = func(ctx context.Context) (target.Session, error) { return a2a.Dial(ctx, o) }
	case tg.MCP != nil:
		m := tg.MCP
		o := mcp.Options{Transport: m.Transport, Endpoint: endpoint, Headers: header, Timeout: timeout,
			Dir: serverDir(e.opts.Suite.Config.Dir, r.str(m.Cwd)), HTTP: e.opts.HTTP, Now: p.now}
		if au := m.Auth; au != nil {
			// A credential is a header like the others: sent with every
			// request, never recorded, masked in errors.
			o.Headers = header.Clone()
			if o.Headers == nil {
				o.Headers = http.Header{}
			}
			switch au.Scheme {
			case spec.AuthBearer:
				token := r.str(au.Token)
				o.Headers.Set("Authorization", "Bearer "+token)
				p.secrets = append(p.secrets, token)
			case spec.AuthAPIKey:
				key := r.str(au.Value)
				o.Headers.Set(au.Name, key)
				p.secrets = append(p.secrets, key)
			}
		}
		for _, c := range m.Command {
			o.Command = append(o.Command, r.str(c))
		}
		for _, v := range m.Env {
			s := r.str(v.Value)
			o.Env = append(o.Env, v.Name+"="+s)
			p.secrets = append(p.secrets, s)
		}
		p.dial = func(ctx context.Context) (target.Session, error) { return mcp.Dial(ctx, o) }
	}
	for _, turn := range p.test.Turns {
		in := target.Turn{Type: turn.Type, Tool: r.str(turn.Tool)}
		if !turn.Arguments.IsZero() {
			in.Arguments = r.json(turn.Arguments, "{}")
		}
		p.calls = append(p.calls, in)
	}
}

// serverDir is where a stdio server runs: cwd relative to the config's
// directory dir, or dir.
func serverDir(dir, cwd string) string {
	if cwd == "" {
		return dir
	}
	if filepath.IsAbs(cwd) {
		return cwd
	}
	return filepath.Join(dir, cwd)
}

// playSessionTurn plays turn i through the attempt's session.
func (e *engine) playSessionTurn(ctx context.Context, i int, turn spec.Turn, user string, p *plan, conv *conversation) turnOutcome {
	in := target.Turn{Type: target.TurnUser} // a simulated user's turn
	if i < len(p.calls) {
		in = p.calls[i]
	}
	in.Index, in.Text = i, user
	shown := user
	if in.Type == target.TurnMCPCall {
		shown = in.Tool + " " + string(in.Arguments)
	} else if in.Type == target.TurnMCPList {
		shown = target.ListToolsCall
	}
	conv.rec.StartTurn(i, turn.Type, shown, p.now())
	var out turnOutcome
	if conv.session == nil {
		s, err := p.dial(ctx)
		if err != nil {
			out.err = e.explain(ctx, p, err)
			return out
		}
		conv.session = s
		conv.rec.SetSource(s.Source())
	}
	runCtx := ctx
	if p.runTimeout > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeoutCause(ctx, p.runTimeout, errRunTimeout)
		defer cancel()
	}
	if err := conv.session.Turn(runCtx, in, conv.rec); err != nil {
		if ctx.Err() == nil && errors.Is(context.Cause(runCtx), errRunTimeout) {
			err = fmt.Errorf("no answer within target.timeout_ms (%d ms): %w", p.runTimeout.Milliseconds(), err)
		}
		out.err = e.explain(ctx, p, err)
		return out
	}
	var errs []runError
	for _, re := range conv.rec.Trace().Turns[i].RunErrors {
		errs = append(errs, runError{seq: re.Seq, message: re.Message, code: re.Code})
	}
	words := sessionErrors
	if e.opts.Suite.Config.Target.MCP != nil {
		words = mcpErrors
	}
	out.builtins = append(out.builtins, errorResult(i, turn, errs, words))
	return out
}
