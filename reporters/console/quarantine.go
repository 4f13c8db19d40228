package console

import (
	"fmt"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/internal/format"
)

// Quarantine (docs/history.md#quarantine): a quarantined test's line and
// tree say so, and the summary counts the quarantined tests, says they
// fail nothing, lists each with its reason — and that it was stable in
// this run, when it was — then the advice about the quarantine list.

// maxQuarantineLines bounds the quarantined tests the summary lists; the
// report directory has them all.
const maxQuarantineLines = 20

// quarantineMark is what a quarantined test's live line ends with.
func (o Options) quarantineMark() string { return o.paint("flaky", "quarantined") }

// quarantineLine is the line under a quarantined test's header: its
// entry, and that it fails nothing.
func (p *printer) quarantineLine(t *report.Test) {
	q := t.Quarantined
	if q == nil {
		return
	}
	p.line(1, p.o.paint("flaky", "quarantined")+": "+clean(q.Reason)+p.o.paint("dim", " ("+clean(format.QuarantineEntry(q))+"); reported, never fails the run"))
}

// quarantineSummary prints the quarantined tests under the counts:
// "Quarantined: 3 (1 failed, 1 errored, not failing the run)", a line per
// test, then the advice about the quarantine list: "Suggested: quarantine
// search finds shoes: fails 6 of the last 20 runs on main".
func (p *printer) quarantineSummary(r *report.Report) {
	if q := r.Totals.Quarantined; q != nil {
		p.line(0, p.o.paint("flaky", "Quarantined:")+fmt.Sprintf(" %d (%s)", q.Tests, format.QuarantineCounts(r)))
		tests := r.QuarantinedTests()
		for _, t := range tests[:min(len(tests), maxQuarantineLines)] {
			what := clean(t.Quarantined.Reason)
			if t.Quarantined.StableInRun {
				what += p.o.paint("dim", " · stable in this run")
			}
			p.line(1, fmt.Sprintf("%s %s: %s", p.o.mark(t.Status), clean(t.Name), what))
		}
		if n := len(tests) - maxQuarantineLines; n > 0 {
			p.line(1, p.o.paint("dim", fmt.Sprintf("… and %s (see summary.json)", plural.Count(n, "more"))))
		}
	}
	for _, a := range r.QuarantineAdvice {
		p.line(0, fmt.Sprintf("%s %s: %s", p.o.paint("flaky", "Suggested:"), clean(format.Advice(a, format.TestName(r, a.Test))), clean(a.Reason)))
	}
}
