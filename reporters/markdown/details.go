package markdown

import (
	"fmt"
	"strings"

	"github.com/ananke/action/reporters/internal/format"

	"github.com/ananke/action/internal/report"
)

// Caps on what one test's block lists; the report directory holds the rest.
const (
	// maxEvidence bounds the evidence lines under one assertion, as on the
	// console.
	maxEvidence = 8
	// maxFailures bounds the failing assertions listed for one test.
	maxFailures = 20
	// maxOpen is the most failed or errored tests whose blocks start open:
	// a comment with dozens of open blocks is unreadable.
	maxOpen = 3
)

// details is the <details> block of a failed or errored test: the reason
// and detail of an error, then the failing assertions grouped by turn, then
// the count of protocol warnings. It ends with a blank line.
func details(t *report.Test, o Options, open bool) string {
	var b strings.Builder
	attr := ""
	if open {
		attr = " open"
	}
	// GitHub parses markdown inside <details> only after a blank line.
	fmt.Fprintf(&b, "<details%s>\n<summary>%s</summary>\n\n", attr, summary(t))
	if t.Reason != "" {
		where := ""
		if t.At != nil {
			where = location(*t.At, o)
		}
		// The symbol first: a line never starts with a code span, which a
		// reader (or a careless parser) could take for a fence.
		b.WriteString(symbol(t.Status) + " " + labelled(where, inline(format.Short(t.Reason, maxReason))) + "\n\n")
	}
	if strings.TrimSpace(t.Detail) != "" {
		b.WriteString(fence(detail(t.Detail)) + "\n")
	}
	failures(&b, t, o)
	if n := len(t.Warnings); n > 0 {
		fmt.Fprintf(&b, "⚠ %s; see %s.\n\n", count(n, "protocol warning"), o.Artifact)
	}
	b.WriteString("</details>\n\n")
	return b.String()
}

// summary is the always-visible line of the block; it is raw HTML, where
// markdown escapes would show.
func summary(t *report.Test) string {
	s := fmt.Sprintf("%s <b>%s</b>", symbol(t.Status), html(format.Short(t.Name, maxName)))
	if t.Status == report.StatusError {
		return s + " — errored"
	}
	n := len(t.Failed())
	return s + " — " + count(n, "failed assertion")
}

// failures lists the failing assertions, with a line per scope (the turn
// and the user's message, or the whole test) whenever it changes.
func failures(b *strings.Builder, t *report.Test, o Options) {
	failed := t.Failed()
	lastScope := ""
	for i, a := range failed {
		if i == maxFailures {
			fmt.Fprintf(b, "_… %d more failed assertions; see %s._\n\n", len(failed)-i, o.Artifact)
			break
		}
		if i == 0 || a.Scope != lastScope {
			lastScope = a.Scope
			b.WriteString(scope(t, a.Scope) + "\n\n")
		}
		assertion(b, a, o)
	}
}

// scope names a turn, with the user's message, or the whole test.
func scope(t *report.Test, scope string) string {
	for _, turn := range t.Turns {
		if fmt.Sprintf("turn[%d]", turn.Index) != scope {
			continue
		}
		msg := "(agui:connect)"
		if turn.Type == "user" {
			msg = "“" + text(format.Short(turn.User, maxUser)) + "”"
		}
		return "**" + text(scope) + "** " + msg
	}
	return "**whole test**"
}

// assertion lists one failing assertion as the console does — position and
// message, id, expected, observed — and its evidence in a code block.
func assertion(b *strings.Builder, a report.Assertion, o Options) {
	fmt.Fprintf(b, "- ✗ %s\n", labelled(location(a.Source, o), inline(format.Short(a.Message, maxMessage))))
	if id := code(a.ID, false); id != "" {
		fmt.Fprintf(b, "  - assertion: %s\n", id)
	}
	if a.Expected != "" {
		fmt.Fprintf(b, "  - expected: %s\n", inline(format.Short(a.Expected, maxValue)))
	}
	if a.Observed != "" {
		fmt.Fprintf(b, "  - observed: %s\n", inline(format.Short(a.Observed, maxValue)))
	}
	b.WriteString("\n")
	if lines := evidence(a.Evidence); len(lines) > 0 {
		b.WriteString(fence(strings.Join(lines, "\n")) + "\n")
	}
}

// evidence renders up to maxEvidence items, one line each.
func evidence(ev []report.Evidence) []string {
	var lines []string
	for i, e := range ev {
		if i == maxEvidence {
			lines = append(lines, fmt.Sprintf("… %d more in the report", len(ev)-i))
			break
		}
		var l string
		switch {
		case e.Call != nil:
			l = callLine(e.Call) + "  " + e.Note
		case e.Gap != nil:
			g := e.Gap
			l = fmt.Sprintf("idle %d ms: %s (+%dms) → %s (+%dms)", g.ToMs-g.FromMs, g.From, g.FromMs, g.To, g.ToMs)
		case e.Text != "":
			l = fmt.Sprintf("%s: %q", e.Note, format.Short(e.Text, maxExcerpt))
		default:
			l = e.Note
		}
		lines = append(lines, visible(strings.TrimRight(l, " "), false))
	}
	return lines
}

// callLine renders a call:
// `get_price {"sku":"A-100"} → {"price":89.5}  (call …-call-1, +11ms)`.
func callLine(c *report.Call) string {
	res := "(no result)"
	if c.Result != nil {
		res = format.OneLine(*c.Result, maxArg)
	}
	client := ""
	if c.Client {
		client = " answered by Ananke"
	}
	return fmt.Sprintf("%s %s → %s  (call %s%s, +%dms)", c.Name, format.OneLine(c.Args, maxArg), res, format.ShortID(c.ID), client, c.AtMs)
}

// labelled is "label: s", or s alone without a label.
func labelled(label, s string) string {
	if label == "" {
		return s
	}
	return label + ": " + s
}

// detail keeps the first detailLines lines and maxDetail bytes of an
// error's detail (hook output), saying how much was left out.
func detail(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	more := 0
	if len(lines) > detailLines {
		more = len(lines) - detailLines
		lines = lines[:detailLines]
	}
	out := strings.Join(lines, "\n")
	if len(out) > maxDetail {
		out = truncate(out, maxDetail) + "…"
	}
	if more > 0 {
		out += fmt.Sprintf("\n… %d more lines", more)
	}
	return out
}
