package junit

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/jstemmer/go-junit-report/v2/junit"

	"github.com/ananke/action/reporters/internal/format"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
)

// maxEvidence bounds the evidence listed per assertion; the report files
// hold all of it.
const maxEvidence = 10

// failureText lists every failing assertion (or failing warning) with its
// position, expected and observed values and evidence, in the layout
// compilers use so that CI UIs that recognise file:line:col can link it.
func failureText(t *report.Test, failed []report.Assertion) string {
	var b strings.Builder
	for i, a := range failed {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s: %s\n", a.Source, a.Message)
		fmt.Fprintf(&b, "  assertion: %s (%s, declared at %s level)\n", a.ID, scopeText(t, a.Scope), a.Level)
		if a.Expected != "" {
			fmt.Fprintf(&b, "  expected:  %s\n", a.Expected)
		}
		if a.Observed != "" {
			fmt.Fprintf(&b, "  observed:  %s\n", a.Observed)
		}
		for j, e := range a.Evidence {
			if j == maxEvidence {
				fmt.Fprintf(&b, "  … %d more in the report\n", len(a.Evidence)-j)
				break
			}
			fmt.Fprintf(&b, "  - %s\n", evidence(e))
		}
	}
	return b.String()
}

func evidence(e report.Evidence) string {
	switch {
	case e.Call != nil:
		res := "(no result)"
		if e.Call.Result != nil {
			res = *e.Call.Result
		}
		return fmt.Sprintf("call %s %s %s → %s (+%dms): %s", e.Call.ID, e.Call.Name, e.Call.Args, res, e.Call.AtMs, e.Note)
	case e.Gap != nil:
		return fmt.Sprintf("idle %d ms from %s to %s", e.Gap.ToMs-e.Gap.FromMs, e.Gap.From, e.Gap.To)
	case e.Text != "":
		return fmt.Sprintf("%s: %q", e.Note, e.Text)
	}
	return e.Note
}

// scopeText describes a scope with the turn's user message.
func scopeText(t *report.Test, scope string) string {
	for _, turn := range t.Turns {
		if fmt.Sprintf("turn[%d]", turn.Index) == scope && turn.Type == "user" {
			return fmt.Sprintf("%s %q", scope, format.Short(turn.User, 80))
		}
	}
	if scope == "test" {
		return "whole test"
	}
	return scope
}

// errorText is an errored test's reason at its cause's position — for a
// test from a dataset without one, at its line — its detail, and the
// other checks that could not be made.
func errorText(t *report.Test) string {
	var b strings.Builder
	switch {
	case t.At != nil:
		fmt.Fprintf(&b, "%s: ", t.At)
	case t.Line > 1:
		fmt.Fprintf(&b, "%s:%d: ", t.File, t.Line)
	}
	b.WriteString(t.Reason + "\n")
	if t.Detail != "" {
		b.WriteString("\n" + t.Detail + "\n")
	}
	b.WriteString(erroredText(t))
	return b.String()
}

// erroredText lists the checks that could not be made — a script that
// crashed, an after hook that failed — but the one the test's reason tells
// of, after a blank line; "" when there are none.
func erroredText(t *report.Test) string {
	errs := format.Errored(t)
	if len(errs) == 0 {
		return ""
	}
	return "\ncould not be checked:\n" + failureText(t, errs)
}

// systemOut is the conversation, then — of a test that passed — the checks
// that could not be made, then the failing warnings, for <system-out>; nil
// when there is none of them. Neither has an element of its own in JUnit —
// a <failure> or an <error> would fail the test — and CI UIs show the
// output beside the testcase.
func systemOut(t *report.Test) *junit.Output {
	s := transcript(t)
	if n := t.NotMade(); len(n) > 0 && t.Status == status.Pass {
		if s != "" {
			s += "\n"
		}
		s += "checks not made (of severity warning, they do not fail the test):\n" + failureText(t, n)
	}
	if w := t.Warned(); len(w) > 0 {
		if s != "" {
			s += "\n"
		}
		s += "warnings (they never fail the test):\n" + failureText(t, w)
	}
	if s == "" {
		return nil
	}
	return &junit.Output{Data: clean(s)}
}

// categories is "failure categories: process, outcome" and a blank line,
// heading a failure's text; "" for a test without any.
func categories(t *report.Test) string {
	if len(t.FailureCategories) == 0 {
		return ""
	}
	return "failure categories: " + strings.Join(t.FailureCategories, ", ") + "\n\n"
}

// transcript is the conversation, for <system-out>: each user message with
// the files it carried, "turn[0] user: … + receipt.png (image/png, 2.1
// KiB)", then the tool calls and the reply.
func transcript(t *report.Test) string {
	var b strings.Builder
	for _, turn := range t.Turns {
		who := "user: " + turn.User
		if turn.Type != "user" {
			who = "(" + turn.Type + ")"
		}
		if len(turn.Attachments) > 0 {
			who += " + " + format.Attachments(turn.Attachments)
		}
		fmt.Fprintf(&b, "turn[%d] %s\n", turn.Index, who)
		for _, c := range turn.ToolCalls {
			res := "(no result)"
			if c.Result != nil {
				res = *c.Result
			}
			fmt.Fprintf(&b, "  tool %s %s → %s\n", c.Name, c.Args, res)
		}
		if turn.Text != "" {
			fmt.Fprintf(&b, "  assistant: %s\n", turn.Text)
		}
		for _, e := range turn.RunErrors {
			fmt.Fprintf(&b, "  RUN_ERROR: %s\n", e)
		}
	}
	return b.String()
}

// clean makes s a valid XML 1.0 character sequence: characters outside
// XML's Char production (ANSI escapes, other controls, invalid UTF-8)
// become visible escapes such as \x1b. encoding/xml does not do this for
// CDATA, and one ESC from an agent would make the whole file unreadable.
func clean(s string) string {
	ok := true
	for _, r := range s {
		if !xmlChar(r) {
			ok = false
			break
		}
	}
	if ok && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		if xmlChar(r) {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, "\\x%02x", r)
		}
	}
	return b.String()
}

// xmlChar is XML 1.0's Char production.
func xmlChar(r rune) bool {
	return r == 0x9 || r == 0xA || r == 0xD || (r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF)
}
