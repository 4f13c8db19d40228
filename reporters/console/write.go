package console

import (
	"fmt"
	"io"
	"strings"

	"github.com/ananke/action/reporters/internal/format"

	"github.com/ananke/action/internal/report"
)

// maxEvidence bounds the calls listed under one assertion; the report files
// hold all of them.
const maxEvidence = 8

// Write prints the failure trees (every test with -v) and the summary.
func Write(w io.Writer, r *report.Report, opts Options) error {
	p := &printer{w: w, o: opts}
	for i := range r.Tests {
		t := &r.Tests[i]
		if t.Status == report.StatusFail || t.Status == report.StatusError || opts.Verbose {
			p.test(t)
		}
		if len(t.Warnings) > 0 && !opts.Verbose {
			p.line(1, opts.paint("dim", fmt.Sprintf("%s: %d protocol warning(s); run with -v to see them", clean(t.Name), len(t.Warnings))))
		}
	}
	p.summary(r)
	return p.err
}

type printer struct {
	w   io.Writer
	o   Options
	err error
}

func (p *printer) line(indent int, s string) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, "%s%s\n", strings.Repeat("  ", indent), s)
	}
}

func (p *printer) test(t *report.Test) {
	p.line(0, "")
	head := map[string]string{report.StatusFail: "FAIL", report.StatusError: "ERROR", report.StatusPass: "PASS", report.StatusSkipped: "SKIP"}[t.Status]
	p.line(0, fmt.Sprintf("%s %s  %s", p.o.paint(t.Status, head), p.o.paint("bold", clean(t.Name)), clean(t.File)))
	if t.Reason != "" {
		where := ""
		if t.At != nil {
			where = t.At.String() + ": "
		}
		p.line(1, clean(where+t.Reason))
	}
	for _, l := range nonEmptyLines(t.Detail) {
		p.line(2, p.o.paint("dim", clean(l)))
	}
	lastScope := ""
	for _, a := range t.Assertions {
		if a.Status != "fail" && !(p.o.Verbose && a.Status != "skip") {
			continue
		}
		if a.Scope != lastScope {
			lastScope = a.Scope
			p.scope(t, a.Scope)
		}
		p.assertion(a)
	}
	if p.o.Verbose {
		for _, w := range t.Warnings {
			p.line(1, p.o.paint("error", clean(fmt.Sprintf("warning: turn[%d] event #%d: %s [%s]", w.Turn, w.Seq, w.Message, w.Rule))))
		}
	}
}

// scope prints the turn (with the user's message) or "whole test".
func (p *printer) scope(t *report.Test, scope string) {
	for _, turn := range t.Turns {
		if fmt.Sprintf("turn[%d]", turn.Index) == scope {
			msg := "(agui:connect)"
			if turn.Type == "user" {
				msg = quote(turn.User, 70)
			}
			p.line(1, fmt.Sprintf("%s %s", scope, clean(msg)))
			return
		}
	}
	p.line(1, "whole test")
}

func (p *printer) assertion(a report.Assertion) {
	mark := p.o.paint(a.Status, symbol(a.Status))
	p.line(2, fmt.Sprintf("%s %s: %s", mark, clean(a.Source.String()), clean(a.Message)))
	if a.Status != "fail" {
		return
	}
	p.line(3, fmt.Sprintf("%s %s", p.o.paint("dim", "assertion:"), a.ID))
	if a.Expected != "" {
		p.line(3, fmt.Sprintf("%s %s", p.o.paint("dim", "expected: "), clean(a.Expected)))
	}
	if a.Observed != "" {
		p.line(3, fmt.Sprintf("%s %s", p.o.paint("dim", "observed: "), clean(a.Observed)))
	}
	shown := 0
	for _, e := range a.Evidence {
		if shown == maxEvidence {
			p.line(3, p.o.paint("dim", fmt.Sprintf("… %d more in the report", len(a.Evidence)-shown)))
			break
		}
		shown++
		switch {
		case e.Call != nil:
			p.line(3, fmt.Sprintf("%s  %s", clean(callLine(e.Call)), p.o.paint("dim", clean(e.Note))))
		case e.Gap != nil:
			p.line(3, clean(fmt.Sprintf("idle %d ms: %s (+%dms) → %s (+%dms)", e.Gap.ToMs-e.Gap.FromMs, e.Gap.From, e.Gap.FromMs, e.Gap.To, e.Gap.ToMs)))
		case e.Text != "":
			p.line(3, fmt.Sprintf("%s %s", p.o.paint("dim", clean(e.Note)+":"), quote(e.Text, 200)))
		default:
			p.line(3, clean(e.Note))
		}
	}
}

// callLine renders a call:
// `get_price {"sku":"A-100"} → {"price":89.5}  (call …-call-1, +11ms)`.
func callLine(c *report.Call) string {
	res := "(no result)"
	if c.Result != nil {
		res = format.OneLine(*c.Result, 80)
	}
	client := ""
	if c.Client {
		client = " answered by Ananke"
	}
	return fmt.Sprintf("%s %s → %s  (call %s%s, +%dms)", c.Name, format.OneLine(c.Args, 80), res, format.ShortID(c.ID), client, c.AtMs)
}

func (p *printer) summary(r *report.Report) {
	t := r.Totals
	p.line(0, "")
	parts := []string{fmt.Sprintf("%d total", t.Total), p.o.paint("pass", fmt.Sprintf("%d passed", t.Passed))}
	if t.Failed > 0 {
		parts = append(parts, p.o.paint("fail", fmt.Sprintf("%d failed", t.Failed)))
	} else {
		parts = append(parts, "0 failed")
	}
	if t.Errored > 0 {
		parts = append(parts, p.o.paint("error", fmt.Sprintf("%d errored", t.Errored)))
	} else {
		parts = append(parts, "0 errored")
	}
	parts = append(parts, fmt.Sprintf("%d skipped", t.Skipped))
	p.line(0, fmt.Sprintf("Tests: %s (pass rate %.1f%%)", strings.Join(parts, ", "), t.PassRate))
	p.line(0, fmt.Sprintf("Time:  %s", format.Duration(r.DurationMs)))
}

func nonEmptyLines(s string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// quote quotes s, shortened to n characters.
func quote(s string, n int) string { return fmt.Sprintf("%q", format.Short(s, n)) }
