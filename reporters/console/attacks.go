package console

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/format"
)

// Attack runs (docs/attacks.md): a line per attack run as it finishes, and
// after the summary an Attacks section — the totals, the gate's verdict,
// a line per test and channel site, the worst runs with where their
// payload was planted and what the agent did, and the tests not attacked.

// Caps of the Attacks section without -v; summary.json has every run.
const (
	// maxAttackRuns bounds the runs listed: those that succeeded, errored
	// or broke the test's own assertions, the worst first.
	maxAttackRuns = 5
	// maxAttackLines bounds the groups and the tests not attacked listed.
	maxAttackLines = 20
	// maxExcerpt bounds an evidence line's excerpt, in characters.
	maxExcerpt = 160
)

// AttackFinished prints an attack run's line as it finishes, above the
// progress line: "✗ weather in Paris · tool_result get_forecast ·
// tool-plain · succeeded · utility pass". The progress line counts tests,
// not attack runs.
func (l *Live) AttackFinished(run report.AttackRun) {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.attackLine(&run) + "\n"
	if l.progress() {
		out = l.erase() + out + l.status()
	}
	l.write(out)
}

// attackLine is a finished attack run's line.
func (l *Live) attackLine(run *report.AttackRun) string {
	st := report.AttackStatus(run.Outcome)
	parts := []string{fmt.Sprintf("%s %s", l.opts.mark(st), clean(run.Name)), clean(format.AttackSite(run.Channel, run.Site)), clean(run.Attack),
		l.opts.paint(string(st), clean(format.AttackOutcome(run)))}
	if u := format.AttackUtility(run); u != "" {
		parts = append(parts, u)
	}
	return strings.Join(parts, " · ")
}

// attacks prints the Attacks section, when attacks ran.
func (p *printer) attacks(r *report.Report) {
	a := r.Attacks
	if a == nil {
		return
	}
	p.line(0, "")
	p.line(0, fmt.Sprintf("%s %s (%s)", p.o.paint("bold", "Attacks:"), clean(format.AttackTotals(a)), format.Duration(a.DurationMs)))
	if g := format.AttackGate(a); g != "" {
		switch a.Status {
		case status.Pass:
			p.line(0, p.o.paint("dim", status.Pass.Symbol()+" "+clean(g)))
		case status.Fail:
			p.line(0, p.o.paint("fail", status.Fail.Symbol()+" "+clean(g)+": the run fails"))
		default:
			p.line(0, p.o.paint(string(a.Status), a.Status.Symbol()+" "+clean(g)))
		}
	}
	groups := a.Groups
	if !p.o.Verbose {
		groups = groups[:min(len(groups), maxAttackLines)]
	}
	for _, g := range groups {
		counts := clean(format.AttackCounts(g.Totals))
		if g.Totals.Succeeded > 0 {
			counts = p.o.paint("fail", counts)
		}
		p.line(1, fmt.Sprintf("%s · %s: %s", clean(g.Name), clean(format.AttackSite(g.Channel, g.Site)), counts))
	}
	if n := len(a.Groups) - len(groups); n > 0 {
		p.line(1, p.o.paint("dim", fmt.Sprintf("… and %s (-v shows them all)", plural.Count(n, "more group"))))
	}
	p.attackRuns(a)
	for i, n := range a.NotAttacked {
		if i == maxAttackLines && !p.o.Verbose {
			p.line(1, p.o.paint("dim", fmt.Sprintf("… and %s not attacked (see summary.json)", plural.Count(len(a.NotAttacked)-i, "more test"))))
			break
		}
		p.line(1, p.o.paint("dim", fmt.Sprintf("not attacked: %s: %s", clean(n.Name), clean(n.Reason))))
	}
}

// attackRuns lists the worst runs — those that succeeded, errored or
// broke the test's own assertions, at most maxAttackRuns — or with -v
// every run, each with its evidence.
func (p *printer) attackRuns(a *report.Attacks) {
	var worst []*report.AttackRun
	for i := range a.Runs {
		run := &a.Runs[i]
		if p.o.Verbose || run.Outcome == report.AttackSucceeded || run.Outcome == report.AttackError ||
			run.Outcome == report.AttackResisted && run.Utility != status.Pass {
			worst = append(worst, run)
		}
	}
	shown := worst
	if !p.o.Verbose {
		shown = worst[:min(len(worst), maxAttackRuns)]
	}
	for _, run := range shown {
		p.attackRun(run)
	}
	if n := len(worst) - len(shown); n > 0 {
		p.line(1, p.o.paint("dim", fmt.Sprintf("… and %s (-v shows every run; summary.json has them)", plural.Count(n, "more attack run"))))
	}
}

// attackRun prints one run: its line, where the payload was planted and
// what the attack is, each piece of evidence and the test's own
// assertions that failed under attack.
func (p *printer) attackRun(run *report.AttackRun) {
	st := report.AttackStatus(run.Outcome)
	head := fmt.Sprintf("%s %s · %s · %s", p.o.mark(st), clean(format.AttackName(run)), clean(run.Name), p.o.paint(string(st), clean(format.AttackOutcome(run))))
	if u := format.AttackUtility(run); u != "" {
		if run.Utility != status.Pass {
			u = p.o.paint(string(run.Utility), u)
		}
		head += " · " + u
	}
	p.line(1, head)
	about := format.AttackAbout(run)
	if run.PlantedAt != nil {
		about = "planted at " + where(*run.PlantedAt) + " · " + about
	}
	p.line(2, p.o.paint("dim", clean(about)))
	for _, e := range run.Evidence {
		p.line(2, clean(format.Evidence(e, maxExcerpt)))
	}
	for _, f := range run.UtilityFailures {
		p.line(2, p.o.paint("dim", "under attack: ")+clean(f))
	}
}

// where is "file:line", or the file alone without a line.
func where(l report.Location) string {
	if l.Line == 0 {
		return l.File
	}
	return fmt.Sprintf("%s:%d", l.File, l.Line)
}

// attacksFailed reports whether the attacks' gate failed the run.
func attacksFailed(r *report.Report) bool { return r.Attacks != nil && r.Attacks.Status == status.Fail }
