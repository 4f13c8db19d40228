package html

import (
	"fmt"
	"math"
	"strconv"

	"github.com/ananke/action/internal/history"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
)

// History (docs/history.md) on the page, when the report was read against
// the base branch's recent runs: the run's header says which runs; each
// test has its trend — its result, duration and cost (or tokens) in each
// of those runs and in this one, drawn by the page as sparklines — and a
// failed test the history's verdict, in the words of report.TestHistory.
// A report without a history has none of these fields.

// trend is a test's recent runs on the base branch and this run, oldest
// first, this run last: a value per run in each list.
type trend struct {
	// Seq has a character per run, as report.TestHistory.Sequence: p
	// passed, f failed, e errored, s skipped, . not in the run; upper case
	// when flaky in the run.
	Seq string `json:"seq"`
	// Ms are the test's durations, null where the run did not judge it.
	Ms []*int64 `json:"ms"`
	// CostUSD is the agent's mean cost per attempt, or — when no run's
	// cost is known — Tokens its mean tokens; null where unknown, never 0.
	// Neither is there when no run's usage is known.
	CostUSD []*float64 `json:"cost_usd,omitempty"`
	Tokens  []*float64 `json:"tokens,omitempty"`
	// Facts says what the runs of the base branch did: "failed 4 of 20
	// runs on main · flake rate 10%".
	Facts string `json:"facts"`
	// Blame ("new", "flaky", "failing"), Says and New are the history's
	// verdict on a test that failed or errored here.
	Blame string `json:"blame,omitempty"`
	Says  string `json:"says,omitempty"`
	New   bool   `json:"new,omitempty"`
}

// historyText is the run's line: "20 runs of main"; "" without a history.
func historyText(r *report.Report) string {
	if r.History == nil {
		return ""
	}
	return plural.Count(r.History.Runs, "run") + " of " + historyBase(r)
}

// historyBase names the base branch of the report's history: its name, or
// "the base branch" when the history does not say.
func historyBase(r *report.Report) string {
	if r.History == nil || r.History.Base == "" {
		return "the base branch"
	}
	return r.History.Base
}

// trendOf is a test's trend; nil when the report has no history of it.
func trendOf(rt *report.Test, base string) *trend {
	th := rt.History
	if th == nil {
		return nil
	}
	now := history.ResultOf(rt)
	n := len(th.Sequence)
	t := &trend{Seq: th.Sequence + string(now.Char()), Ms: make([]*int64, 0, n+1),
		Facts: factsText(th, base), Blame: th.Blame, Says: th.Says, New: th.New}
	for i := range n {
		if i < len(th.DurationsMs) && judged(th.Sequence[i]) {
			t.Ms = append(t.Ms, &th.DurationsMs[i])
		} else {
			t.Ms = append(t.Ms, nil)
		}
	}
	if now.Judged() {
		t.Ms = append(t.Ms, &rt.DurationMs)
	} else {
		t.Ms = append(t.Ms, nil)
	}
	switch {
	case anyKnown(th.CostUSD) || now.CostUSD != nil:
		t.CostUSD = series(th.CostUSD, n, now.CostUSD, 3)
	case anyKnown(th.Tokens) || now.Tokens != nil:
		t.Tokens = series(th.Tokens, n, now.Tokens, 0)
	}
	return t
}

// judged reports whether a sequence's character is a run that passed,
// failed or errored the test.
func judged(c byte) bool {
	switch c | 0x20 {
	case 'p', 'f', 'e':
		return true
	}
	return false
}

func anyKnown(vs []*float64) bool {
	for _, v := range vs {
		if v != nil {
			return true
		}
	}
	return false
}

// series is n values of the history (null past its end) and this run's,
// rounded for a sparkline: to digits significant digits, or to whole
// numbers when digits is 0. Rounding bounds the page's bytes; the page
// writes a cost with two significant digits, and tokens whole.
func series(vs []*float64, n int, now *float64, digits int) []*float64 {
	out := make([]*float64, n+1)
	for i := range n + 1 {
		v := now
		if i < n {
			v = nil
			if i < len(vs) {
				v = vs[i]
			}
		}
		if v == nil {
			continue
		}
		r := math.Round(*v)
		if digits > 0 {
			r, _ = strconv.ParseFloat(strconv.FormatFloat(*v, 'g', digits, 64), 64)
		}
		out[i] = &r
	}
	return out
}

// factsText says what the base branch's runs did with the test: "failed 4
// of 20 runs on main · flake rate 10%", "passed 20 of 20 runs on main",
// "not run on main in these 20 runs".
func factsText(th *report.TestHistory, base string) string {
	if th.Judged == 0 {
		return fmt.Sprintf("not run on %s in these %s", base, plural.Count(len(th.Sequence), "run"))
	}
	s := fmt.Sprintf("failed %d of %s on %s", th.Failed, plural.Count(th.Judged, "run"), base)
	if th.Failed == 0 {
		s = fmt.Sprintf("passed %d of %s on %s", th.Judged, plural.Count(th.Judged, "run"), base)
	}
	if th.Flaky > 0 || th.FlakeRate > 0 {
		s += " · flake rate " + strconv.FormatFloat(th.FlakeRate, 'f', -1, 64) + "%"
	}
	return s
}
