package assertion

import (
	"slices"

	"github.com/ananke/action/internal/status"
)

// Failure categories (docs/reports.md): what kind of thing went wrong,
// derived from the kinds of the failing checks.
const (
	CategoryProcess      = "process"      // which tools, how often, in what order
	CategoryOutcome      = "outcome"      // what the reply says
	CategoryFormat       = "format"       // the reply's JSON shape
	CategoryGroundedness = "groundedness" // claims the test never supplied
	CategoryState        = "state"        // the agent state
	CategoryMemory       = "memory"       // memory reads and writes, a group's isolation
	CategoryScheduler    = "scheduler"    // a scheduled task's runs and messages
	CategoryTiming       = "timing"       // durations and stream latency
	CategoryCost         = "cost"         // tokens and money over a budget
	CategoryProtocol     = "protocol"     // RUN_ERROR, broken streams
	CategoryJudgment     = "judgment"     // criteria a judge model found unmet
	CategoryScript       = "script"       // a script assertion the user wrote
)

// Categories lists every category, in the order reports show them.
var Categories = []string{CategoryProcess, CategoryOutcome, CategoryFormat, CategoryGroundedness, CategoryState, CategoryMemory, CategoryScheduler, CategoryTiming, CategoryCost, CategoryProtocol, CategoryJudgment, CategoryScript}

// Category is the failure category of an assertion kind, the built-in
// ones included ("" for a kind Ananke does not know).
func Category(k Kind) string {
	if d := Lookup(k); d != nil {
		return d.Category
	}
	return builtinCategories[k]
}

// FailureCategories lists, in Categories' order, the categories of the
// results that failed (warnings are not failures).
func FailureCategories(rs []Result) []string {
	set := map[string]bool{}
	for _, r := range rs {
		if r.Status == status.Fail {
			set[Category(r.Kind)] = true
		}
	}
	out := []string{}
	for _, c := range Categories {
		if set[c] {
			out = append(out, c)
		}
	}
	return slices.Clip(out)
}
