package checks

import (
	"fmt"

	"github.com/ananke/action/internal/github"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/internal/format"
)

// Quarantine (docs/history.md#quarantine) in the check run: its
// conclusion and title follow the tests not quarantined; a quarantined
// test's annotations are warnings, their titles marked, and one more at
// its quarantine entry says what the entry spared the run.

// quarantineTitle adds the quarantined tests to the title: "…, 3
// quarantined (1 failed, not failing the run)"; when every test is
// quarantined they are the title: "3 quarantined tests (…)".
func quarantineTitle(r *report.Report, s string) string {
	q := r.Totals.Quarantined
	switch {
	case q == nil:
		return s
	case r.Totals.Counted().Total == 0:
		return fmt.Sprintf("%s (%s)", plural.Count(q.Tests, "quarantined test"), format.QuarantineCounts(r))
	}
	return s + fmt.Sprintf(", %d quarantined (%s)", q.Tests, format.QuarantineCounts(r))
}

// quarantined makes a quarantined test's annotations warnings, which fail
// no check run, their titles marked, and adds a notice at its entry when
// it failed or errored.
func quarantined(out []github.Annotation, t *report.Test) []github.Annotation {
	q := t.Quarantined
	if q == nil {
		return out
	}
	for i := range out {
		if out[i].Level == github.LevelFailure {
			out[i].Level = github.LevelWarning
		}
		out[i].Title = format.Short("(quarantined) "+out[i].Title, maxTitle)
	}
	if !t.Status.Failed() {
		return out
	}
	msg := fmt.Sprintf("%s %s; quarantined: %s (%s), so it fails nothing", t.Name, what(t), q.Reason, format.QuarantineEntry(q))
	return appendIn(out, github.Annotation{Path: q.Source.File, Line: max(q.Source.Line, 1), Level: github.LevelNotice,
		Title: "quarantined: " + t.Name, Message: msg})
}

// what says what a failed or errored test did: "failed (2 failed
// assertions)", "errored".
func what(t *report.Test) string {
	if n := len(t.Failed()); n > 0 {
		return "failed (" + plural.Count(n, "failed assertion") + ")"
	}
	return string(t.Status) + "ed"
}
