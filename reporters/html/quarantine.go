package html

import (
	"fmt"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/internal/format"
)

// Quarantine (docs/history.md#quarantine) on the page, in the words the
// other outputs use: the run's header counts the quarantined tests and
// says they fail nothing, and gives the advice about the quarantine list;
// a quarantined test is flagged in the list and its view, which says its
// entry and, when it passed every attempt, that it was stable in this run.

// quarantine is a quarantined test's entry, for its view.
type quarantine struct {
	Reason string `json:"reason"`
	// Entry is the entry's extras and place: "until 2026-12-31, @payments,
	// https://…/42, ananke.config.yaml:12".
	Entry string `json:"entry"`
	// Stable: the test ran and passed every attempt in this run.
	Stable bool `json:"stable,omitempty"`
}

// quarantineOf is a test's entry for its view; nil when it is not
// quarantined.
func quarantineOf(t *report.Test) *quarantine {
	q := t.Quarantined
	if q == nil {
		return nil
	}
	return &quarantine{Reason: q.Reason, Entry: format.QuarantineEntry(q), Stable: q.StableInRun}
}

// quarantineTotalsText is the run's line: "3 (1 failed, 1 errored, not
// failing the run)"; "" when no test is quarantined.
func quarantineTotalsText(r *report.Report) string {
	q := r.Totals.Quarantined
	if q == nil {
		return ""
	}
	return fmt.Sprintf("%d (%s)", q.Tests, format.QuarantineCounts(r))
}

// adviceTexts are the advice about the quarantine list, a line each:
// "Suggested: quarantine search finds shoes: fails 6 of the last 20 runs
// on main".
func adviceTexts(r *report.Report) []string {
	var out []string
	for _, a := range r.QuarantineAdvice {
		out = append(out, "Suggested: "+format.Advice(a, format.TestName(r, a.Test))+": "+a.Reason)
	}
	return out
}
