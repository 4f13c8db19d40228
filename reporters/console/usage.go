package console

import (
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/format"
)

// What the agent used (docs/cost.md). A run whose agent reported no usage
// shows nothing about it; in a run where some test's agent did, each test
// (and with -v each turn) says what it used, or "usage unknown", and the
// summary has an "Agent:" line beside the judges' "Model:" line.

// liveUsage is the live line's part on what the test's agent used, ""
// when it reported nothing: the live line cannot know yet whether another
// test of the run will, so it never says "usage unknown".
func liveUsage(r *engine.TestResult) string {
	s, per := report.AttemptsUsage(r.Attempts)
	if s == nil {
		return ""
	}
	noun := "run"
	if len(r.Attempts) != r.Verdict.Runs {
		noun = "attempt"
	}
	return format.UsageOf(s, per, noun)
}

// testUsage prints, under a test's header, what its agent used: "usage:
// 5k tokens · $0.0036", or "usage unknown". Nothing for a test that was
// skipped (it never ran) or in a run without usage.
func (p *printer) testUsage(t *report.Test) {
	if !p.usage || t.Status == status.Skipped {
		return
	}
	if t.Usage == nil {
		p.line(1, p.o.paint("dim", "usage unknown"))
		return
	}
	p.line(1, p.o.paint("dim", "usage:")+" "+format.Usage(t))
}

// turnUsage is a turn's leaf in the -v tree: "usage: 1.3k tokens ·
// $0.00023" or "usage unknown"; "" in a run without usage.
func (p *printer) turnUsage(turn *report.Turn) string {
	switch {
	case !p.usage:
		return ""
	case turn.Usage == nil:
		return p.o.paint("dim", "usage unknown")
	}
	return p.o.paint("dim", "usage:") + " " + turn.Usage.Summary()
}

// agentLine is the summary's line on what the agent used over the run,
// "" in a run without usage: "Agent: 10.4k tokens · $0.026".
func agentLine(r *report.Report) string {
	if !format.ShowsUsage(r) {
		return ""
	}
	return "Agent: " + format.Total(r)
}
