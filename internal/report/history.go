package report

import (
	"slices"

	"github.com/ananke/action/internal/status"
)

// History is the base branch's recent runs as the report read them
// (docs/history.md): which runs, and at what significance a failure was
// judged worse on the pull request. Nil without a history.
type History struct {
	// Base names the base branch ("main").
	Base string `json:"base"`
	// Runs is how many runs of the base branch the history holds.
	Runs int `json:"runs"`
	// Alpha is the significance at which a known-flaky test failing more
	// often here counts as new.
	Alpha float64 `json:"alpha"`
}

// TestHistory is what the base branch's recent runs say of a test: its
// recent results for a trend, and — when it failed here — whether the
// history explains the failure. Per-run lists are oldest first, one entry
// per run of the history.
type TestHistory struct {
	// Sequence has a character per run: p passed, f failed, e errored, s
	// skipped, . not in the run; upper case when flaky in the run.
	Sequence string `json:"sequence"`
	// Judged counts the runs that passed, failed or errored the test;
	// Failed (failed or errored) and Flaky divide them, and FlakeRate is the
	// share of judged runs that were flaky (in percent).
	Judged    int     `json:"judged"`
	Failed    int     `json:"failed"`
	Flaky     int     `json:"flaky"`
	FlakeRate float64 `json:"flake_rate"`
	// DurationsMs are the test's durations (0 where the run did not judge
	// it); CostUSD and Tokens the agent's mean use per attempt, null where
	// unknown (never 0 for unknown).
	DurationsMs []int64    `json:"durations_ms"`
	Tokens      []*float64 `json:"tokens,omitempty"`
	CostUSD     []*float64 `json:"cost_usd,omitempty"`
	// Blame is, for a test that failed or errored here, what the history
	// says of it: "new", "flaky" (known flaky on the base branch) or
	// "failing" (already failing there); Says it in words ("known flaky on
	// main (fails 4 of the last 20)"). New: the failure is the pull
	// request's — a new failure, or a known-flaky test significantly worse
	// here (P, the one-sided Fisher test's p-value) — what --fail-on new
	// gates on.
	Blame string   `json:"blame,omitempty"`
	Says  string   `json:"says,omitempty"`
	New   bool     `json:"new,omitempty"`
	P     *float64 `json:"p,omitempty"`
}

// CountsAsNew reports whether t failed (or errored) and the failure counts
// as new: its history says so (TestHistory.New), or it has none — a report
// read against no history blames nothing on the base branch.
func (t *Test) CountsAsNew() bool {
	return t.Status.Failed() && (t.History == nil || t.History.New)
}

// StatusExcusing is the run's status had the failed and errored tests
// excused names been quarantined: what fail-on new ends the step with,
// excusing the failures the base branch's history explains
// (docs/history.md#fail-on-new). Tests that did not fail are never
// excused. The report is left as it is.
func (r *Report) StatusExcusing(excused func(*Test) bool) status.Status {
	tests := slices.Clone(r.Tests)
	for i := range tests {
		if tests[i].Quarantined == nil && tests[i].Status.Failed() && excused(&tests[i]) {
			tests[i].Quarantined = &Quarantined{}
		}
	}
	return r.withAttacks(runStatus(totals(tests), r.FailOnFlaky, r.FailOnInconclusive, len(r.FailedHooks()) > 0, r.Budget.exceeded()))
}
