package checks

import (
	"github.com/ananke/action/internal/github"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/internal/format"
)

// Blame (docs/history.md#blame-in-the-pull-request) in the check run,
// when the report was read against the base branch's history: the title
// counts the failures by the history's verdict, and each annotation of a
// failing test ends with its verdict.

// blameTitle adds the verdicts to the title: "2 failed of 6 tests (1 new
// failure, 1 known flaky on main)".
func blameTitle(r *report.Report, s string) string {
	if c := format.BlameCounts(r); c != "" {
		return s + " (" + c + ")"
	}
	return s
}

// blamed ends each annotation of a failing test but its notices with the
// history's verdict on it: "History: known flaky on main (fails 4 of the
// last 20); p = 0.24, within noise".
func blamed(out []github.Annotation, r *report.Report, t *report.Test) []github.Annotation {
	words := format.Blame(r.History, t.History)
	if words == "" || !t.Status.Failed() {
		return out
	}
	for i := range out {
		if out[i].Level != github.LevelNotice {
			out[i].Message += "\nHistory: " + words
		}
	}
	return out
}
