package format

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// HookName names a suite hook as the config does: "after_all[0]".
func HookName(h report.Hook) string { return fmt.Sprintf("%s[%d]", h.Phase, h.Index) }

// maxHookNames bounds the failed hooks HooksFailed names; it counts the
// rest.
const maxHookNames = 2

// HooksFailed says which suite hooks failed, for a heading or a title:
// "after_all[0] failed", "before_all[0] and after_all[0] failed",
// "after_all[0], after_all[1] and 2 more hooks failed"; "" when none did.
func HooksFailed(hooks []report.Hook) string {
	var names []string
	for _, h := range hooks {
		names = append(names, HookName(h))
	}
	switch n := len(names); {
	case n == 0:
		return ""
	case n == 1:
		return names[0] + " failed"
	case n <= maxHookNames:
		return strings.Join(names[:n-1], ", ") + " and " + names[n-1] + " failed"
	default:
		more := "hooks"
		if n-maxHookNames == 1 {
			more = "hook"
		}
		return fmt.Sprintf("%s and %d more %s failed", strings.Join(names[:maxHookNames], ", "), n-maxHookNames, more)
	}
}

// Attachment describes a file a message carried:
// "receipt.png (image/png, 2.1 KiB)", or for a file sent by its URI
// "chart.png (image/png, https://…/chart.png)". Its name and type come
// from the test file or the agent: callers escape them for where they
// land.
func Attachment(a trace.Attachment) string {
	mime := a.MIME
	if mime == "" {
		mime = "unknown type"
	}
	if a.URI != "" {
		return fmt.Sprintf("%s (%s, %s)", a.Name, mime, a.URI)
	}
	return fmt.Sprintf("%s (%s, %s)", a.Name, mime, Bytes(int64(a.Bytes)))
}

// Attachments lists a turn's attachments, comma-separated; "" for none.
func Attachments(as []trace.Attachment) string {
	parts := make([]string, len(as))
	for i, a := range as {
		parts[i] = Attachment(a)
	}
	return strings.Join(parts, ", ")
}

// Errored returns the checks of t's shown attempt that could not be made
// (status error: a script that crashed, a judge without a verdict, an
// after hook that failed), leaving out the one t's reason already tells
// of, so that an errored test does not say the same thing twice. A failed
// test's reason names none of them: reporters list them all beside its
// failures, or a cleanup that failed would go unseen.
func Errored(t *report.Test) []report.Assertion {
	var out []report.Assertion
	for _, a := range t.Assertions {
		if a.Status != status.Error {
			continue
		}
		if t.At != nil && *t.At == a.Source && strings.Contains(t.Reason, a.Message) {
			continue
		}
		out = append(out, a)
	}
	return out
}

// TestLocation is where a test is declared, for a link or an annotation:
// its file, at the case's line for a test from a dataset; line 1 for a
// test file.
func TestLocation(t *report.Test) report.Location {
	return report.Location{File: t.File, Line: max(t.Line, 1)}
}

// EvidenceLines lists an assertion's evidence, one item a line: a call
// with its arguments, result, time and note; an idle gap; a quoted text
// with its note; or the note alone.
func EvidenceLines(a report.Assertion) []string {
	var lines []string
	for _, e := range a.Evidence {
		switch {
		case e.Call != nil:
			res := "(no result)"
			if e.Call.Result != nil {
				res = *e.Call.Result
			}
			lines = append(lines, fmt.Sprintf("%s %s → %s (+%dms): %s", e.Call.Name, e.Call.Args, res, e.Call.AtMs, e.Note))
		case e.Gap != nil:
			lines = append(lines, fmt.Sprintf("idle %d ms: %s → %s", e.Gap.ToMs-e.Gap.FromMs, e.Gap.From, e.Gap.To))
		case e.Text != "":
			lines = append(lines, fmt.Sprintf("%s: %q", e.Note, e.Text))
		default:
			lines = append(lines, e.Note)
		}
	}
	return lines
}
