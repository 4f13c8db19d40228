package console

import (
	"fmt"
	"io"
	"strings"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/format"
)

// Write prints a tree per failed, errored or flaky test, per test with
// failing warnings and per test with a check that could not be made (every
// test with -v), and the summary.
func Write(w io.Writer, r *report.Report, opts Options) error {
	p := &printer{w: w, o: opts, hookErrors: map[string]bool{}, usage: format.ShowsUsage(r), history: r.History}
	for _, h := range r.FailedHooks() {
		p.hookErrors[h.Message] = true
	}
	for i := range r.Tests {
		t := &r.Tests[i]
		if t.Status.Failed() || t.Flaky || t.Inconclusive || len(t.Warned()) > 0 || len(t.NotMade()) > 0 || opts.Verbose || opts.Transcript || len(t.Checkpoints) > 0 {
			p.test(t)
		}
		if len(t.Warnings) > 0 && !opts.Verbose {
			p.warningCounts(t)
		}
	}
	p.summary(r)
	p.variants(r)
	return p.err
}

type printer struct {
	w   io.Writer
	o   Options
	err error
	// hookErrors are the messages of the failed suite hooks: the summary
	// prints their stderr once, not under every test they errored.
	hookErrors map[string]bool
	// usage: some test's agent reported usage, so every test says what
	// its agent used (usage.go).
	usage bool
	// history is the base branch's history the report was read against
	// (blame.go); nil without one.
	history *report.History
}

// out prints one line; the first write error is kept and ends the output.
func (p *printer) out(s string) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, "%s\n", s)
	}
}

func (p *printer) line(indent int, s string) { p.out(pad(indent) + s) }

func pad(indent int) string { return strings.Repeat("  ", indent) }

func (p *printer) test(t *report.Test) {
	p.header(t)
	if p.o.Transcript && !p.o.Verbose {
		// The conversation, then every check made of it.
		p.transcript(t)
		for _, a := range t.Assertions {
			p.assertion(pad(1), pad(2), a, failedIn(t, a))
		}
		return
	}
	if len(t.Checkpoints) > 0 {
		p.checkpoints(t)
	}
	if p.o.Verbose {
		if t.TraceID != "" {
			// Where the agent's own spans of the attempt are, in a tracing
			// backend (docs/opentelemetry.md#trace-context).
			p.line(1, p.o.paint("dim", "trace "+t.TraceID))
		}
		p.tree(t)
		for _, w := range t.Warnings {
			p.line(1, p.o.paint("error", clean(fmt.Sprintf("warning: %s: %s [%s]", w.Where(), w.Message, w.Rule))))
		}
		return
	}
	scope := p.listed(t, t.Failed(), "")
	if t.Status == status.Pass {
		// A passing test has no failures; its flaky assertions come first.
		p.wobbly(t)
		scope = "" // wobbly named the turns of other attempts
	}
	// Checks that could not be made (a judge whose model failed, a crashed
	// script, a failed after hook) beside the failures, unless the reason
	// above says it already.
	scope = p.listed(t, format.Errored(t), scope)
	p.listed(t, t.Warned(), scope)
}

// header prints the test's status and name, why it errored, failed or was
// skipped, how its runs went and, when it failed, the kinds of failure.
// A passing test is FLAKY when some attempt failed, else WARN when a
// warning failed or a check of severity warning could not be made: either
// way it passed, and the tree below says why it is shown.
func (p *printer) header(t *report.Test) {
	p.line(0, "")
	head := map[status.Status]string{status.Fail: "FAIL", status.Error: "ERROR", status.Pass: "PASS", status.Skipped: "SKIP"}[t.Status]
	color := string(t.Status)
	switch {
	case t.Status == status.Pass && t.Flaky:
		head, color = "FLAKY", "flaky"
	case t.Status == status.Pass && t.Inconclusive:
		head, color = "INCONCLUSIVE", "flaky"
	case t.Status == status.Pass && (len(t.Warned()) > 0 || len(t.NotMade()) > 0):
		head, color = "WARN", string(status.Warn)
	}
	where := t.File
	if t.Line > 1 {
		where = fmt.Sprintf("%s:%d", t.File, t.Line) // a dataset's case
	}
	title := p.o.paint("bold", clean(t.Name))
	if t.Variant != "" {
		title += " [" + clean(t.Variant) + "]" // docs/variants.md
	}
	p.line(0, fmt.Sprintf("%s %s  %s", p.o.paint(color, head), title, clean(where)))
	if t.Reason != "" {
		where := ""
		if t.At != nil {
			where = t.At.String() + ": "
		}
		p.line(1, clean(where+t.Reason))
	}
	if !p.hookErrors[t.Reason] {
		for _, l := range nonEmptyLines(t.Detail) {
			p.line(2, p.o.paint("dim", clean(l)))
		}
	}
	p.quarantineLine(t)
	p.historyLine(t)
	p.runs(t)
	p.testUsage(t)
	if t.Status == status.Fail && len(t.FailureCategories) > 0 {
		p.line(1, p.o.paint("dim", "what went wrong:")+" "+clean(whatWentWrong(t.FailureCategories)))
	}
}

// listed prints assertions of the shown attempt — its failures, or its
// failing warnings — under their turn, which it names whenever it differs
// from the last one printed (lastScope: "" for none). It returns the last
// scope, so that a test's warnings continue its failures' last turn.
func (p *printer) listed(t *report.Test, as []report.Assertion, lastScope string) string {
	label := ""
	if t.Repeated() && t.Shown > 0 {
		label = t.Attempts[t.Shown-1].Label()
	}
	for _, a := range as {
		if a.Scope != lastScope {
			lastScope = a.Scope
			p.scope(t, a.Scope, label)
		}
		p.assertion(pad(2), pad(3), a, failedIn(t, a))
	}
	return lastScope
}

// scope prints the turn (with the user's message) or "whole test", and for
// a test run several times the attempt the assertions below come from.
func (p *printer) scope(t *report.Test, scope, attempt string) {
	head := "whole test"
	for _, turn := range t.Turns {
		if fmt.Sprintf("turn[%d]", turn.Index) == scope {
			msg := "(agui:connect)"
			if turn.Type != "agui:connect" {
				msg = quote(turn.User, 70) + attachments(&turn)
			}
			head = fmt.Sprintf("%s %s", scope, clean(msg))
			break
		}
	}
	if attempt != "" {
		head += p.o.paint("dim", " ("+attempt+")")
	}
	p.line(1, head)
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
	if t.Flaky > 0 {
		parts = append(parts, p.o.paint("flaky", fmt.Sprintf("%d flaky", t.Flaky)))
	}
	if n := t.Inconclusive(); n > 0 {
		parts = append(parts, p.o.paint("flaky", fmt.Sprintf("%d inconclusive", n)))
	}
	if t.Warned > 0 {
		// Counted apart from the statuses: a test with warnings passed (or
		// failed) all the same.
		parts = append(parts, p.o.paint(string(status.Warn), fmt.Sprintf("%d with warnings", t.Warned)))
	}
	if t.NotMade > 0 {
		// Checks, not tests: a warning judge whose model failed leaves its
		// test passing, and this is where the run says it was not made.
		parts = append(parts, p.o.paint(string(status.Error), plural.Count(t.NotMade, "check")+" not made"))
	}
	p.line(0, fmt.Sprintf("Tests: %s (pass rate %.1f%%)", strings.Join(parts, ", "), t.PassRate))
	p.snapshotSummary(r)
	p.adaptiveSummary(r)
	p.historySummary(r)
	p.quarantineSummary(r)
	for _, w := range r.Warnings {
		// Requests to Ananke's backend no test took: no test failed for
		// them, and none shows them.
		p.line(0, p.o.paint(string(status.Warn), clean(fmt.Sprintf("%s %s", status.Warn.Symbol(), w.Message))))
	}
	for _, h := range r.FailedHooks() {
		// A failed before_all or after_all hook makes the run an error
		// even when every test passed.
		p.line(0, p.o.paint("error", clean(fmt.Sprintf("%s %s:%d: %s", status.Error.Symbol(), h.Source.File, h.Source.Line, h.Message))))
		for _, l := range nonEmptyLines(h.Detail) {
			p.line(1, p.o.paint("dim", clean(l)))
		}
	}
	if a := agentLine(r); a != "" {
		p.line(0, a)
	}
	if m := ModelLine(t.Model); m != "" {
		p.line(0, m)
	}
	// The run's budget under what was spent: a bound exceeded fails the
	// run with no test failed.
	over := p.runBudget(r)
	if r.Status == status.Fail && t.Counted().Failed == 0 && !over {
		// No test failed, yet the run did: say why, or the red exit code
		// next to "0 failed" looks like a bug.
		p.whyFailed(r)
	}
	p.line(0, fmt.Sprintf("Time:  %s", format.Duration(r.DurationMs)))
	p.attacks(r)
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

// runBudget prints a line for each bound of the config's budget — kept,
// exceeded (the run fails) or not checked (usage or cost unknown: never
// a pass) — and reports whether the run exceeded one.
func (p *printer) runBudget(r *report.Report) bool {
	if r.Budget == nil {
		return false
	}
	for _, l := range r.Budget.Limits {
		switch l.Status {
		case status.Fail:
			p.line(0, p.o.paint("fail", clean(status.Fail.Symbol()+" "+l.Message)))
		case status.Skip:
			p.line(0, p.o.paint(string(status.Warn), clean(status.Warn.Symbol()+" "+l.Message)))
		default:
			p.line(0, p.o.paint("dim", clean(status.Pass.Symbol()+" "+l.Message)))
		}
	}
	return r.Budget.Exceeded
}

// warningCounts says, without -v, how many warnings the test has: its
// protocol warnings, and apart from them its calls to a tool double the
// test gave no answer and what Ananke's backend served after its turn.
func (p *printer) warningCounts(t *report.Test) {
	doubles, late := 0, 0
	for _, w := range t.Warnings {
		switch w.Rule {
		case "doubles":
			doubles++
		case "backend":
			late++
		}
	}
	if n := len(t.Warnings) - doubles - late; n > 0 {
		p.line(1, p.o.paint("dim", fmt.Sprintf("%s: %d protocol warning(s); run with -v to see them", clean(t.Name), n)))
	}
	if doubles > 0 {
		p.line(1, p.o.paint(string(status.Warn), fmt.Sprintf("%s: %s to a tool double with no answer for this test; run with -v to see them", clean(t.Name), plural.Count(doubles, "call"))))
	}
	if late > 0 {
		p.line(1, p.o.paint(string(status.Warn), fmt.Sprintf("%s: %s to the tool doubles or the model gateway after the turn ended, left out of the trace; run with -v to see them", clean(t.Name), plural.Count(late, "request"))))
	}
}
