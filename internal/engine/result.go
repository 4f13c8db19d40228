package engine

import (
	"time"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/backend"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/model"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// TestResult is everything known about one test after all its runs.
type TestResult struct {
	Test   *spec.Test
	Status status.Status
	// Reason says in one line why a test errored or was skipped, or why a
	// test run several times failed (its pass rate).
	Reason string
	// ReasonPos is where the cause is written, when a file position is
	// known (a hook, an unresolved variable, the turn whose run failed).
	ReasonPos diag.Pos
	// Detail holds more about an error, e.g. a hook's stderr.
	Detail string
	// Policy is how the test was run and judged; Verdict what came of it
	// (zero for a test that never ran).
	Policy  stability.Policy
	Verdict stability.Verdict
	// Attempts are the test's runs and their retries, ordered by run, then
	// retry. A skipped test, or one that could not start, has none.
	Attempts   []*Attempt
	Start, End time.Time
}

// Attempt is one execution of a test: its hooks, turns and assertions on a
// fresh thread.
type Attempt struct {
	// Run is the run's index (from 0); Retry counts the retries of that run
	// before this attempt (0 for the first try).
	Run, Retry int
	Status     status.Status
	Reason     string
	ReasonPos  diag.Pos
	Detail     string
	Results    []assertion.Result
	Warnings   []Warning
	Trace      *trace.Trace
	// Secrets are values to mask in every output: environment variables
	// read through ${ENV.*} and every header value.
	Secrets []string
	// Usage is what the attempt's judges and simulated user cost.
	Usage model.Usage
	// Checkpoints are a dynamic test's checkpoints and where each was
	// reached.
	Checkpoints []Checkpoint
	Start, End  time.Time
}

// Checkpoint is one checkpoint of a dynamic test after its attempt.
type Checkpoint struct {
	ID, Description string
	Pos             diag.Pos
	// ReachedAt is the turn it was reached at, -1 when it was not.
	ReachedAt int
}

// Shown is the attempt reports show in detail: for a failed test the first
// failing attempt (else the first erroring one), for a passed test the last
// passing attempt, for an errored test the first attempt. Nil when the test
// never ran.
func (r *TestResult) Shown() *Attempt {
	switch r.Status {
	case status.Fail:
		if a := r.first(status.Fail); a != nil {
			return a
		}
		return r.first(status.Error)
	case status.Pass:
		for i := len(r.Attempts) - 1; i >= 0; i-- {
			if r.Attempts[i].Status == status.Pass {
				return r.Attempts[i]
			}
		}
	}
	if len(r.Attempts) > 0 {
		return r.Attempts[0]
	}
	return nil
}

func (r *TestResult) first(s status.Status) *Attempt {
	for _, a := range r.Attempts {
		if a.Status == s {
			return a
		}
	}
	return nil
}

// Secrets are the values every attempt must have masked.
func (r *TestResult) Secrets() []string {
	var out []string
	for _, a := range r.Attempts {
		out = append(out, a.Secrets...)
	}
	return out
}

// Warning is a protocol deviation that did not fail the test.
type Warning struct {
	Turn    int
	Seq     int64 // the event's sequence number; 0 for the response as a whole
	Rule    string
	Message string
}

// Outcome is the result of a whole run.
type Outcome struct {
	Tests []*TestResult // in the suite's order
	// Followup are the results of the tests Options.Followup gave, in its
	// order; nil when it gave none.
	Followup []*TestResult
	// Hooks are the before_all and after_all hooks that ran, in order.
	Hooks []SuiteHook
	// Secrets are values the suite hooks and target.server read from the
	// environment.
	Secrets []string
	// Orphans are the requests to the backend no attempt took
	// (Options.Backend): the report warns of each.
	Orphans    []backend.Orphan
	Start, End time.Time
}

// HookFailed reports whether a before_all or after_all hook failed.
func (o *Outcome) HookFailed() bool {
	for _, h := range o.Hooks {
		if h.Error != "" {
			return true
		}
	}
	return false
}
