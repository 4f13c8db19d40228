package assertion

import (
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/trace"
)

// Status is an assertion's outcome.
type Status string

// Statuses.
const (
	Pass Status = "pass"
	Fail Status = "fail"
	// Skip means the check was not evaluated, e.g. because an earlier turn
	// failed and the test stopped.
	Skip Status = "skip"
)

// Result is the outcome of one check.
type Result struct {
	ID       string
	Level    spec.Level
	Kind     spec.Kind
	Scope    string // "turn[N]" or "test"
	Source   spec.Pos
	Status   Status
	Message  string
	Expected string
	Observed string
	Evidence []Evidence
}

// Evidence is one thing that supports a result: a tool call, a text
// excerpt, or an idle gap, with a note saying what it shows.
type Evidence struct {
	Note string
	Call *trace.ToolCall
	// Text is an excerpt of the assistant text around a match.
	Text string
	// Gap is an idle interval.
	Gap *Gap
}

// Gap is an interval without tool activity inside a turn.
type Gap struct {
	FromMs, ToMs int64
	From, To     string // "turn start", "call c1 (search)", "turn end"
}

// Failed reports whether any result failed.
func Failed(rs []Result) bool {
	for _, r := range rs {
		if r.Status == Fail {
			return true
		}
	}
	return false
}

// Skipped returns a skip result for each check, for checks that were never
// evaluated.
func Skipped(checks []spec.Check, scope, reason string) []Result {
	out := make([]Result, len(checks))
	for i, c := range checks {
		out[i] = newResult(c, scope)
		out[i].Status = Skip
		out[i].Message = reason
	}
	return out
}

func newResult(c spec.Check, scope string) Result {
	return Result{ID: c.ID, Level: c.Level, Kind: c.Kind, Scope: scope, Source: c.Pos}
}
