package format

import (
	"strconv"
	"strings"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/stats"
)

// Blame (docs/history.md#blame-in-the-pull-request): history.Attach reads
// each failing test against the base branch's recent runs and writes its
// verdict into report.TestHistory; these say it in the words every output
// shares.

// Trend is a history's sequence (report.TestHistory.Sequence) as marks,
// one a run, oldest first; TrendLegend says what they mean.
func Trend(seq string) string {
	var b strings.Builder
	for i := range len(seq) {
		switch seq[i] {
		case 'p':
			b.WriteString("✓")
		case 'P':
			b.WriteString("~")
		case 'f', 'F':
			b.WriteString("✗")
		case 'e', 'E':
			b.WriteString("!")
		case 's':
			b.WriteString("-")
		default:
			b.WriteString("·")
		}
	}
	return b.String()
}

// TrendLegend says what Trend's marks mean.
const TrendLegend = "✓ passed, ~ passed but flaky, ✗ failed, ! errored, - skipped, · not in the run"

// Blame is the history's verdict on a failing test in words: its Says and,
// for a known-flaky test — whose verdict the p-value decides — how its
// failure here compares with the base branch's runs at the history's
// significance: "known flaky on main (fails 4 of the last 20); p = 0.24,
// within noise", or "…; fails more often here (p = 0.02 at significance
// 0.05): counts as new". "" when the test has no verdict.
func Blame(h *report.History, th *report.TestHistory) string {
	if th == nil || th.Blame == "" {
		return ""
	}
	s := th.Says
	if th.Blame != BlameFlaky || th.P == nil || h == nil {
		return s
	}
	if th.New {
		return s + "; fails more often here (" + PValue(*th.P, h.Alpha) + " at significance " + strconv.FormatFloat(h.Alpha, 'g', -1, 64) + "): counts as new"
	}
	return s + "; " + PValue(*th.P, h.Alpha) + ", within noise"
}

// The verdicts of report.TestHistory.Blame.
const (
	BlameNew     = "new"
	BlameFlaky   = "flaky"
	BlameFailing = "failing"
)

// BlameCounts counts the failing tests not quarantined by the history's
// verdict: "1 new failure, 1 known flaky on main, 1 already failing on
// main" (a known-flaky test that fails more often here is new); "" when
// the report has no history or no such test.
func BlameCounts(r *report.Report) string {
	if r.History == nil {
		return ""
	}
	var fresh, flaky, failing int
	for i := range r.Tests {
		t := &r.Tests[i]
		switch {
		case !t.Status.Failed() || t.Quarantined != nil:
		case t.CountsAsNew():
			fresh++
		case t.History.Blame == BlameFailing:
			failing++
		default:
			flaky++
		}
	}
	var parts []string
	if fresh > 0 {
		parts = append(parts, plural.Count(fresh, "new failure"))
	}
	if flaky > 0 {
		parts = append(parts, strconv.Itoa(flaky)+" known flaky on "+r.History.Base)
	}
	if failing > 0 {
		parts = append(parts, strconv.Itoa(failing)+" already failing on "+r.History.Base)
	}
	return strings.Join(parts, ", ")
}

// PValue shows a p-value with two significant digits, "p = 0.043", "p =
// 0.5", "p = 1", or "p < 0.001" below a thousandth; with more digits when
// two would put it on the other side of alpha ("p = 0.0504" at 0.05,
// never "p = 0.05").
func PValue(p, alpha float64) string {
	if p < 0.001 && alpha >= 0.001 {
		return "p < 0.001"
	}
	for digits := 2; digits < 17; digits++ {
		s := strconv.FormatFloat(p, 'g', digits, 64)
		if v, err := strconv.ParseFloat(s, 64); err == nil && stats.Significant(v, alpha) == stats.Significant(p, alpha) {
			return "p = " + s
		}
	}
	return "p = " + strconv.FormatFloat(p, 'g', -1, 64)
}
