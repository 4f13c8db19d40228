package dryrun

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
)

// Previous is a report a plan estimates the run's usage from: each test's
// mean tokens and cost per attempt there, times the runs planned.
type Previous struct {
	Report *report.Report
	// From names it in the plan: its directory, or the run it came from.
	From string
}

// estimate is one test's estimated usage: per attempt in the previous
// report, and for the runs planned; why says why there is none.
type estimate struct {
	runs              int
	perTokens, perUSD *float64
	why               string
}

// known reports an estimate with a figure.
func (e estimate) known() bool { return e.perTokens != nil || e.perUSD != nil }

// estimates are the estimates of the tests that will run, by id, from
// the previous report's tests (the first with an id, should one repeat).
func (pr *Previous) estimates(tests []*spec.Test, runs func(*spec.Test) int) map[string]estimate {
	prev := map[string]*report.Test{}
	for i := range pr.Report.Tests {
		t := &pr.Report.Tests[i]
		if _, ok := prev[t.ID]; !ok {
			prev[t.ID] = t
		}
	}
	out := map[string]estimate{}
	for _, t := range tests {
		if t.Skip != "" {
			continue
		}
		e := estimate{runs: runs(t)}
		p, ok := prev[t.ID]
		switch {
		case !ok:
			e.why = "not in the previous report"
		case p.Status == status.Skipped:
			e.why = "skipped in the previous report"
		case p.PerAttempt == nil || p.PerAttempt.MeanTokens == nil && p.PerAttempt.MeanCostUSD == nil:
			e.why = "usage unknown in the previous report"
		default:
			e.perTokens, e.perUSD = p.PerAttempt.MeanTokens, p.PerAttempt.MeanCostUSD
		}
		out[t.ID] = e
	}
	return out
}

// line is a test's estimate: "2.5k tokens · $0.025 (3 runs × 830 tokens
// · $0.0083)", "2.5k tokens, cost unknown (3 runs × 830 tokens)", "none
// (usage unknown in the previous report)".
func (e estimate) line() string {
	if !e.known() {
		return "none (" + e.why + ")"
	}
	var total, per []string
	if e.perTokens != nil {
		total = append(total, tokens(*e.perTokens*float64(e.runs))+" tokens")
		per = append(per, tokens(*e.perTokens)+" tokens")
	}
	if e.perUSD != nil {
		total = append(total, cost.FormatUSD(*e.perUSD*float64(e.runs)))
		per = append(per, cost.FormatUSD(*e.perUSD))
	}
	s := strings.Join(total, " · ")
	switch {
	case e.perTokens == nil:
		s += ", tokens unknown"
	case e.perUSD == nil:
		s += ", cost unknown"
	}
	return fmt.Sprintf("%s (%s × %s)", s, plural.Count(e.runs, "run"), strings.Join(per, " · "))
}

// tokens shows a number of tokens, rounded.
func tokens(n float64) string { return cost.FormatTokens(int64(n + 0.5)) }

// estimateTotal prints the sum of the estimates and names the tests that
// have none.
func (p *printer) estimateTotal(pr *Previous, tests []*spec.Test, est map[string]estimate) {
	var sumTokens, sumUSD float64
	var withTokens, withUSD, with int
	var none []string
	for _, t := range tests {
		e, ok := est[t.ID]
		switch {
		case !ok:
			continue
		case !e.known():
			none = append(none, fmt.Sprintf("%s (%s)", t.Name.Value, e.why))
			continue
		}
		with++
		if e.perTokens != nil {
			sumTokens += *e.perTokens * float64(e.runs)
			withTokens++
		}
		if e.perUSD != nil {
			sumUSD += *e.perUSD * float64(e.runs)
			withUSD++
		}
	}
	p.line(0, "")
	p.line(0, "Estimate from %s: each test's mean tokens and cost per attempt there, times its runs (retries, which only a failure starts, are not counted).", pr.From)
	var parts []string
	if withTokens > 0 {
		parts = append(parts, tokens(sumTokens)+" tokens"+over(withTokens, with, "with tokens known"))
	}
	if withUSD > 0 {
		parts = append(parts, cost.FormatUSD(sumUSD)+over(withUSD, with, "priced"))
	}
	if len(parts) == 0 {
		p.line(1, "total: none: no test has an estimate")
	} else {
		p.line(1, "total: %s, for %d of %s", strings.Join(parts, " · "), with, plural.Count(len(est), "test"))
	}
	if len(none) > 0 {
		p.line(1, "no estimate for %s: %s", plural.Count(len(none), "test"), strings.Join(none, "; "))
	}
}

// over is " (2 tests priced)" when a sum covers fewer tests than have an
// estimate; "" when it covers them all.
func over(n, all int, what string) string {
	if n == all {
		return ""
	}
	return fmt.Sprintf(" (%s %s)", plural.Count(n, "test"), what)
}
