package assertion

import (
	"fmt"

	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// maxFirstEvent bounds, for every run of every turn in the scope, the time
// from sending the request (Run.StartMs) to receiving the first event
// (Run.FirstEventMs). The slowest run must be within limit; a run that got
// no event at all fails, since its latency is unbounded.
func maxFirstEvent(r *Result, limit int64, s trace.Scope) {
	r.Expected = fmt.Sprintf("the first event within %d ms of each request", limit)
	var worst *Evidence
	var worstMs int64
	var where string
	for i := range s.Turns {
		for j, run := range s.Turns[i].Runs {
			name := fmt.Sprintf("%s's run %d", turnLabel(s, i), j+1)
			if run.FirstEventMs == 0 {
				r.Observed = "no event in " + name
				r.Evidence = []Evidence{{Note: name + " got no event"}}
				r.set(status.Fail, "%s got no event", name)
				return
			}
			if wait := run.FirstEventMs - run.StartMs; worst == nil || wait > worstMs {
				worstMs, where = wait, fmt.Sprintf("%s: the first event came %d ms after the request (run %d)", turnLabel(s, i), wait, j+1)
				worst = &Evidence{Note: fmt.Sprintf("first event of %s, %d ms after the request", name, wait), EventRefs: seqRef(run.FirstSeq)}
			}
		}
	}
	if worst == nil {
		r.Observed = "no runs"
		r.set(status.Pass, "no runs to time in %s", s.Name)
		return
	}
	judgeWait(r, worst, worstMs, where, limit)
}

// judgeWait sets the result of a latency check from its worst wait.
func judgeWait(r *Result, worst *Evidence, worstMs int64, where string, limit int64) {
	r.Observed = fmt.Sprintf("%d ms", worstMs)
	r.Evidence = []Evidence{*worst}
	if worstMs <= limit {
		r.set(status.Pass, "%s, within the limit of %d ms", where, limit)
		return
	}
	r.set(status.Fail, "%s, over the limit of %d ms", where, limit)
}

// maxFirstText bounds, for each turn in the scope, the time from sending
// the turn's first request to receiving its first assistant text
// (Turn.FirstTextMs), follow-up runs included. A turn that sent no text has
// nothing to time and passes: whether there should be text is for the text
// checks to say.
func maxFirstText(r *Result, limit int64, s trace.Scope) {
	r.Expected = fmt.Sprintf("the first assistant text within %d ms of the turn's first request", limit)
	var worst *Evidence
	var worstMs int64
	var where string
	for i := range s.Turns {
		t := &s.Turns[i]
		if t.FirstTextMs == 0 {
			continue
		}
		sent := t.StartMs
		if len(t.Runs) > 0 {
			sent = t.Runs[0].StartMs
		}
		if wait := t.FirstTextMs - sent; worst == nil || wait > worstMs {
			worstMs, where = wait, fmt.Sprintf("%s: the first text came %d ms after the request", turnLabel(s, i), wait)
			worst = &Evidence{Note: fmt.Sprintf("first text of %s, %d ms after the request", turnLabel(s, i), wait), EventRefs: seqRef(t.FirstTextSeq)}
		}
	}
	if worst == nil {
		r.Observed = "no assistant text"
		r.set(status.Pass, "no assistant text in %s; no first text to time", s.Name)
		return
	}
	judgeWait(r, worst, worstMs, where, limit)
}

func seqRef(seq int64) []int64 {
	if seq <= 0 {
		return nil
	}
	return []int64{seq}
}
