// Package dryrun prints what `ananke run` would do, without doing it: the
// target, and for each selected test its runs, hooks, turns and the
// assertions checked after each turn and over the whole test, each at the
// file position that declares it. Nothing is sent and no hook runs, so
// values that hooks would set stay as the ${VAR} references written in the
// files; ${ENV.*} references are printed as written too, so no secret is.
// Given a previous report, it also estimates each test's tokens and cost,
// and the run's; given a plan of attack runs, it lists the channel sites
// of each test attacked and how many runs plant in each.
package dryrun

import (
	"fmt"
	"io"
	"strings"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/attack"
	"github.com/ananke/action/internal/judge"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/scriptcheck"
	"github.com/ananke/action/internal/secret"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/textsafe"
)

// Options describe the run being planned.
type Options struct {
	// Policy is how a test would run (runs, min_pass_rate, retries).
	Policy   func(*spec.Test) stability.Policy
	Parallel int
	// Selected says how the tests were chosen ("shard 2/3, --tag smoke"),
	// and Of how many tests the suite has; "" and 0 when all of them run.
	Selected string
	Of       int
	// Previous, when set, is the report the run's tokens and cost are
	// estimated from (estimate.go).
	Previous *Previous
	// Attacks, when set, is the plan of the run's attack runs, printed
	// after the tests (attacks.go).
	Attacks *attack.Plan
}

// Write prints the plan of suite s.
func Write(w io.Writer, s *spec.Suite, o Options) error {
	p := &printer{w: w}
	p.header(s, o)
	var est map[string]estimate
	if o.Previous != nil {
		est = o.Previous.estimates(s.Tests, func(t *spec.Test) int { return o.Policy(t).Runs })
	}
	for _, t := range s.Tests {
		line := ""
		if e, ok := est[t.ID]; ok {
			line = e.line()
		}
		p.test(s.Config, t, o.Policy(t), line)
	}
	if o.Previous != nil {
		p.estimateTotal(o.Previous, s.Tests, est)
	}
	if o.Attacks != nil {
		p.attacks(s, o.Attacks)
	}
	return p.err
}

type printer struct {
	w   io.Writer
	err error
}

func (p *printer) line(indent int, format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, "%s%s\n", strings.Repeat("  ", indent), clean(fmt.Sprintf(format, args...)))
	}
}

// clean keeps file text on one terminal line.
func clean(s string) string { return textsafe.Visible(s, false) }

func (p *printer) header(s *spec.Suite, o Options) {
	tg := s.Config.Target
	runs, adaptive := 0, false
	for _, t := range s.Tests {
		if t.Skip == "" {
			pol := o.Policy(t)
			runs += pol.Runs
			adaptive = adaptive || pol.Adaptive()
		}
	}
	runsText := plural.Count(runs, "run")
	if adaptive {
		runsText = "at most " + runsText // adaptive runs stop once settled
	}
	p.line(0, "Dry run: nothing is sent to the agent and no hook or server runs.")
	p.line(0, "Config:  %s", s.Config.Path)
	if tg.Type == "" {
		// A config without a target: its tests read recorded sessions.
		p.line(0, "Target:  none: the tests read recorded sessions (source:)")
	} else {
		p.line(0, "Target:  %s, each run bounded by %d ms", targetLine(tg), tg.TimeoutMs)
	}
	if srv := tg.Server; srv != nil {
		var argv []string
		for _, a := range srv.Command {
			argv = append(argv, a.Raw)
		}
		p.line(0, "Server:  %s (started before the tests, stopped after)", strings.Join(argv, " "))
	}
	plan := fmt.Sprintf("%s, %s, parallel %d", plural.Count(len(s.Tests), "test"), runsText, max(o.Parallel, 1))
	if o.Selected != "" {
		plan += fmt.Sprintf("; %s selects them from %s", o.Selected, plural.Count(o.Of, "test"))
	}
	p.line(0, "Plan:    %s", plan)
	hooks(p, 0, "before_all", s.Config.BeforeAll)
	hooks(p, 0, "after_all", s.Config.AfterAll)
	switch tg.Type {
	case "":
	case spec.TargetAGUI:
		p.line(0, "Every turn also checks that the agent sent no RUN_ERROR and followed the protocol.")
	case spec.TargetMCP:
		p.line(0, "Every turn also checks that the server answered (a failed call is its result: is_error checks it).")
	default:
		p.line(0, "Every turn also checks that the agent reported no error.")
	}
}

// targetLine says where the target is, in its type's terms, its URL's
// password and query values masked (docs/reports.md, "Secrets").
func targetLine(tg spec.Target) string {
	// An endpoint beside a card replaces the URL the card gives.
	beside := ""
	if !tg.Endpoint.IsZero() {
		beside = fmt.Sprintf(", endpoint %s (replaces the card's URL)", secret.URL(tg.Endpoint.Raw))
	}
	switch {
	case tg.A2A != nil && !tg.A2A.AgentCardURL.IsZero():
		return fmt.Sprintf("%s, agent card %s%s", tg.Type, secret.URL(tg.A2A.AgentCardURL.Raw), beside)
	case tg.A2A != nil && !tg.A2A.AgentCard.IsZero():
		return fmt.Sprintf("%s, inline agent card%s", tg.Type, beside)
	case tg.MCP != nil && tg.MCP.Transport == spec.MCPStdio:
		var argv []string
		for _, a := range tg.MCP.Command {
			argv = append(argv, a.Raw)
		}
		return fmt.Sprintf("%s over stdio: %s", tg.Type, strings.Join(argv, " "))
	case tg.MCP != nil:
		return fmt.Sprintf("%s over %s: %s", tg.Type, tg.MCP.Transport, secret.URL(tg.Endpoint.Raw))
	case tg.A2A != nil:
		return fmt.Sprintf("%s %s", tg.Type, secret.URL(tg.Endpoint.Raw))
	case tg.HTTP != nil:
		return fmt.Sprintf("%s, %s %s", tg.Type, tg.HTTP.Method, secret.URL(tg.Endpoint.Raw))
	case tg.OpenAI != nil:
		how := "streamed"
		if !tg.OpenAI.Stream {
			how = "not streamed"
		}
		return fmt.Sprintf("%s %s (%s API, model %s, %s)", tg.Type, secret.URL(tg.Endpoint.Raw), tg.OpenAI.API, tg.OpenAI.Model.Raw, how)
	}
	return fmt.Sprintf("%s %s (agentId %s)", tg.Type, secret.URL(tg.Endpoint.Raw), tg.AgentID.Raw)
}

// test prints a test's plan; estimate, when set, is its estimated usage.
func (p *printer) test(cfg *spec.Config, t *spec.Test, pol stability.Policy, estimate string) {
	p.line(0, "")
	where := t.Path
	if spec.IsDataset(t.Path) {
		where = fmt.Sprintf("%s:%d", t.Path, t.Pos.Line)
	}
	p.line(0, "%s  [%s]  %s", t.Name.Value, t.ID, where)
	if t.Skip != "" {
		p.line(1, "skipped: %s", t.Skip)
		return
	}
	p.line(1, "%s, min pass rate %s, %s", pol.RunsText(), stability.FormatPercent(pol.MinPassRate), plural.Count(pol.Retries, "retry"))
	if q := t.Quarantine; q != nil {
		// It runs, and never fails the run (docs/history.md#quarantine).
		p.line(1, "quarantined: %s (%s); runs and reports, never fails the run", q.Reason, q.Pos)
	}
	if estimate != "" {
		p.line(1, "estimate: %s", estimate)
	}
	if len(t.Tags) > 0 {
		var tags []string
		for _, tag := range t.Tags {
			tags = append(tags, tag.Value)
		}
		p.line(1, "tags: %s", strings.Join(tags, ", "))
	}
	hooks(p, 1, "hooks", t.Hooks)
	hooks(p, 1, "after", t.After)
	if len(t.History) > 0 {
		p.line(1, "history: %s before the first turn", plural.Count(len(t.History), "message"))
	}
	for i, turn := range t.Turns {
		var msg string
		switch turn.Type {
		case spec.TurnUser, spec.TurnA2ASend:
			msg = fmt.Sprintf("%q", turn.User.Raw) + attachments(turn.Parts)
		case spec.TurnMCPCall:
			msg = fmt.Sprintf("mcp:call %s", turn.Tool.Raw)
			if !turn.Arguments.IsZero() {
				msg += " with arguments"
			}
		case spec.TurnMCPList:
			msg = "mcp:list_tools"
		case spec.TurnResume:
			msg = "resume: " + spec.ShownResume(turn.Resume)
		default:
			msg = "(agui:connect: a run without a new message)"
		}
		p.line(1, "turn[%d] %s", i, msg)
		p.checks(spec.TurnChecks(cfg, t, i))
	}
	if checks := spec.TestChecks(cfg, t); len(checks) > 0 {
		p.line(1, "whole test")
		p.checks(checks)
	}
}

func (p *printer) checks(cs []assertion.Check) {
	for _, c := range cs {
		p.line(2, "%s: %s  (%s)", c.Pos, describe(c), c.ID)
	}
}

// describe says what a check expects, whoever evaluates it.
func describe(c assertion.Check) string {
	switch c.Kind {
	case assertion.KindJudge:
		return judge.Describe(c)
	case assertion.KindScript:
		return scriptcheck.Describe(c)
	}
	return assertion.Describe(c)
}

// hooks lists hook commands as written: "after[0]: ./cleanup.sh ${ID}".
func hooks(p *printer, indent int, what string, hs []spec.Hook) {
	for i, h := range hs {
		if h.Output != nil {
			p.line(indent, "%s[%d]: output of %s", what, i, h.OutputFile)
			continue
		}
		var argv []string
		for _, a := range h.Cmd {
			argv = append(argv, a.Raw)
		}
		p.line(indent, "%s[%d]: %s", what, i, strings.Join(argv, " "))
	}
}

// attachments is ` + [receipt.png (image/png, 2150 bytes)]`.
func attachments(parts []spec.Part) string {
	var names []string
	for _, pt := range parts {
		if pt.File != nil {
			names = append(names, fmt.Sprintf("%s (%s, %d bytes)", pt.File.Name, pt.File.MIME, len(pt.File.Data)))
		}
	}
	if len(names) == 0 {
		return ""
	}
	return " + [" + strings.Join(names, ", ") + "]"
}
