package markdown

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/format"
)

// maxHooks bounds the failed suite hooks listed: a run has a few at most,
// and the report directory holds them all.
const maxHooks = 5

// hooks is the block under the totals that lists each failed before_all
// or after_all hook — its name at its line in the config, its message and,
// withOutput, its stderr in a closed block — or "" when none failed. A
// failed after_all hook makes the run an error even when every test
// passed, and no test's block would say why. It ends with a blank line.
func hooks(r *report.Report, o Options, withOutput bool) string {
	failed := r.FailedHooks()
	var b strings.Builder
	for i, h := range failed {
		if i == maxHooks {
			fmt.Fprintf(&b, "_… %d more failed hooks; see %s._\n\n", len(failed)-i, o.Artifact)
			break
		}
		name := format.HookName(h)
		// The message starts with the hook's name, which leads the line.
		msg := strings.TrimPrefix(h.Message, name+": ")
		if msg == "" {
			msg = "failed"
		}
		line := "! " + code(name, false)
		if where := location(h.Source, o); where != "" {
			line += " at " + where
		}
		b.WriteString(labelled(line, inline(format.Short(msg, maxReason))) + "\n\n")
		if withOutput && strings.TrimSpace(h.Detail) != "" {
			fmt.Fprintf(&b, "<details>\n<summary>stderr of %s</summary>\n\n%s\n</details>\n\n", html(name), fence(detail(h.Detail)))
		}
	}
	return b.String()
}

// fitHooks is the hooks block that fits in the budget beside used bytes:
// with the hooks' output, else without it, else nothing (the heading still
// names the hooks that failed).
func fitHooks(r *report.Report, o Options, used int) string {
	for _, withOutput := range []bool{true, false} {
		if h := hooks(r, o, withOutput); o.Budget <= 0 || used+len(h) <= o.Budget {
			return h
		}
	}
	return ""
}

// hookError reports a test that errored because a suite hook failed (a
// before_all hook: then no test ran): its reason is the hook's message, at
// the hook's line.
func hookError(r *report.Report, t *report.Test) bool {
	if t.Status != status.Error || t.At == nil {
		return false
	}
	for _, h := range r.FailedHooks() {
		if h.Message == t.Reason && h.Source == *t.At {
			return true
		}
	}
	return false
}
