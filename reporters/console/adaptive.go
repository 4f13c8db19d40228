package console

import (
	"fmt"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
)

// Adaptive runs (docs/runs.md): a test's line says whether its verdict
// settled ("settled: pass") or is inconclusive ("? inconclusive"), its
// tree how many runs it took of how many it could, and the summary what
// stopping once settled saved.

// adaptiveLive is the live line's part for a test run adaptively: ""
// for fixed runs and for runs cut short.
func (o Options) adaptiveLive(v stability.Verdict) string {
	switch {
	case v.Inconclusive:
		return o.paint("flaky", status.InconclusiveMark+" inconclusive")
	case v.Stop == stability.StopSettledPass:
		return "settled: pass"
	case v.Stop == stability.StopSettledFail:
		return "settled: fail"
	}
	return ""
}

// adaptive prints, in a test's tree, how its adaptive runs went: "runs
// 3–30: settled after 24 runs (6 fewer than the maximum)", or "runs 2–3:
// ? inconclusive: not settled within the maximum of 3 runs; the verdict
// is the observed pass rate's".
func (p *printer) adaptive(t *report.Test) {
	a := t.Adaptive
	if a == nil {
		return
	}
	runs := fmt.Sprintf("runs %d–%d: ", a.MinRuns, a.MaxRuns)
	switch a.StopReason {
	case stability.StopSettledPass, stability.StopSettledFail:
		p.line(1, p.o.paint("dim", runs+fmt.Sprintf("settled after %s (%d fewer than the maximum)", plural.Count(t.Runs, "run"), a.RunsSaved)))
	case stability.StopMaxRuns:
		p.line(1, runs+p.o.paint("flaky", status.InconclusiveMark+" inconclusive")+
			fmt.Sprintf(": not settled within the maximum of %s; the verdict is the observed pass rate's", plural.Count(a.MaxRuns, "run")))
	}
}

// adaptiveSummary prints the run's adaptive runs under its counts: "Runs:
// 33 of at most 63 (adaptive runs; 30 saved)".
func (p *printer) adaptiveSummary(r *report.Report) {
	a := r.Totals.Adaptive
	if a == nil {
		return
	}
	p.line(0, fmt.Sprintf("Runs:  %d of at most %d (adaptive runs of %s; %d saved)", a.Runs, a.MaxRuns, plural.Count(a.Tests, "test"), a.RunsSaved))
}

// whyFailed says why a run whose tests did not fail failed (its budget
// aside): flaky tests under --fail-on-flaky, inconclusive ones under
// --fail-on-inconclusive.
func (p *printer) whyFailed(r *report.Report) {
	t := r.Totals.Counted()
	inconclusive := r.FailOnInconclusive && t.Inconclusive() > 0
	if inconclusive {
		p.line(0, p.o.paint("fail", "Inconclusive tests fail the run (--fail-on-inconclusive)."))
	}
	if !inconclusive || r.FailOnFlaky && t.Flaky > 0 {
		p.line(0, p.o.paint("fail", "Flaky tests fail the run (--fail-on-flaky)."))
	}
}
