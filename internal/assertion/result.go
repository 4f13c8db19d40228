package assertion

import (
	"slices"

	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// Result is the outcome of one check.
type Result struct {
	ID       string
	Level    Level
	Kind     Kind
	Scope    string // "turn[N]" or "test"
	Source   diag.Pos
	Severity Severity
	Status   status.Status
	Message  string
	Expected string
	Observed string
	Evidence []Evidence
	// EventRefs are the sequence numbers of the trace events the result
	// rests on: every evidence item's, in order, each once.
	EventRefs []int64
	// Judge is a judge check's answer (nil for every other kind, and for a
	// judge that gave no verdict).
	Judge *JudgeOutcome
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
	// EventRefs are the sequence numbers of the trace events this item
	// shows (a call's start, end and result are added from Call).
	EventRefs []int64
}

// Gap is an interval without tool activity inside a turn.
type Gap struct {
	FromMs, ToMs int64
	From, To     string // "turn start", "call c1 (search)", "turn end"
}

// Failed reports whether any result failed.
func Failed(rs []Result) bool {
	for _, r := range rs {
		if r.Status == status.Fail {
			return true
		}
	}
	return false
}

// Errored returns the first critical result that could not be evaluated.
func Errored(rs []Result) (Result, bool) {
	for _, r := range rs {
		if r.Status == status.Error && r.Severity != Warning {
			return r, true
		}
	}
	return Result{}, false
}

// New starts the result of check c over scope, for checks evaluated outside
// this package (judges); callers set the status and call Finish.
func New(c Check, scope string) Result { return newResult(c, scope) }

// Warned reports whether any result is a failing warning.
func Warned(rs []Result) bool {
	for _, r := range rs {
		if r.Status == status.Warn {
			return true
		}
	}
	return false
}

// Skipped returns a skip result for each check, for checks that were never
// evaluated.
func Skipped(checks []Check, scope, reason string) []Result {
	out := make([]Result, len(checks))
	for i, c := range checks {
		out[i] = newResult(c, scope)
		out[i].Status = status.Skip
		out[i].Message = reason
	}
	return out
}

func newResult(c Check, scope string) Result {
	sev := c.Severity
	if sev == "" {
		sev = Critical
	}
	return Result{ID: c.ID, Level: c.Level, Kind: c.Kind, Scope: scope, Source: c.Pos, Severity: sev}
}

// Finish applies the severity — a failing warning is a warning, not a
// failure — and gathers the evidence's event references.
func (r *Result) Finish() {
	if r.Status == status.Fail && r.Severity == Warning {
		r.Status = status.Warn
	}
	// One piece of evidence naming events in order, the common case (a
	// text check), is its own union: shared, not copied (a million deltas
	// are 8 MB of references).
	if len(r.Evidence) == 1 && r.Evidence[0].Call == nil && increasing(r.Evidence[0].EventRefs) {
		if r.EventRefs = r.Evidence[0].EventRefs; r.EventRefs == nil {
			r.EventRefs = []int64{} // a result names its events, none at least
		}
		return
	}
	// Sorted and compacted rather than deduplicated through a set: the
	// evidence of a text check may name a million events.
	n := 0
	for _, e := range r.Evidence {
		n += len(e.EventRefs) + 3
	}
	refs := make([]int64, 0, n)
	for _, e := range r.Evidence {
		if c := e.Call; c != nil {
			refs = append(refs, c.StartSeq, c.EndSeq, c.ResultSeq)
		}
		refs = append(refs, e.EventRefs...)
	}
	slices.Sort(refs)
	refs = slices.Compact(refs)
	for len(refs) > 0 && refs[0] <= 0 {
		refs = refs[1:]
	}
	r.EventRefs = slices.Clip(refs)
}

// increasing reports whether refs are positive and strictly increasing.
func increasing(refs []int64) bool {
	for i, r := range refs {
		if r <= 0 || i > 0 && r <= refs[i-1] {
			return false
		}
	}
	return true
}
