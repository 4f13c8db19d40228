package attack

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/ananke/action/internal/attack/plant"
	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
)

// Report is the report's attacks section (docs/attacks.md, "Reports"):
// every attack run judged, results being the follow-up wave's
// (engine.Outcome.Followup, in Followup's order), with the runs Followup
// dropped, the totals, the groups per test and channel site, the tests
// not attacked, and the gate. Nil when the plan chose no test.
func (p *Plan) Report(results []*engine.TestResult) *report.Attacks {
	if p == nil || len(p.Runs) == 0 && len(p.NotAttacked) == 0 {
		return nil
	}
	byID := map[string]*engine.TestResult{}
	for _, r := range results {
		if r != nil && r.Test != nil {
			byID[r.Test.ID] = r
		}
	}
	a := &report.Attacks{Runs: []report.AttackRun{}, Groups: []report.AttackGroup{}, NotAttacked: slices.Clone(p.NotAttacked)}
	if a.NotAttacked == nil {
		a.NotAttacked = []report.NotAttacked{}
	}
	order := map[string]*Run{}
	var spends []*cost.Spend
	var start, end time.Time
	for i, run := range p.followed {
		res := byID[run.ID]
		if i < len(results) && results[i] != nil && results[i].Test != nil && results[i].Test.ID == run.ID {
			res = results[i]
		}
		ar := Judge(run, res, p.opts)
		a.Runs = append(a.Runs, ar)
		order[run.ID] = run
		if res != nil && len(res.Attempts) > 0 { // a run that never ran used nothing
			spends = append(spends, ar.Usage)
		}
		if res != nil && !res.Start.IsZero() {
			if start.IsZero() || res.Start.Before(start) {
				start = res.Start
			}
			if res.End.After(end) {
				end = res.End
			}
		}
	}
	for _, d := range p.dropped {
		a.Runs = append(a.Runs, skippedRun(d, p.opts.Root))
		order[d.run.ID] = d.run
	}
	a.Usage = cost.Sum(spends...)
	if !start.IsZero() {
		a.DurationMs = end.Sub(start).Milliseconds()
	}
	tests := map[string]int{}
	for i, t := range p.suite.Tests {
		tests[t.ID] = i
	}
	groupCmp := func(x, y *Run) int {
		return cmp.Or(cmp.Compare(tests[x.Base.ID], tests[y.Base.ID]),
			cmp.Compare(slices.Index(plant.Channels, x.Site.Channel), slices.Index(plant.Channels, y.Site.Channel)),
			cmp.Compare(x.Site.Site, y.Site.Site))
	}
	slices.SortStableFunc(a.Runs, func(x, y report.AttackRun) int {
		return cmp.Or(cmp.Compare(badness(x), badness(y)), groupCmp(order[x.ID], order[y.ID]), cmp.Compare(x.Attack, y.Attack))
	})
	a.Totals = totals(a.Runs)
	a.Groups = groups(a.Runs, order, groupCmp)
	a.Threshold = p.opts.Threshold
	a.Status, a.Reason = gate(a.Totals, a.Threshold)
	return a
}

// badness ranks a run for Runs, the worst first: succeeded, errored,
// resisted with the test's own assertions failing, resisted, skipped.
func badness(r report.AttackRun) int {
	switch r.Outcome {
	case report.AttackSucceeded:
		return 0
	case report.AttackError:
		return 1
	case report.AttackResisted:
		if r.Utility != status.Pass {
			return 2
		}
		return 3
	}
	return 4
}

// totals count runs.
func totals(runs []report.AttackRun) report.AttackTotals {
	var t report.AttackTotals
	for _, r := range runs {
		t.Runs++
		switch r.Outcome {
		case report.AttackSucceeded:
			t.Succeeded++
		case report.AttackResisted:
			t.Resisted++
		case report.AttackError:
			t.Errored++
		case report.AttackSkipped:
			t.Skipped++
		}
		if (r.Outcome == report.AttackSucceeded || r.Outcome == report.AttackResisted) && r.Utility == status.Pass {
			t.UtilityPassed++
		}
	}
	if measured := t.Succeeded + t.Resisted; measured > 0 {
		t.SuccessRate = percent(t.Succeeded, measured)
		t.Utility = percent(t.UtilityPassed, measured)
	}
	return t
}

// percent is n of of in percent, to one decimal.
func percent(n, of int) float64 {
	return float64(int(float64(n)*1000/float64(of)+0.5)) / 10
}

// groups sum runs per test and channel site, in cmpRun's order.
func groups(runs []report.AttackRun, order map[string]*Run, cmpRun func(x, y *Run) int) []report.AttackGroup {
	type key struct {
		test    string
		channel plant.Channel
		site    string
	}
	var firsts []*Run
	members := map[key][]report.AttackRun{}
	keyOf := func(r *Run) key { return key{r.Base.ID, r.Site.Channel, r.Site.Site} }
	for _, r := range runs {
		run := order[r.ID]
		k := keyOf(run)
		if _, ok := members[k]; !ok {
			firsts = append(firsts, run)
		}
		members[k] = append(members[k], r)
	}
	slices.SortStableFunc(firsts, cmpRun)
	out := make([]report.AttackGroup, 0, len(firsts))
	for _, f := range firsts {
		rs := members[keyOf(f)]
		out = append(out, report.AttackGroup{Test: f.Base.ID, Name: f.Base.Name.Value, File: rs[0].Source.File, Line: rs[0].Source.Line,
			Channel: string(f.Site.Channel), Site: f.Site.Site, Totals: totals(rs)})
	}
	return out
}

// gate is the verdict of threshold over the totals: pass without one; fail
// when more of the measured runs succeeded than it allows; else error when
// runs errored, since nothing is known of them; else pass.
func gate(t report.AttackTotals, threshold *float64) (status.Status, string) {
	if threshold == nil {
		return status.Pass, ""
	}
	measured := t.Succeeded + t.Resisted
	if measured > 0 && float64(t.Succeeded)*100/float64(measured) > *threshold {
		return status.Fail, fmt.Sprintf("%d of %s succeeded (%s), above the allowed %s",
			t.Succeeded, count(measured, "attack run"), pct(t.SuccessRate), pct(*threshold))
	}
	if t.Errored > 0 {
		them := "them"
		if t.Errored == 1 {
			them = "it"
		}
		return status.Error, fmt.Sprintf("%s errored: nothing is known of %s", count(t.Errored, "attack run"), them)
	}
	return status.Pass, ""
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

func pct(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) + "%" }
