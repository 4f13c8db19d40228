package assertion

import (
	"fmt"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// taskRuns counts the scheduled task's recorded runs (of one status, when
// given) against the entry's count.
func taskRuns(r *Result, c *Counted, s trace.Scope) {
	var sch *trace.Scheduler
	if s.Source != nil {
		sch = s.Source.Scheduler
	}
	what := "run"
	if c.Status != "" {
		what = c.Status + " run"
	}
	r.Expected = countOf(c.Count, what) + " of the scheduled task"
	if sch == nil {
		r.Observed = "no scheduled task"
		r.set(status.Fail, "the trace's run was not triggered by a scheduled task (the test's source names no task)")
		return
	}
	n := 0
	for i := range sch.Runs {
		run := &sch.Runs[i]
		if c.Status != "" && run.Status != c.Status {
			continue
		}
		n++
		if len(r.Evidence) < maxEvidence {
			e := Evidence{Note: fmt.Sprintf("task run at %s: %s in %d ms", run.RunAt, run.Status, run.DurationMs)}
			if run.Seq > 0 {
				e.EventRefs = []int64{run.Seq}
			}
			switch {
			case run.Error != "":
				e.Text = shorten(run.Error, excerptLen)
			case run.Result != "":
				e.Text = shorten(run.Result, excerptLen)
			}
			r.Evidence = append(r.Evidence, e)
		}
	}
	r.Observed = plural.Count(n, what)
	if c.Count.Allows(n) {
		r.set(status.Pass, "task %s has %s", sch.TaskID, plural.Count(n, what))
		return
	}
	r.set(status.Fail, "task %s has %s; expected %s (%s recorded in all)", sch.TaskID, plural.Count(n, what), countOf(c.Count, what), plural.Count(len(sch.Runs), "run"))
}

// countOf says a count of things: "exactly 1 run", "at least 2 outbound
// messages", "at most 3 runs", "between 1 and 3 runs".
func countOf(c Count, noun string) string {
	switch {
	case c.Exact || c.Min == c.Max:
		return "exactly " + plural.Count(int(c.Min), noun)
	case c.Max < 0:
		return "at least " + plural.Count(int(c.Min), noun)
	case c.Min == 0:
		return "at most " + plural.Count(int(c.Max), noun)
	}
	return fmt.Sprintf("between %d and %s", c.Min, plural.Count(int(c.Max), noun))
}

// outbound counts the messages sent out in the scope (matching the
// entry's regex, when given) against its count.
func outbound(r *Result, c *Counted, s trace.Scope) {
	// The noun is counted ("2 outbound messages"), the filter follows it.
	const noun = "outbound message"
	filter := ""
	if c.Match != nil {
		filter = fmt.Sprintf(" matching `%s`", c.Match.Raw)
	}
	r.Expected = countOf(c.Count, noun) + filter
	calls := callsByID(s)
	n, all := 0, 0
	for i := range s.Turns {
		for j := range s.Turns[i].Outbound {
			o := &s.Turns[i].Outbound[j]
			all++
			if c.Match != nil && !c.Match.Compiled().MatchString(o.Text) {
				continue
			}
			n++
			if len(r.Evidence) < maxEvidence {
				e := Evidence{Note: fmt.Sprintf("message %d sent to %s", n, orNone(o.To)), Text: shorten(o.Text, excerptLen), EventRefs: []int64{o.Seq}}
				if o.CallID != "" {
					e.Call = calls[o.CallID]
				} else {
					e.Note += " (the run's output)"
				}
				r.Evidence = append(r.Evidence, e)
			}
		}
	}
	r.Observed = plural.Count(n, noun) + filter
	if c.Count.Allows(n) {
		r.set(status.Pass, "%s sent %s", s.Name, r.Observed)
		return
	}
	r.set(status.Fail, "%s sent %s; expected %s (%s in all)", s.Name, r.Observed, r.Expected, plural.Count(all, noun))
}
