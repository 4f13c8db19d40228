package checks

import (
	"github.com/ananke/action/internal/github"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
)

// budget annotates each bound of the config's run budget (docs/cost.md)
// at its line in the config: a failure for a bound the run exceeded — it
// failed the run, whatever its tests did — and a warning for one that
// could not be checked. A bound kept says nothing.
func budget(out []github.Annotation, r *report.Report) []github.Annotation {
	if r.Budget == nil {
		return out
	}
	for _, l := range r.Budget.Limits {
		a := github.Annotation{Path: l.Source.File, Line: max(l.Source.Line, 1), Message: l.Message}
		switch l.Status {
		case status.Fail:
			a.Level, a.Title = github.LevelFailure, "run budget exceeded: "+l.Name
		case status.Skip:
			a.Level, a.Title = github.LevelWarning, "run budget not checked: "+l.Name
		default:
			continue
		}
		out = appendIn(out, a)
	}
	return out
}
