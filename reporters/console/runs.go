package console

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/format"
)

// runs prints, for a test run several times, its pass rate with its
// interval (when it failed, the reason above gives the rate, and the line
// the interval), with -v its pass^k, its attempts, and why the attempts not
// shown errored — an error leaves no failed assertion to show.
func (p *printer) runs(t *report.Test) {
	if !t.Repeated() {
		return
	}
	switch {
	case t.Status == status.Pass:
		p.line(1, fmt.Sprintf("%d of %s passed (%s); min_pass_rate %s",
			t.PassedRuns, plural.Count(t.Runs, "run"), format.Rate(t.PassRate, t.PassRateCI), stability.FormatPercent(t.MinPassRate)))
	case t.PassRateCI != nil:
		// The reason above gives the rate; the interval says how sure it is.
		p.line(1, "pass rate "+format.Rate(t.PassRate, t.PassRateCI))
	}
	if p.o.Verbose && t.PassK != nil && t.PassRateCI != nil {
		p.line(1, p.o.paint("dim", fmt.Sprintf("%s: the chance that %d runs in a row all pass", t.PassK.String(t.PassRateCI.Level), t.PassK.K)))
	}
	p.adaptive(t)
	marks := make([]string, len(t.Attempts))
	for i, a := range t.Attempts {
		marks[i] = a.Label() + " " + p.o.mark(a.Status)
	}
	p.line(1, p.o.paint("dim", "attempts:")+" "+strings.Join(marks, ", "))
	if p.o.Verbose {
		// Each attempt's trace, where its spans are (docs/opentelemetry.md#trace-context).
		for _, a := range t.Attempts {
			if a.TraceID != "" {
				p.line(2, p.o.paint("dim", a.Label()+": trace "+a.TraceID))
			}
		}
	}
	for _, a := range t.Others() {
		if a.Status == status.Error && a.Reason != "" {
			p.line(2, clean(a.Label()+": "+a.Reason))
		}
	}
}

// failedIn is " (failed in 2 of 3 runs, 95% CI 21–94%)" for an assertion of a test run
// several times, so the assertion that wobbles stands out; empty for a
// test run once. With retries there are more attempts than runs, and the
// count is of attempts.
func failedIn(t *report.Test, a report.Assertion) string {
	if !t.Repeated() || a.FailedRuns == 0 {
		return ""
	}
	if ci := a.FailureRateCI; ci != nil {
		return " (" + t.FailedIn(a.FailedRuns) + ", " + ci.String() + ")"
	}
	return " (" + t.FailedIn(a.FailedRuns) + ")"
}

// level is the confidence level of the live lines' intervals.
func (o Options) level() float64 {
	if o.Confidence == 0 {
		return spec.DefaultConfidence
	}
	return o.Confidence
}

// wobbly prints, for a flaky test that passed, each assertion that failed
// in some attempts as it failed in the first of them: the passing attempt
// shown has nothing to say about it.
func (p *printer) wobbly(t *report.Test) {
	last := ""
	for _, a := range t.Wobbly() {
		at, f, ok := t.FirstFailure(a.ID)
		if !ok {
			continue
		}
		if key := a.Scope + " " + at.Label(); key != last {
			last = key
			p.scope(t, a.Scope, at.Label())
		}
		p.assertion(pad(2), pad(3), f, failedIn(t, a))
	}
}

// firstFailure prints, under an assertion that passed in the shown attempt
// but failed in others, how it failed the first time.
func (p *printer) firstFailure(prefix string, t *report.Test, a report.Assertion) {
	at, f, ok := t.FirstFailure(a.ID)
	if !ok {
		return
	}
	p.out(fmt.Sprintf("%s%s %s", prefix, p.o.paint("dim", "failed in "+at.Label()+":"), clean(f.Message)))
	p.details(prefix, f)
}
