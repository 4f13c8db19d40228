package history

import (
	"fmt"
	"math"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
)

// Thresholds say when a history suggests a change to the quarantine list
// (docs/history.md#suggestions-from-history).
type Thresholds struct {
	// A test not quarantined whose flake rate over the runs that judged it
	// is at least FlakeRate (a fraction: 0.2 for 20%), over at least
	// MinRuns such runs, is suggested for quarantine.
	FlakeRate float64
	MinRuns   int
	// A quarantined test that passed, never flaky, each of the newest
	// StableRuns runs that judged it — and did not fail nor wobble in the
	// report — is suggested for release.
	StableRuns int
}

// DefaultThresholds: quarantine at a flake rate of 20% over at least 10
// judged runs; release after 10 steady passes in a row.
var DefaultThresholds = Thresholds{FlakeRate: 0.2, MinRuns: 10, StableRuns: 10}

// Advise adds to r, a report of the branch whose history on base is h,
// the suggestions about its quarantine list that h supports at th
// (Report.Advise): quarantine each test flaky too often there, release
// each quarantined test stable there long enough. It returns the advice
// added; nothing for a nil or empty h.
func Advise(r *report.Report, h *History, base string, th Thresholds) ([]report.QuarantineAdvice, error) {
	if h == nil || len(h.Runs) == 0 {
		return nil, nil
	}
	var out []report.QuarantineAdvice
	for i := range r.Tests {
		t := &r.Tests[i]
		ht := h.Test(t.ID)
		if ht == nil {
			continue
		}
		if t.Quarantined == nil {
			if why := flakyEnough(h.facts(ht, 0.95), base, th); why != "" {
				out = append(out, report.QuarantineAdvice{Test: t.ID, Action: report.AdviseQuarantine, Reason: why})
			}
			continue
		}
		if t.Status.Failed() || t.Flaky || t.Inconclusive || th.StableRuns < 1 {
			continue
		}
		if n := steadyPasses(ht); n >= th.StableRuns {
			out = append(out, report.QuarantineAdvice{Test: t.ID, Action: report.AdviseRelease,
				Reason: fmt.Sprintf("passed the last %s on %s, none flaky, and this run (%d in a row make it stable)",
					plural.Count(n, "run"), base, th.StableRuns)})
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, r.Advise(out...)
}

// flakyEnough is why f's test should be quarantined at th — "4 flakes in
// the last 20 runs on main: a flake rate of 20%, at or over the 20%
// threshold" — or "" when it should not.
func flakyEnough(f Facts, base string, th Thresholds) string {
	if f.Judged < max(th.MinRuns, 1) || f.Flakes == 0 || f.FlakeRate < th.FlakeRate*(1-1e-9) {
		return ""
	}
	return fmt.Sprintf("%s in the last %s on %s: a flake rate of %s, at or over the %s threshold",
		plural.Count(f.Flakes, "flake"), plural.Count(f.Judged, "run"), base, percent(f.FlakeRate), percent(th.FlakeRate))
}

// steadyPasses counts the newest runs that judged the test and passed it,
// never flaky, in a row.
func steadyPasses(t *Test) int {
	n := 0
	for i := len(t.Results) - 1; i >= 0; i-- {
		r := t.Results[i]
		switch {
		case !r.Judged():
			continue
		case r.Status.Failed() || r.Flaky:
			return n
		}
		n++
	}
	return n
}

// percent is a fraction in percent, to a tenth at most: "20%", "12.5%".
func percent(v float64) string {
	return fmt.Sprintf("%g%%", math.Round(v*1000)/10)
}
