package engine

import (
	"cmp"
	"fmt"
	"time"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/attack/plant"
	"github.com/ananke/action/internal/backend"
	"github.com/ananke/action/internal/otel/tracectx"
	"github.com/ananke/action/internal/simulator"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// plan is a test with every variable resolved and every pattern bound: what
// the turns need, fixed before the first request is sent.
type plan struct {
	test *spec.Test
	// session plays the turns (opened by the target's protocol), and words
	// say how the built-in checks speak of its protocol.
	session target.Session
	words   Words
	// now is the attempt's clock (replayed runs keep their recorded time).
	now        func() time.Time
	runTimeout time.Duration
	given      []trace.Message // the history as text, for the trace
	turns      []turnPlan
	// checks are the whole test's checks.
	checks checkSet
	// persona is the simulated user of a dynamic test, resolved.
	persona simulator.Persona
	// vars resolves checkpoint blocks, bound per simulated turn.
	vars    *vars.Vars
	secrets []string
	// binding is the attempt's binding to the backend (nil: the test does
	// not use it).
	binding *backend.Binding
	// tc is the attempt's trace context: its ids, the turns' spans, the
	// requests' spans.
	tc *tracectx.Attempt
}

// turnPlan is one scripted turn: what it sends, and its checks.
type turnPlan struct {
	in     target.Turn
	checks checkSet
}

// checkSet is a scope's checks: the deterministic ones, then the
// snapshots, compared with their stored snapshots, then the scripts,
// which run commands, then the judges, run after the deterministic ones
// pass.
type checkSet struct {
	checks, snapshots, scripts, judges []assertion.Check
}

// newCheckSet splits bound checks into a checkSet.
func newCheckSet(cs []assertion.Check) checkSet {
	det, judges := splitKind(cs, assertion.KindJudge)
	det, scripts := splitKind(det, assertion.KindScript)
	det, snaps := splitKind(det, assertion.KindSnapshot)
	return checkSet{checks: det, snapshots: snaps, scripts: scripts, judges: judges}
}

// splitKind separates the checks of kind k — judges (asked after the
// deterministic checks pass), scripts (which run commands), snapshots
// (compared by the run's Snapshots) — from the rest.
func splitKind(checks []assertion.Check, k assertion.Kind) (rest, of []assertion.Check) {
	for _, c := range checks {
		if c.Kind == k {
			of = append(of, c)
		} else {
			rest = append(rest, c)
		}
	}
	return rest, of
}

// newPlan resolves everything test t needs: the target's protocol opens
// the attempt's session, resolving what it needs, then each turn and the
// checks are resolved.
func (e *engine) newPlan(t *spec.Test, vars *vars.Vars, aio AttemptIO, bd *backend.Binding) (*plan, error) {
	cfg := e.opts.Suite.Config
	r := &Resolver{vars: vars}
	p := &plan{test: t, now: aio.Now, runTimeout: time.Duration(cfg.Target.TimeoutMs) * time.Millisecond, vars: vars, binding: bd}
	proto, ok := e.protocol()
	if !ok {
		return nil, fmt.Errorf("no protocol plays %s targets in this run", cmp.Or(cfg.Target.Type, "untyped"))
	}
	a := &Setup{Resolver: r, Target: &cfg.Target, Dir: cfg.Dir, Test: t, HTTP: aio.HTTP, Now: aio.Now, NewID: e.newID, p: p}
	p.session, p.words = proto.Open(a), proto.Words
	a.History() // the trace shows it, whether or not the session sends it
	// An attack run's direct injection (plant.User) goes into the first
	// user message written with text (whatever its references resolve
	// to), the turn internal/attack offers as the channel's site.
	user := false
	for i, turn := range t.Turns {
		in := target.Turn{Index: i, Type: turn.Type, Text: r.Str(turn.User), Tool: r.Str(turn.Tool)}
		in.Parts, in.Attachments = r.parts(turn.Parts, t.Attack)
		if !user && (in.Type == target.TurnUser || in.Type == target.TurnA2ASend) && turn.User.Raw != "" {
			user = true
			in.Text, in.Parts = plantMessage(t.Attack, plant.User, "", in.Text, in.Parts)
		}
		if !turn.Arguments.IsZero() {
			in.Arguments = r.JSON(turn.Arguments, "{}")
		}
		in.Resume = r.answers(turn.Resume)
		p.turns = append(p.turns, turnPlan{in: in, checks: newCheckSet(r.checks(spec.TurnChecks(cfg, t, i)))})
	}
	p.checks = newCheckSet(r.checks(spec.TestChecks(cfg, t)))
	if sim := t.Simulator; sim != nil {
		p.persona = simulator.Persona{Persona: r.Str(sim.Persona), Goal: r.Str(sim.Goal), Instructions: r.Str(sim.Instructions)}
	}
	if r.err != nil {
		p.session.Close() // never connected
		return nil, r.err
	}
	p.secrets = append(p.secrets, vars.Secrets()...)
	return p, nil
}
