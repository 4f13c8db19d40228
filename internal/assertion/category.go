package assertion

import (
	"slices"

	"github.com/ananke/action/internal/spec"
)

// Failure categories (seed 004 §10's scorecard, in Ananke's words): what
// kind of thing went wrong, derived from the kinds of the failing checks.
const (
	CategoryProcess      = "process"      // which tools, how often, in what order
	CategoryOutcome      = "outcome"      // what the reply says
	CategoryFormat       = "format"       // the reply's JSON shape
	CategoryGroundedness = "groundedness" // claims the test never supplied
	CategoryState        = "state"        // the agent state
	CategoryTiming       = "timing"       // durations and stream latency
	CategoryProtocol     = "protocol"     // RUN_ERROR, broken streams
	CategoryJudgment     = "judgment"     // criteria a judge model found unmet
	CategoryScript       = "script"       // a script assertion the user wrote
)

// Categories lists every category, in the order reports show them.
var Categories = []string{CategoryProcess, CategoryOutcome, CategoryFormat, CategoryGroundedness, CategoryState, CategoryTiming, CategoryProtocol, CategoryJudgment, CategoryScript}

// categories maps each assertion kind, the built-in ones included, to its
// category.
var categories = map[spec.Kind]string{
	spec.KindForbid: CategoryProcess, spec.KindRequire: CategoryProcess, spec.KindForbidCalls: CategoryProcess,
	spec.KindOrder: CategoryProcess, spec.KindMaxCalls: CategoryProcess, spec.KindStopAfterSuccess: CategoryProcess,
	"client_tools":     CategoryProcess,
	spec.KindMustMatch: CategoryOutcome, spec.KindMustNotMatch: CategoryOutcome, spec.KindContains: CategoryOutcome,
	spec.KindOmits: CategoryOutcome, spec.KindEquals: CategoryOutcome,
	spec.KindJSONSchema: CategoryFormat, spec.KindJSONPath: CategoryFormat,
	spec.KindGrounded:    CategoryGroundedness,
	spec.KindState:       CategoryState,
	spec.KindMaxDuration: CategoryTiming, spec.KindMaxIdle: CategoryTiming,
	spec.KindMaxFirstEvent: CategoryTiming, spec.KindMaxFirstText: CategoryTiming,
	"run_error": CategoryProtocol, "protocol": CategoryProtocol,
	spec.KindResultMatch: CategoryOutcome, spec.KindResultNotMatch: CategoryOutcome, spec.KindResultIsError: CategoryOutcome,
	spec.KindResultJSONPath: CategoryFormat, spec.KindResultMaxDuration: CategoryTiming,
	spec.KindToolsListInclude: CategoryOutcome, spec.KindToolsListExclude: CategoryOutcome,
	spec.KindToolsListValidSchemas: CategoryFormat,
	spec.KindJudge:                 CategoryJudgment,
	spec.KindScript:                CategoryScript,
}

// Category is the failure category of an assertion kind ("" for a kind
// Ananke does not know).
func Category(k spec.Kind) string { return categories[k] }

// FailureCategories lists, in Categories' order, the categories of the
// results that failed (warnings are not failures).
func FailureCategories(rs []Result) []string {
	set := map[string]bool{}
	for _, r := range rs {
		if r.Status == Fail {
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
