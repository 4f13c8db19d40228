package markdown

import (
	"strings"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/format"
)

// What the agent used (docs/cost.md): in a run where some test's agent
// reported usage, the totals and the table of tests get a Cost column —
// "5k tokens · $0.0036", "10.2k tokens · cost unknown", "≥ 4.5k tokens (1
// of 3 unreported)", "—" for a test whose agent reported none, nothing
// for a skipped test. A run without usage keeps its tables as they were.

// costHead adds the Cost column to a table head (its two lines).
func costHead(head string) string {
	name, align, _ := strings.Cut(strings.TrimSuffix(head, "\n"), "\n")
	return name + " Cost |\n" + align + "---|\n"
}

// withCost adds a test's cost cell to its row.
func withCost(row string, t *report.Test) string {
	cell := ""
	if t.Status != status.Skipped {
		cell = text(format.Usage(t))
		if t.Usage == nil {
			cell = "—"
		}
	}
	return strings.TrimSuffix(row, "\n") + " " + cell + " |\n"
}

// totalCost adds the run's Cost column to the totals table.
func totalCost(table string, r *report.Report) string {
	lines := strings.SplitN(table, "\n", 4)
	return lines[0] + " Cost |\n" + lines[1] + "---|\n" + lines[2] + " " + text(format.Total(r)) + " |\n\n"
}
