package attack

import (
	"cmp"
	"slices"
	"time"

	"github.com/ananke/action/internal/attack/plant"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/report"
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
	// Recount makes the lists that stay nil empty.
	a := &report.Attacks{NotAttacked: slices.Clone(p.NotAttacked)}
	order := map[string]*Run{}
	var start, end time.Time
	for _, run := range p.followed {
		res := byID[run.ID]
		ar := Judge(run, res, p.opts)
		a.Runs = append(a.Runs, ar)
		order[run.ID] = run
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
	// The groups in the suite's order; Recount counts them, orders the
	// runs and makes the gate's verdict.
	var firsts []*Run
	source := map[string]report.Location{}
	for _, r := range a.Runs {
		run := order[r.ID]
		if k := groupKey(run); source[k].File == "" {
			source[k] = r.Source
			firsts = append(firsts, run)
		}
	}
	slices.SortStableFunc(firsts, groupCmp)
	for _, f := range firsts {
		src := source[groupKey(f)]
		a.Groups = append(a.Groups, report.AttackGroup{Test: f.Base.ID, Name: f.Base.Name.Value, File: src.File, Line: src.Line,
			Channel: string(f.Site.Channel), Site: f.Site.Site})
	}
	a.Threshold = p.opts.Threshold
	a.Recount()
	return a
}

func groupKey(r *Run) string {
	return r.Base.ID + "\x00" + string(r.Site.Channel) + "\x00" + r.Site.Site
}
