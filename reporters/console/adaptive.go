package console

import (
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/format"
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
	runs := format.AdaptiveRange(t)
	if settled := format.AdaptiveSettled(t); settled != "" {
		p.line(1, p.o.paint("dim", runs+settled))
	} else if why := format.AdaptiveUnsettled(t); why != "" {
		p.line(1, runs+p.o.paint("flaky", status.InconclusiveMark+" inconclusive")+why)
	}
}

// adaptiveSummary prints the run's adaptive runs under its counts: "Runs:
// 33 of at most 63 (adaptive runs; 30 saved)".
func (p *printer) adaptiveSummary(r *report.Report) {
	if a := format.AdaptiveTotals(r); a != "" {
		p.line(0, "Runs:  "+a)
	}
}

// whyFailed says why a run whose tests did not fail failed (its budget
// aside): flaky tests under --fail-on-flaky, inconclusive ones under
// --fail-on-inconclusive. The attacks' gate says it in the Attacks
// section.
func (p *printer) whyFailed(r *report.Report) {
	t := r.Totals.Counted()
	inconclusive := r.FailOnInconclusive && t.Inconclusive() > 0
	if inconclusive {
		p.line(0, p.o.paint("fail", "Inconclusive tests fail the run (--fail-on-inconclusive)."))
	}
	if !inconclusive && !attacksFailed(r) || r.FailOnFlaky && t.Flaky > 0 {
		p.line(0, p.o.paint("fail", "Flaky tests fail the run (--fail-on-flaky)."))
	}
}
