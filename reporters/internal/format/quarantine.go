package format

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/report"
)

// QuarantineCounts says, in every output's words, what the quarantined
// tests did and that it fails nothing (docs/history.md#quarantine): "1
// failed, 1 errored, not failing the run"; flaky and inconclusive ones are
// counted, and fail nothing only under fail-on-flaky and
// fail-on-inconclusive; "all passed", "1 passed, 1 skipped", "none ran"
// when nothing would have failed.
func QuarantineCounts(r *report.Report) string {
	q := r.Totals.Quarantine()
	var parts []string
	for _, c := range []struct {
		n    int
		what string
	}{{q.Failed, "failed"}, {q.Errored, "errored"}, {q.Flaky, "flaky"}, {q.Inconclusive, "inconclusive"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	switch {
	case QuarantineSpared(r):
		parts = append(parts, "not failing the run")
	case len(parts) > 0:
	case q.Skipped == q.Tests:
		parts = append(parts, "none ran")
	case q.Skipped > 0:
		parts = append(parts, fmt.Sprintf("%d passed, %d skipped", q.Passed, q.Skipped))
	default:
		parts = append(parts, "all passed")
	}
	return strings.Join(parts, ", ")
}

// QuarantineSpared reports whether a quarantined test did what would have
// failed the run (or errored it) had it not been quarantined.
func QuarantineSpared(r *report.Report) bool {
	q := r.Totals.Quarantine()
	return q.Failed > 0 || q.Errored > 0 || r.FailOnFlaky && q.Flaky > 0 || r.FailOnInconclusive && q.Inconclusive > 0
}

// QuarantineEntry names a quarantine entry's extras and place: "until
// 2026-12-31, @payments, https://…/42, ananke.config.yaml:12".
func QuarantineEntry(q *report.Quarantined) string {
	var parts []string
	if q.Until != "" {
		parts = append(parts, "until "+q.Until)
	}
	for _, s := range []string{q.Owner, q.Issue} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(append(parts, fmt.Sprintf("%s:%d", q.Source.File, q.Source.Line)), ", ")
}

// Advice says what a piece of quarantine advice suggests for a test,
// named by name: "quarantine search finds shoes", "release weather in
// Paris from quarantine".
func Advice(a report.QuarantineAdvice, name string) string {
	if a.Action == report.AdviseRelease {
		return "release " + name + " from quarantine"
	}
	return a.Action + " " + name
}

// TestName is the name of the report's test id, or the id when the report
// has no such test.
func TestName(r *report.Report, id string) string {
	for i := range r.Tests {
		if r.Tests[i].ID == id {
			return r.Tests[i].Name
		}
	}
	return id
}
