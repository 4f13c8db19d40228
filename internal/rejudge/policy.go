package rejudge

import (
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
)

// policyOf is the stability policy a test was judged by, as its report
// keeps it: runs, min_pass_rate, retries and adaptive runs' rule.
func policyOf(t *report.Test) stability.Policy {
	p := stability.Policy{Runs: max(t.Runs, 1), MinPassRate: t.MinPassRate, Retries: t.Retries}
	if a := t.Adaptive; a != nil {
		p.Runs, p.MinRuns = a.MaxRuns, a.MinRuns
		p.Rule = stability.Rule{Zone: a.Zone, Alpha: a.Alpha, Beta: a.Beta}
	}
	return p
}

// runStatuses are the statuses of each run's attempts, in order: the
// attempts of one run are consecutive, and a run ends at its first
// passing attempt (no retry follows a pass, so one that did was made
// while an earlier attempt still failed).
func runStatuses(as []report.Attempt) [][]status.Status {
	var out [][]status.Status
	for i, a := range as {
		if i == 0 || a.Run != as[i-1].Run {
			out = append(out, nil)
		}
		r := &out[len(out)-1]
		if n := len(*r); n > 0 && (*r)[n-1] == status.Pass {
			continue
		}
		*r = append(*r, a.Status)
	}
	return out
}
