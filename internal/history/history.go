package history

import (
	"math"
	"slices"
	"time"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
)

// DefaultKeep is how many runs a history keeps unless told otherwise.
const DefaultKeep = 20

// History is the results of the last runs of a suite, oldest first. Every
// test's Results has one entry per run, in the same order.
type History struct {
	Runs []Run
	// Tests are in the order of the newest run that has them: the newest
	// run's tests in its order, then those it does not have.
	Tests []Test

	index map[string]int // Tests by id, kept by Add, Trim and Parse
}

// Run is one run of the suite: who it was and how it went.
type Run struct {
	// ID names the run uniquely: the CI's run id (GitHub's), or the name of
	// the report directory it was read from.
	ID string
	// Number is the run's number as people say it ("run #41"); 0 when
	// unknown.
	Number int64
	// Commit is the commit the run tested; "" when unknown.
	Commit string
	// URL is where the run can be seen; "" when unknown.
	URL       string
	StartedAt time.Time
	// Status is the run's verdict (pass, fail or error).
	Status status.Status
}

// Test is one test's results over the runs.
type Test struct {
	ID string
	// Name, File and Line are the newest run's, for people.
	Name string
	File string
	Line int
	// Results has one entry per run of the history.
	Results []Result
}

// Result is a test's result in one run.
type Result struct {
	// Status is pass, fail, error or skipped; "" when the run did not
	// have the test.
	Status status.Status
	// Runs is how many runs of the test were judged in the run (runs: N),
	// PassedRuns how many of them passed.
	Runs       int
	PassedRuns int
	// Flaky: some attempt passed and some did not.
	Flaky      bool
	DurationMs int64
	// Tokens and CostUSD are what the agent used per attempt, the mean
	// over the test's attempts; nil when unknown (never 0 for unknown).
	Tokens  *float64
	CostUSD *float64
}

// Present reports whether the run had the test.
func (r Result) Present() bool { return r.Status != "" }

// Judged reports whether the run judged the test: it passed, failed or
// errored (not skipped, not absent).
func (r Result) Judged() bool {
	return r.Status == status.Pass || r.Status.Failed()
}

// ResultOf is what a history keeps of a test's report.
func ResultOf(t *report.Test) Result {
	r := Result{Status: t.Status, Runs: t.Runs, PassedRuns: t.PassedRuns, Flaky: t.Flaky, DurationMs: t.DurationMs}
	if p := t.PerAttempt; p != nil {
		if p.MeanTokens != nil {
			v := math.Round(*p.MeanTokens*10) / 10
			r.Tokens = &v
		}
		if p.MeanCostUSD != nil {
			v := cost.RoundUSD(*p.MeanCostUSD)
			r.CostUSD = &v
		}
	}
	return r
}

// MaxName bounds a test's name and file in a history, in characters: they
// are for people, and a history file is kept small.
const MaxName = 200

// Test returns the test with id, or nil. It only reads the history, so
// several goroutines may look tests up at once.
func (h *History) Test(id string) *Test {
	if i, ok := h.index[id]; ok && i < len(h.Tests) && h.Tests[i].ID == id {
		return &h.Tests[i]
	}
	for i := range h.Tests { // a history changed by hand, not through Add or Trim
		if h.Tests[i].ID == id {
			return &h.Tests[i]
		}
	}
	return nil
}

// reindex indexes Tests by id, after Add, Trim or Parse changed them.
func (h *History) reindex() {
	h.index = make(map[string]int, len(h.Tests))
	for i, t := range h.Tests {
		h.index[t.ID] = i
	}
}

// Add appends a run and its report's results as the newest run. A run's
// StartedAt and Status, when unset, are the report's; a status that is
// none of pass, fail and error is kept as error, and a test whose status
// is none of pass, fail, error and skipped is left out (summary.json has
// no other). A run with the ID of
// one the history has replaces it (a job run again appends once). A test
// the report has twice (which a merge of overlapping shards can give) is
// taken at its first.
func (h *History) Add(run Run, r *report.Report) {
	if run.StartedAt.IsZero() {
		run.StartedAt = r.StartedAt
	}
	if run.Status == "" {
		run.Status = r.Status
	}
	if run.Status != status.Pass && !run.Status.Failed() {
		run.Status = status.Error
	}
	if run.ID != "" {
		if i := slices.IndexFunc(h.Runs, func(o Run) bool { return o.ID == run.ID }); i >= 0 {
			h.remove(i)
		}
	}
	n := len(h.Runs)
	h.Runs = append(h.Runs, run)
	old := make(map[string]*Test, len(h.Tests))
	for i := range h.Tests {
		old[h.Tests[i].ID] = &h.Tests[i]
	}
	tests := make([]Test, 0, max(len(r.Tests), len(h.Tests)))
	seen := make(map[string]bool, len(r.Tests))
	for i := range r.Tests {
		rt := &r.Tests[i]
		if seen[rt.ID] || rt.ID == "" || rt.Status != status.Skipped && rt.Status != status.Pass && !rt.Status.Failed() {
			continue
		}
		seen[rt.ID] = true
		t := Test{ID: rt.ID, Results: make([]Result, n, n+1)}
		if o := old[rt.ID]; o != nil {
			t.Results = o.Results
		}
		t.Name, t.File, t.Line = short(rt.Name), short(rt.File), rt.Line
		t.Results = append(t.Results, ResultOf(rt))
		tests = append(tests, t)
	}
	for _, t := range h.Tests {
		if !seen[t.ID] {
			t.Results = append(t.Results, Result{})
			tests = append(tests, t)
		}
	}
	h.Tests = tests
	h.reindex()
}

// short cuts s to MaxName characters.
func short(s string) string {
	if r := []rune(s); len(r) > MaxName {
		return string(r[:MaxName-1]) + "…"
	}
	return s
}

// remove drops run i, and the tests only it had.
func (h *History) remove(i int) {
	h.Runs = slices.Delete(h.Runs, i, i+1)
	tests := h.Tests[:0]
	for _, t := range h.Tests {
		t.Results = slices.Delete(t.Results, i, i+1)
		if slices.ContainsFunc(t.Results, Result.Present) {
			tests = append(tests, t)
		}
	}
	h.Tests = tests
	h.reindex()
}

// Trim keeps the newest keep runs (none when keep < 1), dropping the tests
// none of them had.
func (h *History) Trim(keep int) {
	drop := len(h.Runs) - max(keep, 0)
	if drop <= 0 {
		return
	}
	h.Runs = slices.Delete(h.Runs, 0, drop)
	tests := h.Tests[:0]
	for _, t := range h.Tests {
		t.Results = slices.Delete(t.Results, 0, drop)
		if slices.ContainsFunc(t.Results, Result.Present) {
			tests = append(tests, t)
		}
	}
	clear(h.Tests[len(tests):])
	h.Tests = tests
	h.reindex()
}
