package assertion

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

func maxDuration(r *Result, limit int64, s trace.Scope) {
	took := s.DurationMs()
	r.Expected = fmt.Sprintf("at most %d ms", limit)
	r.Observed = fmt.Sprintf("%d ms", took)
	if took <= limit {
		r.set(status.Pass, "%s took %d ms (limit %d ms)", s.Name, took, limit)
		return
	}
	r.set(status.Fail, "%s took %d ms, over the limit of %d ms by %d ms", s.Name, took, limit, took-limit)
}

// maxIdle checks the largest gap without tool activity in each turn of the
// scope: start to first call, between calls, last call to end. A call's
// point in time is its completion (result, or TOOL_CALL_END).
func maxIdle(r *Result, limit int64, s trace.Scope) {
	var worst *Gap
	for i := range s.Turns {
		if g := largestGap(&s.Turns[i]); worst == nil || g.ToMs-g.FromMs > worst.ToMs-worst.FromMs {
			worst = &g
		}
	}
	r.Expected = fmt.Sprintf("no idle gap over %d ms", limit)
	if worst == nil {
		r.Observed = "no turns"
		r.set(status.Pass, "no turns to check")
		return
	}
	gap := worst.ToMs - worst.FromMs
	r.Observed = fmt.Sprintf("%d ms idle from %s to %s", gap, worst.From, worst.To)
	r.Evidence = []Evidence{{Note: "longest idle gap", Gap: worst}}
	if gap <= limit {
		r.set(status.Pass, "longest idle gap %d ms (limit %d ms)", gap, limit)
		return
	}
	r.set(status.Fail, "idle for %d ms from %s to %s, over the limit of %d ms", gap, worst.From, worst.To, limit)
}

func largestGap(t *trace.Turn) Gap {
	type point struct {
		ms    int64
		label string
	}
	pts := []point{{t.StartMs, "turn start"}}
	for _, c := range t.ToolCalls {
		ms := c.TimestampMs
		if ms == 0 { // never completed: its start is the last activity seen
			ms = c.StartedMs
		}
		pts = append(pts, point{ms, fmt.Sprintf("call %s (%s)", c.ID, c.Name)})
	}
	slices.SortStableFunc(pts[1:], func(a, b point) int { return cmp.Compare(a.ms, b.ms) })
	pts = append(pts, point{t.EndMs, "turn end"})
	var best Gap
	for i := 1; i < len(pts); i++ {
		if d := pts[i].ms - pts[i-1].ms; i == 1 || d > best.ToMs-best.FromMs {
			best = Gap{FromMs: pts[i-1].ms, ToMs: pts[i].ms, From: pts[i-1].label, To: pts[i].label}
		}
	}
	return best
}
