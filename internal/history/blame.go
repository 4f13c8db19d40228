package history

import (
	"fmt"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/stats"
)

// Kind is what a base branch's history says of a test that fails on a
// pull request (docs/history.md).
type Kind string

const (
	// NewFailure: the test passes steadily on the base branch — it never
	// failed nor was flaky in the history — or the history does not have
	// it. The pull request is the first suspect.
	NewFailure Kind = "new"
	// KnownFlaky: the test failed or was flaky in some run of the history,
	// and passed between then and now (or passes now).
	KnownFlaky Kind = "flaky"
	// AlreadyFailing: the test fails on the base branch: its newest runs
	// that judged it failed it, and it had not failed before them in the
	// history.
	AlreadyFailing Kind = "failing"
)

// Verdict is a history's word on a pull request's test.
type Verdict struct {
	// Kind is empty when the test did not fail (nor error).
	Kind Kind
	// Failed counts the runs of the history that failed the test (failed
	// or errored), Flaky those it was flaky in, of the Of runs that judged
	// it — "fails 4 of the last 20". Of is 0 when the history does not
	// have the test, or never judged it.
	Failed, Flaky, Of int
	// Streak is how many of the newest runs that judged the test failed
	// it, in a row, and Since the first of them ("failing since run #18");
	// nil when the newest run that judged it passed. Set whatever the Kind.
	Streak int
	Since  *Run
	// BasePassed of BaseRuns are the test's passing runs over the history
	// (its runs: N summed over the runs that judged it), HeadPassed of
	// HeadRuns the pull request's, and P the one-sided p-value of Fisher's
	// exact test that the pull request passes fewer of its runs than the
	// base branch does (stats.FisherLess); 1 when either side has no runs.
	BasePassed, BaseRuns int
	HeadPassed, HeadRuns int
	P                    float64
}

// Blame says what the history says of t, a test of a pull request's
// report: whether the base branch explains its failure. The rules, in
// order, for a test that failed or errored:
//
//   - not judged in the history, or never failed nor flaky in it: NewFailure;
//   - its newest judged runs failed it, and no run before them did:
//     AlreadyFailing, since the first of them;
//   - otherwise (it failed or was flaky in some run): KnownFlaky.
//
// P compares the pull request's pass rate with the base branch's whatever
// the Kind: a known-flaky test that fails far more often on the pull
// request than on the base branch is worse there (Worse, New).
func Blame(t *report.Test, h *History) Verdict {
	v := Verdict{HeadPassed: t.PassedRuns, HeadRuns: t.Runs}
	if h != nil {
		if ht := h.Test(t.ID); ht != nil {
			f := h.facts(ht, 0.95)
			v.Failed, v.Flaky, v.Of = f.Failed, f.Flaky, f.Judged
			v.Streak, v.Since = f.Streak, f.Since
			v.BasePassed, v.BaseRuns = f.PassedRuns, f.Runs
		}
	}
	v.P = stats.FisherLess(v.BasePassed, v.BaseRuns, v.HeadPassed, v.HeadRuns)
	if !t.Status.Failed() {
		return v
	}
	switch {
	case v.Failed == 0 && v.Flaky == 0:
		v.Kind = NewFailure
	case v.Streak > 0 && v.Streak == v.Failed:
		v.Kind = AlreadyFailing
	default:
		v.Kind = KnownFlaky
	}
	return v
}

// Blamed is a failing test of a pull request's report and the history's
// verdict on it.
type Blamed struct {
	Test    *report.Test
	Verdict Verdict
}

// BlameAll is Blame for each test of r that failed or errored, in r's
// order: what a pull request's comment, check run and --fail-on new read.
func BlameAll(r *report.Report, h *History) []Blamed {
	var out []Blamed
	for i := range r.Tests {
		if t := &r.Tests[i]; t.Status.Failed() {
			out = append(out, Blamed{t, Blame(t, h)})
		}
	}
	return out
}

// Worse reports whether the pull request passes the test significantly
// less often than the base branch, at significance alpha (a p-value at
// most alpha): both sides ran it, and chance hardly explains the drop.
func (v Verdict) Worse(alpha float64) bool {
	return v.BaseRuns > 0 && v.HeadRuns > 0 && v.P <= alpha
}

// New reports whether the failure is the pull request's to answer for: a
// new failure, or a known-flaky test that fails significantly more often
// on the pull request than on the base branch (Worse at alpha). A test
// already failing on the base branch is not. What --fail-on new gates on.
func (v Verdict) New(alpha float64) bool {
	return v.Kind == NewFailure || v.Kind == KnownFlaky && v.Worse(alpha)
}

// String says the verdict in words, for logs and tests: "new failure
// (passed the last 20 runs on the base branch)", "known flaky on the base
// branch (fails 4 of the last 20)", "already failing on the base branch
// since run #18".
func (v Verdict) String() string { return v.Say("the base branch") }

// Say is String with the base branch named base ("main").
func (v Verdict) Say(base string) string {
	switch v.Kind {
	case NewFailure:
		if v.Of == 0 {
			return fmt.Sprintf("new failure (not run on %s in its history)", base)
		}
		return fmt.Sprintf("new failure (passed the last %d runs on %s)", v.Of, base)
	case KnownFlaky:
		if v.Failed == 0 {
			return fmt.Sprintf("known flaky on %s (flaky in %d of the last %d, never failed)", base, v.Flaky, v.Of)
		}
		if v.Streak > 0 {
			return fmt.Sprintf("known flaky on %s (fails %d of the last %d; failing since %s)", base, v.Failed, v.Of, v.Since.Name())
		}
		return fmt.Sprintf("known flaky on %s (fails %d of the last %d)", base, v.Failed, v.Of)
	case AlreadyFailing:
		return fmt.Sprintf("already failing on %s since %s", base, v.Since.Name())
	}
	return ""
}

// Name is how people call the run: "run #41", or "run <id>" without a
// number.
func (r *Run) Name() string {
	if r.Number > 0 {
		return fmt.Sprintf("run #%d", r.Number)
	}
	return "run " + r.ID
}
