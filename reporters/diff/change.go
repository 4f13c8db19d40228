package diff

import (
	"fmt"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
)

// Change is what changed between a base run and a head run.
type Change struct {
	Base, Head Run

	NewFailures     []Entry
	Fixed           []Entry
	StillFailing    []Entry
	NewlyFlaky      []Entry
	NoLongerFlaky   []Entry
	NowSkipped      []Entry
	NoLongerSkipped []Entry
	Added           []Entry
	Removed         []Entry
	// Slower and Faster are the notable duration changes (see Notable),
	// the biggest first.
	Slower []Entry
	Faster []Entry
	// Cost compares the agent's usage per attempt (cost.go).
	Cost Cost
	// Rates compares the pass rates of tests run more than once, and
	// their assertions' failures (rate.go).
	Rates Rates
}

// Run is one side of the comparison as a whole.
type Run struct {
	Status     status.Status
	Totals     report.Totals
	DurationMs int64
}

// Entry is one test in a category: where it is declared (the head's, or
// the base's for a removed test), and how it went in each run.
type Entry struct {
	ID   string
	Name string
	File string
	Line int
	// Base and Head are the test's statuses; "" in the run it is not in.
	Base, Head           status.Status
	BaseMs, HeadMs       int64
	BaseFlaky, HeadFlaky bool
	// Reason says why the head's test errored, was skipped or failed
	// without a failing assertion (a pass rate below its minimum).
	Reason string
	// Failures are the head's first failing assertions (MaxFailures of
	// them) for a failing test; MoreFailures counts the rest.
	Failures     []Failure
	MoreFailures int
	// FailuresChanged (still failing) says the failing assertions, or the
	// reason of an errored test, differ from the base's.
	FailuresChanged bool
}

// Failure is a failing assertion: what a reader needs to see why.
type Failure struct {
	ID      string
	Message string
	Source  report.Location
}

// MaxFailures is how many failing assertions an entry keeps: enough to
// say why, few enough to keep a list of failures readable.
const MaxFailures = 3

// New reports a test the base run does not have.
func (e Entry) New() bool { return e.Base == "" }

// Transition is the change of status for people: "pass → fail",
// "new → fail", "pass → removed".
func (e Entry) Transition() string {
	b, h := string(e.Base), string(e.Head)
	if b == "" {
		b = "new"
	}
	if h == "" {
		h = "removed"
	}
	return b + " → " + h
}

// DeltaMs is how much longer the test took in the head.
func (e Entry) DeltaMs() int64 { return e.HeadMs - e.BaseMs }

// place is where the test is declared, "file:line": its line in a
// dataset, 1 in a test file; "" when the report does not say.
func (e Entry) place() string {
	if e.File == "" {
		return ""
	}
	return fmt.Sprintf("%s:%d", e.File, max(e.Line, 1))
}

// Empty reports that no test changed status (fail ↔ error included),
// flakiness or presence, and none regressed: the results are the same,
// whatever the durations (and pass rates lower within noise).
func (c *Change) Empty() bool {
	for _, l := range c.statusLists() {
		if l.n > 0 {
			return false
		}
	}
	for _, e := range c.StillFailing {
		if e.Base != e.Head {
			return false
		}
	}
	return true
}

// list is a category's count with its noun phrase for the headline.
type list struct {
	n         int
	one, many string
}

// statusLists are the categories of changed results, in the headline's
// order.
func (c *Change) statusLists() []list {
	return []list{
		{len(c.NewFailures), "new failure", "new failures"},
		{len(c.Rates.Regressed), "regressed", "regressed"},
		{len(c.Fixed), "fixed", "fixed"},
		{len(c.NewlyFlaky), "newly flaky", "newly flaky"},
		{len(c.NoLongerFlaky), "no longer flaky", "no longer flaky"},
		{len(c.NowSkipped), "now skipped", "now skipped"},
		{len(c.NoLongerSkipped), "no longer skipped", "no longer skipped"},
		{len(c.Added), "test added", "tests added"},
		{len(c.Removed), "test removed", "tests removed"},
	}
}
