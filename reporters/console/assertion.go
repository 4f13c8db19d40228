package console

import (
	"fmt"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/format"
)

// maxEvidence bounds the calls listed under one assertion; the report files
// hold all of them.
const maxEvidence = 8

// assertion prints a's line after lead — its mark, file:line:col and
// message, then note — and, when it failed or warned, its details after
// body. The failure trees and the -v tree differ only in lead and body.
func (p *printer) assertion(lead, body string, a report.Assertion, note string) {
	mark := p.o.mark(a.Status)
	if a.Status == status.Error && a.Severity == report.SeverityWarning {
		// Its test passed all the same: say why, or "!" reads as an error.
		note += p.o.paint("dim", " (not made; severity warning, which never fails the test)")
	}
	p.out(fmt.Sprintf("%s%s %s: %s%s", lead, mark, clean(a.Source.String()), clean(a.Message), note))
	if a.Status == status.Fail || a.Status == status.Warn {
		p.details(body, a)
	}
}

// details prints a failed or warning assertion's id, expected and observed
// values and evidence, each line after prefix.
func (p *printer) details(prefix string, a report.Assertion) {
	p.out(fmt.Sprintf("%s%s %s", prefix, p.o.paint("dim", "assertion:"), a.ID))
	if a.Expected != "" {
		p.out(fmt.Sprintf("%s%s %s", prefix, p.o.paint("dim", "expected: "), clean(a.Expected)))
	}
	if a.Observed != "" {
		p.out(fmt.Sprintf("%s%s %s", prefix, p.o.paint("dim", "observed: "), clean(a.Observed)))
	}
	if len(a.Origins) > 0 {
		p.out(fmt.Sprintf("%s%s %s", prefix, p.o.paint("dim", "events:   "), clean(format.Origins(a.Origins, maxEvidence))))
	}
	for i, e := range a.Evidence {
		if i == maxEvidence {
			p.out(prefix + p.o.paint("dim", fmt.Sprintf("… %d more in the report", len(a.Evidence)-i)))
			break
		}
		p.out(prefix + p.evidence(e))
	}
}

func (p *printer) evidence(e report.Evidence) string {
	switch {
	case e.Call != nil:
		return fmt.Sprintf("%s  %s", clean(callLine(e.Call)), p.o.paint("dim", clean(e.Note)))
	case e.Gap != nil:
		return clean(fmt.Sprintf("idle %d ms: %s (+%dms) → %s (+%dms)", e.Gap.ToMs-e.Gap.FromMs, e.Gap.From, e.Gap.FromMs, e.Gap.To, e.Gap.ToMs))
	case e.Text != "":
		return fmt.Sprintf("%s %s", p.o.paint("dim", clean(e.Note)+":"), quote(e.Text, 200))
	}
	return clean(e.Note)
}

// callLine renders a call:
// `get_price {"sku":"A-100"} → {"price":89.5}  (call …-call-1, +11ms)`.
func callLine(c *report.Call) string {
	res := "(no result)"
	if c.Result != nil {
		res = format.OneLine(*c.Result, 80)
		if c.IsError {
			res = "error: " + res
		}
	}
	who := ""
	if c.Client {
		who = " answered by Ananke"
	}
	if c.Agent != "" {
		who += ", by subagent " + c.Agent
	}
	if s := format.Served(c); s != "" {
		who += ", " + s
	}
	if s := format.Source(c); s != "" {
		who += ", " + s
	}
	return fmt.Sprintf("%s %s → %s  (call %s%s, +%dms)", c.Name, format.OneLine(c.Args, 80), res, format.ShortID(c.ID), who, c.AtMs)
}
