package report

import (
	"errors"
	"fmt"
	"slices"

	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
)

// Quarantine (docs/history.md#quarantine): a quarantined test runs and is
// reported with the status it earned, and is counted in the totals, but
// plays no part in the run's verdict — its failure, error, flakiness or
// inconclusive runs fail nothing. Every output marks it and says what it
// would have done.

// Quarantined is the quarantine entry of a test, as the report shows it.
type Quarantined struct {
	// Reason is why the test is quarantined; Until the last day the entry
	// holds (YYYY-MM-DD, "" for none); Owner and Issue who answers for it
	// and where its fix is tracked, when the entry says.
	Reason string `json:"reason"`
	Until  string `json:"until,omitempty"`
	Owner  string `json:"owner,omitempty"`
	Issue  string `json:"issue,omitempty"`
	// Match is the entry's test: the test's id, or the glob that matched it.
	Match string `json:"match"`
	// Source is where the entry is written.
	Source Location `json:"source"`
	// StableInRun: the test ran and every attempt of it passed in this run.
	// One run is not enough to leave the quarantine; history says when it
	// is (QuarantineAdvice).
	StableInRun bool `json:"stable_in_run,omitempty"`
}

// QuarantineTotals counts the quarantined tests by what they did: they are
// counted in the run's totals too, and Totals.Counted takes them out.
type QuarantineTotals struct {
	Tests   int `json:"tests"`
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Errored int `json:"errored"`
	Skipped int `json:"skipped"`
	Flaky   int `json:"flaky"`
	// Inconclusive counts the quarantined tests whose adaptive runs reached
	// their maximum unsettled.
	Inconclusive int `json:"inconclusive"`
	// Stable counts the quarantined tests that passed every attempt.
	Stable int `json:"stable"`
}

// Advice actions: what a QuarantineAdvice suggests doing with the
// quarantine list.
const (
	// AdviseQuarantine suggests adding an entry for a test not quarantined.
	AdviseQuarantine = "quarantine"
	// AdviseRelease suggests removing the entry of a quarantined test.
	AdviseRelease = "release"
)

// QuarantineAdvice is a suggestion about the quarantine list from evidence
// beyond one run — the base branch's history: quarantine a test that fails
// too often there, release one that has passed long enough. Build makes
// none; whoever holds the evidence adds them with Report.Advise, and every
// output shows them (docs/history.md#quarantine).
type QuarantineAdvice struct {
	// Test is the test's id.
	Test string `json:"test"`
	// Action is AdviseQuarantine or AdviseRelease.
	Action string `json:"action"`
	// Reason is the evidence, for people: "fails 6 of the last 20 runs on
	// main (30%, over the 10% threshold)", "passed the last 30 runs on
	// main".
	Reason string `json:"reason"`
}

// Advise adds suggestions about the quarantine list to the report, kept in
// the order of its tests, one per test (a later one for a test replaces
// an earlier). It refuses, and returns an error naming, advice for a test
// the report does not have, an action it does not know, advice without a
// reason, and advice that does not fit the test: quarantining a test that
// is quarantined, releasing one that is not.
func (r *Report) Advise(advice ...QuarantineAdvice) error {
	at := make(map[string]int, len(r.Tests))
	for i := range r.Tests {
		at[r.Tests[i].ID] = i
	}
	byTest := map[string]QuarantineAdvice{}
	for _, a := range r.QuarantineAdvice {
		byTest[a.Test] = a
	}
	var errs []error
	for _, a := range advice {
		i, ok := at[a.Test]
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("quarantine advice for %s: no such test in the report", a.Test))
		case a.Action != AdviseQuarantine && a.Action != AdviseRelease:
			errs = append(errs, fmt.Errorf("quarantine advice for %s: unknown action %q", a.Test, a.Action))
		case a.Reason == "":
			errs = append(errs, fmt.Errorf("quarantine advice for %s: no reason", a.Test))
		case (a.Action == AdviseRelease) != (r.Tests[i].Quarantined != nil):
			errs = append(errs, fmt.Errorf("quarantine advice for %s: cannot %s a test that is %s", a.Test, a.Action, quarantineState(r.Tests[i].Quarantined != nil)))
		default:
			a.Reason = r.mask(a.Reason)
			byTest[a.Test] = a
		}
	}
	r.QuarantineAdvice = nil
	for _, t := range r.Tests {
		if a, ok := byTest[t.ID]; ok {
			r.QuarantineAdvice = append(r.QuarantineAdvice, a)
		}
	}
	return errors.Join(errs...)
}

func quarantineState(quarantined bool) string {
	if quarantined {
		return "quarantined"
	}
	return "not quarantined"
}

// mask masks a text added to a built report with the secrets it was
// masked with.
func (r *Report) mask(s string) string { return NewRedactor(r.masked, nil).String(s) }

// Advice returns the quarantine advice for a test, if any.
func (r *Report) Advice(id string) (QuarantineAdvice, bool) {
	i := slices.IndexFunc(r.QuarantineAdvice, func(a QuarantineAdvice) bool { return a.Test == id })
	if i < 0 {
		return QuarantineAdvice{}, false
	}
	return r.QuarantineAdvice[i], true
}

// quarantined is the report's view of a test's quarantine entry (nil: not
// quarantined), once the test's attempts are in.
func (b *builder) quarantined(q *spec.Quarantine, t *Test) *Quarantined {
	if q == nil {
		return nil
	}
	out := &Quarantined{Reason: b.red.String(q.Reason), Until: q.Until, Owner: b.red.String(q.Owner), Issue: b.red.String(q.Issue),
		Match: q.Test, Source: b.loc(q.Pos)}
	out.StableInRun = t.Status == status.Pass && len(t.Attempts) > 0 &&
		!slices.ContainsFunc(t.Attempts, func(a Attempt) bool { return a.Status != status.Pass })
	return out
}

// quarantineTotals counts the quarantined tests; nil when there are none.
func quarantineTotals(tests []Test) *QuarantineTotals {
	var q QuarantineTotals
	for i := range tests {
		t := &tests[i]
		if t.Quarantined == nil {
			continue
		}
		q.Tests++
		switch t.Status {
		case status.Pass:
			q.Passed++
		case status.Fail:
			q.Failed++
		case status.Error:
			q.Errored++
		case status.Skipped:
			q.Skipped++
		}
		if t.Flaky {
			q.Flaky++
		}
		if t.Inconclusive {
			q.Inconclusive++
		}
		if t.Quarantined.StableInRun {
			q.Stable++
		}
	}
	if q.Tests == 0 {
		return nil
	}
	return &q
}

// Quarantine returns the quarantined tests' counts (zero when none are).
func (t Totals) Quarantine() QuarantineTotals {
	if t.Quarantined == nil {
		return QuarantineTotals{}
	}
	return *t.Quarantined
}

// Counted is the totals of the tests that decide the run's verdict: every
// test but the quarantined ones (the totals themselves when none are). Its
// warnings, checks not made, usage and pass rate stay the whole run's.
func (t Totals) Counted() Totals {
	q := t.Quarantined
	if q == nil {
		return t
	}
	c := t
	c.Quarantined = nil
	c.Total -= q.Tests
	c.Passed -= q.Passed
	c.Failed -= q.Failed
	c.Errored -= q.Errored
	c.Skipped -= q.Skipped
	c.Flaky -= q.Flaky
	if t.Adaptive != nil {
		a := *t.Adaptive
		a.Inconclusive -= q.Inconclusive
		c.Adaptive = &a
	}
	return c
}

// QuarantinedTests returns the quarantined tests of the report, in its
// order.
func (r *Report) QuarantinedTests() []*Test {
	var out []*Test
	for i := range r.Tests {
		if r.Tests[i].Quarantined != nil {
			out = append(out, &r.Tests[i])
		}
	}
	return out
}
