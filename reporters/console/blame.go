package console

import (
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/internal/format"
)

// Blame (docs/history.md#blame-in-the-pull-request): read against the
// base branch's history, a failing test's tree says the history's verdict
// on it, with its newest runs there as marks, and the summary counts the
// failures by verdict.

// trendRuns is how many of the newest runs a failing test's trend shows.
const trendRuns = 20

// historyLine is the line under a failing test's header: "history: known
// flaky on main (fails 4 of the last 20); p = 0.24, within noise
// ✓✓✗✓…", in the colour of a failure when it counts as new.
func (p *printer) historyLine(t *report.Test) {
	words := format.Blame(p.history, t.History)
	if words == "" {
		return
	}
	style := "flaky"
	if t.CountsAsNew() {
		style = "fail"
	}
	seq := t.History.Sequence
	cut := ""
	if len(seq) > trendRuns {
		seq, cut = seq[len(seq)-trendRuns:], "…"
	}
	p.line(1, p.o.paint("dim", "history: ")+p.o.paint(style, clean(words))+"  "+p.o.paint("dim", cut+format.Trend(seq)))
}

// historySummary is the line under the counts: "History (last 20 runs on
// main): 1 new failure, 1 known flaky on main".
func (p *printer) historySummary(r *report.Report) {
	c := format.BlameCounts(r)
	if c == "" {
		return
	}
	p.line(0, p.o.paint("dim", clean("History (last "+plural.Count(r.History.Runs, "run")+" on "+r.History.Base+"):"))+" "+clean(c))
}
