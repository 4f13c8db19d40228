package engine

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/ananke/action/internal/agui"
	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/simulator"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// plan is a test with every variable resolved and every pattern bound: what
// the turns need, fixed before the first request is sent.
type plan struct {
	test   *spec.Test
	client *agui.Client
	// dial opens the session of an A2A or MCP target (nil: AG-UI), and
	// calls are its turns, resolved.
	dial  dialer
	calls []target.Turn
	// now is the attempt's clock (replayed runs keep their recorded time).
	now             func() time.Time
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
	// parts are a turn's message as content parts (nil: plain text), and
	// attachments what the trace says it carried.
	parts       [][]agui.Part
	attachments [][]trace.Attachment
	turnChecks  [][]assertion.Check
	testChecks  []assertion.Check
	// turnScripts and testScripts are the script checks, run after the
	// deterministic ones.
	turnScripts [][]assertion.Check
	testScripts []assertion.Check
	// turnJudges and testJudges are the judge checks, run after the
	// deterministic ones pass.
	turnJudges [][]assertion.Check
	testJudges []assertion.Check
	// persona is the simulated user of a dynamic test, resolved.
	persona simulator.Persona
	// vars resolves checkpoint blocks, bound per simulated turn.
	vars    *vars.Vars
	secrets []string
}

// splitJudges separates the judge checks from the deterministic ones.
func splitJudges(checks []assertion.Check) (det, judges []assertion.Check) {
	for _, c := range checks {
		if c.Kind == assertion.KindJudge {
			judges = append(judges, c)
		} else {
			det = append(det, c)
		}
	}
	return det, judges
}

// splitScripts separates the script checks, which run commands, from the
// checks evaluated in process.
func splitScripts(checks []assertion.Check) (det, scripts []assertion.Check) {
	for _, c := range checks {
		if c.Kind == assertion.KindScript {
			scripts = append(scripts, c)
		} else {
			det = append(det, c)
		}
	}
	return det, scripts
}

// answer is how Ananke answers one client tool.
type answer struct {
	result  *string
	results []resultEntry
}

type resultEntry struct {
	args   []assertion.ArgMatch
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

func argsMatch(args string, ms []assertion.ArgMatch) bool {
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
	vars *vars.Vars
	err  error
}

func (r *resolver) str(t vars.Template) string {
	if r.err != nil || t.IsZero() {
		return ""
	}
	s, err := t.Resolve(r.vars)
	r.err = err
	return s
}

// url resolves a URL field: its password and query values are its
// secrets, not a whole ${ENV.NAME} that fills it (spec.Template.ResolveURL).
func (r *resolver) url(t vars.Template) string {
	if r.err != nil || t.IsZero() {
		return ""
	}
	s, err := t.ResolveURL(r.vars)
	r.err = err
	return s
}

func (r *resolver) json(v vars.Value, def string) json.RawMessage {
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

func (r *resolver) text(v vars.Value) string {
	if r.err != nil {
		return ""
	}
	s, err := v.ResolveString(r.vars)
	r.err = err
	return s
}

// parts resolves a message's parts: the text parts' references, and what
// the trace records of its attachments. Nil for a plain message.
func (r *resolver) parts(ps []spec.Part) ([]agui.Part, []trace.Attachment) {
	if len(ps) == 0 {
		return nil, nil
	}
	var out []agui.Part
	var atts []trace.Attachment
	for _, p := range ps {
		switch {
		case p.Text != nil:
			out = append(out, agui.Part{Type: "text", Text: r.str(*p.Text)})
		case p.File != nil:
			f := p.File
			out = append(out, agui.Part{Type: f.Kind, MimeType: f.MIME, Filename: f.Name, Data: f.Data})
			atts = append(atts, trace.Attachment{Name: f.Name, MIME: f.MIME, Bytes: len(f.Data)})
		}
	}
	return out, atts
}

func (r *resolver) checks(cs []assertion.Check) []assertion.Check {
	if r.err != nil {
		return nil
	}
	out, err := assertion.BindChecks(cs, r.vars)
	r.err = err
	return out
}

func (r *resolver) args(ms []assertion.ArgMatch) []assertion.ArgMatch {
	if r.err != nil {
		return nil
	}
	out, err := assertion.BindArgs(ms, r.vars)
	r.err = err
	return out
}

// newPlan resolves everything test t needs.
func (e *engine) newPlan(t *spec.Test, vars *vars.Vars, aio AttemptIO) (*plan, error) {
	cfg := e.opts.Suite.Config
	tg := cfg.Target
	r := &resolver{vars: vars}
	p := &plan{
		test:            t,
		runTimeout:      time.Duration(tg.TimeoutMs) * time.Millisecond,
		maxFollowups:    tg.MaxFollowups,
		protocolVersion: tg.ProtocolVersion,
		threadID:        r.str(tg.ThreadID),
		state:           r.json(tg.State, "{}"),
		forwardedProps:  mergeObjects(r.json(tg.ForwardedProps, "{}"), r.json(t.ForwardedProps, "{}")),
		answers:         map[string]*answer{},
	}
	header := http.Header{}
	for _, h := range tg.Headers {
		v := r.str(h.Value)
		header.Set(h.Name, v)
		p.secrets = append(p.secrets, v)
	}
	endpoint := r.url(tg.Endpoint)
	for _, m := range t.History {
		// A fresh id per test, as for every message: producers with memory
		// store messages by id, and a shared id would merge the histories
		// of tests running in parallel.
		text := r.str(m.Content)
		content := agui.StringContent(text)
		parts, atts := r.parts(m.Parts)
		if parts != nil {
			content = agui.PartsContent(parts, tg.ProtocolVersion)
		}
		p.history = append(p.history, agui.Message{ID: e.newID(), Role: m.Role, Content: content})
		p.given = append(p.given, trace.Message{Role: m.Role, Content: text, Attachments: atts})
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
		parts, atts := r.parts(turn.Parts)
		p.parts, p.attachments = append(p.parts, parts), append(p.attachments, atts)
		det, judges := splitJudges(r.checks(spec.TurnChecks(cfg, t, i)))
		det, scripts := splitScripts(det)
		p.turnChecks, p.turnJudges, p.turnScripts = append(p.turnChecks, det), append(p.turnJudges, judges), append(p.turnScripts, scripts)
	}
	det, judges := splitJudges(r.checks(spec.TestChecks(cfg, t)))
	p.testChecks, p.testScripts = splitScripts(det)
	p.testJudges = judges
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
	p.now = aio.Now
	if tg.A2A != nil || tg.MCP != nil {
		e.sessionPlan(p, r, header, endpoint)
		if r.err != nil {
			return nil, r.err
		}
		return p, nil
	}
	p.client = &agui.Client{Endpoint: endpoint, Header: header, HTTP: aio.HTTP, MaxEventSize: tg.MaxEventBytes,
		Strict: tg.StrictProtocol, Now: aio.Now}
	return p, nil
}

// mergeObjects returns base with the keys of over set over it, when both
// are JSON objects; otherwise over when set, else base.
func mergeObjects(base, over json.RawMessage) json.RawMessage {
	var b, o map[string]json.RawMessage
	if json.Unmarshal(over, &o) != nil || len(o) == 0 {
		return base
	}
	if json.Unmarshal(base, &b) != nil || b == nil {
		return over
	}
	for k, v := range o {
		b[k] = v
	}
	out, err := json.Marshal(b)
	if err != nil {
		return over
	}
	return out
}
