package engine

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/ananke/action/internal/agui"
	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/simulator"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/trace"
)

// plan is a test with every variable resolved and every pattern bound: what
// the turns need, fixed before the first request is sent.
type plan struct {
	client          *agui.Client
	runTimeout      time.Duration
	maxFollowups    int
	threadID        string
	protocolVersion string
	state           json.RawMessage
	forwardedProps  json.RawMessage
	history         []agui.Message
	given           []trace.Message // the history as text, for the trace
	tools           []agui.Tool
	answers         map[string]*answer
	users           []string // resolved user text per turn
	turnChecks      [][]spec.Check
	testChecks      []spec.Check
	// turnJudges and testJudges are the judge checks, run after the
	// deterministic ones pass.
	turnJudges [][]spec.Check
	testJudges []spec.Check
	// persona is the simulated user of a dynamic test, resolved.
	persona simulator.Persona
	// vars resolves checkpoint blocks, bound per simulated turn.
	vars    *spec.Vars
	secrets []string
}

// splitJudges separates the judge checks from the deterministic ones.
func splitJudges(checks []spec.Check) (det, judges []spec.Check) {
	for _, c := range checks {
		if c.Kind == spec.KindJudge {
			judges = append(judges, c)
		} else {
			det = append(det, c)
		}
	}
	return det, judges
}

// answer is how Ananke answers one client tool.
type answer struct {
	result  *string
	results []resultEntry
}

type resultEntry struct {
	args   []spec.ArgMatch
	result string
}

// reply returns the answer to a call with these arguments, or false when no
// results entry matches.
func (a *answer) reply(args string) (string, bool) {
	if a.result != nil {
		return *a.result, true
	}
	for _, e := range a.results {
		if argsMatch(args, e.args) {
			return e.result, true
		}
	}
	return "", false
}

func argsMatch(args string, ms []spec.ArgMatch) bool {
	for _, m := range ms {
		v, ok := assertion.ArgText(args, m.Path)
		if !ok || !m.Regex.Compiled().MatchString(v) {
			return false
		}
	}
	return true
}

// resolver resolves templates against one test's variables, keeping the
// first error (every error carries its file position).
type resolver struct {
	vars *spec.Vars
	err  error
}

func (r *resolver) str(t spec.Template) string {
	if r.err != nil || t.IsZero() {
		return ""
	}
	s, err := t.Resolve(r.vars)
	r.err = err
	return s
}

func (r *resolver) json(v spec.Value, def string) json.RawMessage {
	if r.err != nil {
		return nil
	}
	if v.IsZero() {
		return json.RawMessage(def)
	}
	js, err := v.Resolve(r.vars)
	r.err = err
	return js
}

func (r *resolver) text(v spec.Value) string {
	if r.err != nil {
		return ""
	}
	s, err := v.ResolveString(r.vars)
	r.err = err
	return s
}

func (r *resolver) checks(cs []spec.Check) []spec.Check {
	if r.err != nil {
		return nil
	}
	out, err := spec.BindChecks(cs, r.vars)
	r.err = err
	return out
}

func (r *resolver) args(ms []spec.ArgMatch) []spec.ArgMatch {
	if r.err != nil {
		return nil
	}
	out, err := spec.BindArgs(ms, r.vars)
	r.err = err
	return out
}

// newPlan resolves everything test t needs.
func (e *engine) newPlan(t *spec.Test, vars *spec.Vars) (*plan, error) {
	cfg := e.opts.Suite.Config
	tg := cfg.Target
	r := &resolver{vars: vars}
	p := &plan{
		runTimeout:      time.Duration(tg.TimeoutMs) * time.Millisecond,
		maxFollowups:    tg.MaxFollowups,
		protocolVersion: tg.ProtocolVersion,
		threadID:        r.str(tg.ThreadID),
		state:           r.json(tg.State, "{}"),
		forwardedProps:  r.json(tg.ForwardedProps, "{}"),
		answers:         map[string]*answer{},
	}
	header := http.Header{}
	for _, h := range tg.Headers {
		v := r.str(h.Value)
		header.Set(h.Name, v)
		p.secrets = append(p.secrets, v)
	}
	endpoint := r.str(tg.Endpoint)
	for _, m := range t.History {
		// A fresh id per test, as for every message: producers with memory
		// store messages by id, and a shared id would merge the histories
		// of tests running in parallel.
		text := r.str(m.Content)
		p.history = append(p.history, agui.Message{ID: e.newID(), Role: m.Role, Content: agui.StringContent(text)})
		p.given = append(p.given, trace.Message{Role: m.Role, Content: text})
	}
	for _, ct := range t.Tools {
		p.tools = append(p.tools, agui.Tool{Name: ct.Name.Value, Description: r.str(ct.Description), Parameters: r.json(ct.Parameters, `{"type":"object","properties":{}}`)})
		a := &answer{}
		if ct.Result != nil {
			s := r.text(*ct.Result)
			a.result = &s
		}
		for _, re := range ct.Results {
			a.results = append(a.results, resultEntry{args: r.args(re.ArgsMatch), result: r.text(re.Result)})
		}
		p.answers[ct.Name.Value] = a
	}
	for i, turn := range t.Turns {
		p.users = append(p.users, r.str(turn.User))
		det, judges := splitJudges(r.checks(spec.TurnChecks(cfg, t, i)))
		p.turnChecks, p.turnJudges = append(p.turnChecks, det), append(p.turnJudges, judges)
	}
	p.testChecks, p.testJudges = splitJudges(r.checks(spec.TestChecks(cfg, t)))
	if sim := t.Simulator; sim != nil {
		p.persona = simulator.Persona{Persona: r.str(sim.Persona), Goal: r.str(sim.Goal), Instructions: r.str(sim.Instructions)}
	}
	p.vars = vars
	if r.err != nil {
		return nil, r.err
	}
	if p.threadID == "" {
		p.threadID = e.newID()
	}
	p.secrets = append(p.secrets, vars.Secrets()...)
	p.client = &agui.Client{Endpoint: endpoint, Header: header, HTTP: e.opts.HTTP, MaxEventSize: tg.MaxEventBytes,
		Strict: tg.StrictProtocol, Now: e.opts.Now}
	return p, nil
}
