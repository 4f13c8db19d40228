package markdown

import (
	"fmt"
	"strings"

	"github.com/ananke/action/reporters/internal/format"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
)

// Caps on what one block lists of a repeated test's attempts: a test run
// fifty times must not outweigh fifty tests under the budget.
const (
	// maxAttempts bounds the attempts named on the attempts line.
	maxAttempts = 20
	// maxReasons bounds the attempts listed with their own reason.
	maxReasons = 5
)

// attempts writes a repeated test's attempts and their outcomes on one
// line, "Attempts: run 1 ✗ · run 1 retry 1 ✗ · run 2 ✓", naming the one
// whose assertions are listed; its pass^k, "pass^2 25% (95% CI 1–82%): the
// chance that 2 runs in a row all pass"; then each attempt that did not
// pass with a reason of its own: of a test that failed because its runs errored, those
// errors are the whole story.
func attempts(b *strings.Builder, t *report.Test, o Options) {
	parts := make([]string, 0, min(len(t.Attempts), maxAttempts+1))
	for i, a := range t.Attempts {
		if i == maxAttempts {
			parts = append(parts, fmt.Sprintf("… %d more", len(t.Attempts)-i))
			break
		}
		parts = append(parts, a.Label()+" "+a.Status.Symbol())
	}
	line := "Attempts: " + strings.Join(parts, " · ")
	if len(t.Failed()) > 0 && t.Shown > 0 && t.Shown <= len(t.Attempts) {
		line += " (failed assertions below: " + t.Attempts[t.Shown-1].Label() + ")"
	}
	b.WriteString(line + "\n\n")
	if t.PassK != nil && t.PassRateCI != nil {
		fmt.Fprintf(b, "%s: the chance that %d runs in a row all pass\n\n", t.PassK.String(t.PassRateCI.Level), t.PassK.K)
	}
	var why []report.Attempt
	for _, a := range t.Attempts {
		if a.Status != status.Pass && a.Reason != "" && a.Reason != t.Reason {
			why = append(why, a)
		}
	}
	for i, a := range why {
		if i == maxReasons {
			fmt.Fprintf(b, "- … %d more; see %s.\n", len(why)-i, o.Artifact)
			break
		}
		fmt.Fprintf(b, "- %s %s: %s\n", a.Status.Symbol(), a.Label(), inline(format.Short(a.Reason, maxReason)))
	}
	if len(why) > 0 {
		b.WriteString("\n")
	}
}

// wobbles lists the assertions that failed in some attempts but not in the
// shown one — all there is to see of a flaky test that passed — each with
// the message and evidence of the first attempt it failed in.
func wobbles(b *strings.Builder, t *report.Test, o Options) {
	var wobbly []report.Assertion
	for _, a := range t.Wobbly() {
		if a.Status != status.Fail { // a failure of the shown attempt is listed already
			wobbly = append(wobbly, a)
		}
	}
	grouped(b, t, wobbly, "flaky assertions", o, func(a report.Assertion) {
		runs, shown := format.FailedIn(t, a, a.FailedRuns), a
		if at, f, ok := t.FirstFailure(a.ID); ok {
			runs += ", first in " + at.Label()
			shown = f
		}
		assertion(b, shown, o, "⚠", runs)
	})
}

// grouped writes up to maxFailures assertions with write, with a line per
// scope (the turn and the user's message, or the whole test) whenever it
// changes, and says how many more there are, naming them what.
func grouped(b *strings.Builder, t *report.Test, as []report.Assertion, what string, o Options, write func(report.Assertion)) {
	lastScope := ""
	for i, a := range as {
		if i == maxFailures {
			fmt.Fprintf(b, "_… %d more %s; see %s._\n\n", len(as)-i, what, o.Artifact)
			break
		}
		if i == 0 || a.Scope != lastScope {
			lastScope = a.Scope
			b.WriteString(scope(t, a.Scope) + "\n\n")
		}
		write(a)
	}
}
