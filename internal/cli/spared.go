package cli

import (
	"fmt"
	"io"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/textsafe"
)

// spared is what the gates over a comparison — --fail-on-new,
// --fail-on-regression, --fail-on-cost-increase — let pass: a test
// quarantined in the head report fails none of them, as it fails no run
// (docs/history.md#quarantine), and each gate lists it instead, so that
// nothing is passed over silently.
type spared struct {
	w  io.Writer
	by map[string]*report.Quarantined // the head's quarantined tests, by id
}

// sparedBy is the head report's quarantine, listing to w; a nil head
// spares nothing.
func sparedBy(w io.Writer, head *report.Report) *spared {
	s := &spared{w: w, by: map[string]*report.Quarantined{}}
	if head != nil {
		for _, t := range head.QuarantinedTests() {
			s.by[t.ID] = t.Quarantined
		}
	}
	return s
}

// spares reports whether the test id is quarantined in the head report;
// if it is, it lists it under gate with what would have failed the step:
// "regression gate: not failing the step: search finds shoes is
// quarantined (the index is rebuilt nightly): …".
func (s *spared) spares(gate, id, name, what string) bool {
	q := s.by[id]
	if q == nil {
		return false
	}
	fmt.Fprintf(s.w, "%s: not failing the step: %s is quarantined (%s): %s\n", gate,
		textsafe.Visible(name, false), textsafe.Visible(q.Reason, false), what)
	return true
}
