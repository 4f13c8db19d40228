package console

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
)

// snapshotSummary prints what the run did with snapshots, when it did
// anything (docs/snapshots.md):
// "Snapshots: 2 written, 1 updated, 1 failed, 3 obsolete (run with -u to remove)".
func (p *printer) snapshotSummary(r *report.Report) {
	s := r.Snapshots
	if s == nil {
		return
	}
	var parts []string
	if s.Written > 0 {
		parts = append(parts, fmt.Sprintf("%d written", s.Written))
	}
	if s.Updated > 0 {
		parts = append(parts, fmt.Sprintf("%d updated", s.Updated))
	}
	if s.Failed > 0 {
		parts = append(parts, p.o.paint(string(status.Fail), fmt.Sprintf("%d failed", s.Failed)))
	}
	if s.Obsolete > 0 {
		parts = append(parts, fmt.Sprintf("%d obsolete (run with -u to remove)", s.Obsolete))
	}
	if s.Removed > 0 {
		parts = append(parts, fmt.Sprintf("%d obsolete removed", s.Removed))
	}
	if len(parts) > 0 {
		p.line(0, "Snapshots: "+strings.Join(parts, ", "))
	}
}
