package engine

import (
	"time"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/trace"
)

// Status is a test's outcome (design §5).
type Status string

// Test statuses.
const (
	Pass Status = "pass"
	// Fail: an assertion (or a built-in check) failed.
	Fail Status = "fail"
	// Error: a hook, the transport or Ananke itself failed; the agent's
	// behaviour could not be judged.
	Error   Status = "error"
	Skipped Status = "skipped"
)

// TestResult is everything known about one test after it ran.
type TestResult struct {
	Test   *spec.Test
	Status Status
	// Reason says in one line why a test errored or was skipped.
	Reason string
	// ReasonPos is where the cause is written, when a file position is
	// known (a hook, an unresolved variable, the turn whose run failed).
	ReasonPos spec.Pos
	// Detail holds more about an error, e.g. a hook's stderr.
	Detail   string
	Results  []assertion.Result
	Warnings []Warning
	Trace    *trace.Trace
	// Secrets are values to mask in every output: environment variables
	// read through ${ENV.*} and every header value.
	Secrets    []string
	Start, End time.Time
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
	Tests      []*TestResult // in the suite's order
	Start, End time.Time
}
