package html_test

import (
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/trace"
)

// TestEventRefsResolve: every event a failing (or warning) assertion or its
// evidence points at, and that its trace holds, is in the page — so every
// evidence link of the page jumps somewhere. The synthetic suite's
// references all name events of their trace, so none is skipped there.
func TestEventRefsResolve(t *testing.T) {
	for _, tc := range []struct {
		name     string
		r        *report.Report
		complete bool // every reference names an event of the trace
	}{
		{"fixture", fixture(), false},
		{"synthetic", synthetic(120), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := decode(t, render(t, tc.r))
			checked := 0
			for i, pt := range p.Tests {
				inTrace := traceSeqs(t, tc.r.Tests[i].Trace)
				inPage := map[int64]bool{}
				for _, tu := range pt.Turns {
					for _, e := range tu.Events {
						inPage[decodeEvent(t, e).Seq] = true
					}
				}
				for _, a := range pt.Assertions {
					if a.Status == "pass" || a.Status == "skip" {
						continue
					}
					refs := append(report.Refs(nil), a.Refs...)
					for _, e := range a.Evidence {
						refs = append(refs, e.Refs...)
					}
					for _, seq := range refs {
						switch {
						case inPage[seq]:
							checked++
						case inTrace[seq] || tc.complete:
							t.Errorf("%s: %s points at event %d, which the page lacks", pt.ID, a.ID, seq)
						}
					}
				}
			}
			if checked == 0 {
				t.Error("no reference checked")
			}
		})
	}
}

// traceSeqs returns the sequence numbers of a trace's events.
func traceSeqs(t *testing.T, tr *trace.Trace) map[int64]bool {
	t.Helper()
	seqs := map[int64]bool{}
	if tr == nil {
		return seqs
	}
	for i := range tr.Turns {
		tr.Turns[i].EachEvent(func(seq int64, _ string) { seqs[seq] = true })
	}
	return seqs
}
