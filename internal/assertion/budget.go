package assertion

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// maxEvidence bounds the calls a result lists as evidence, so that a
// runaway agent does not make a runaway report.
const maxEvidence = 20

// maxCalls passes when the scope made at most limit tool calls, client and
// backend alike. A failure shows the calls beyond the limit, in the order
// they started.
func maxCalls(r *Result, limit int64, s trace.Scope) {
	calls := s.ToolCalls()
	n := len(calls)
	r.Expected = "at most " + plural.Count(int(limit), "tool call")
	r.Observed = plural.Count(n, "tool call")
	if int64(n) <= limit {
		r.set(status.Pass, "%s made %s (limit %d)", s.Name, plural.Count(n, "tool call"), limit)
		return
	}
	var over []string
	from := int(max(limit, 0)) // a negative limit (never loaded) allows nothing
	for i := from; i < n; i++ {
		c := &calls[i]
		if len(over) < maxReasons {
			over = append(over, fmt.Sprintf("%s (`%s`)", callRef(c), c.Name))
		}
		if len(r.Evidence) < maxEvidence {
			r.Evidence = append(r.Evidence, Evidence{Note: fmt.Sprintf("call %d, beyond the limit of %d", i+1, limit), Call: c})
		}
	}
	if extra := n - from; extra > maxReasons {
		over = append(over, fmt.Sprintf("%d more", extra-maxReasons))
	}
	r.set(status.Fail, "%s made %s, over the limit of %d: %s", s.Name, plural.Count(n, "tool call"), limit, strings.Join(over, ", "))
}

// stopAfterSuccess finds the first call (by start) to f's tool that
// succeeds: its arguments pass args_match and its result passes
// result_match, or, without result_match, it got a result that reports no
// error. Once that success is known (its result arrived), no other tool
// call may start in the scope; calls started alongside it, before its
// result, are not after it. Without a success there is nothing to check,
// and the check passes.
func stopAfterSuccess(r *Result, f *CallFilter, s trace.Scope) {
	name := f.Name.Value
	filters := describeCallFilter(f)
	r.Expected = fmt.Sprintf("no tool call after the first successful call to `%s`%s", name, filters)
	calls := s.ToolCalls()
	k := -1
	for i := range calls {
		if calls[i].Name == name && succeeded(&calls[i], f) && (k < 0 || startsBefore(calls, i, k)) {
			k = i
		}
	}
	if k < 0 {
		r.Observed = fmt.Sprintf("no successful call to `%s`", name)
		r.set(status.Pass, "`%s` never succeeded in %s; nothing to check", name, s.Name)
		return
	}
	ok := &calls[k]
	done := completedAt(s, ok)
	r.Evidence = []Evidence{{Note: "the success", Call: ok}}
	var after []string
	n := 0
	for i := range calls {
		if i == k || !startsAfter(calls, i, k, done) {
			continue
		}
		n++
		if len(after) < maxReasons {
			after = append(after, fmt.Sprintf("%s (`%s`)", callRef(&calls[i]), calls[i].Name))
		}
		if len(r.Evidence) <= maxEvidence {
			r.Evidence = append(r.Evidence, Evidence{Note: "started after the success", Call: &calls[i]})
		}
	}
	r.Observed = fmt.Sprintf("%s after the success", plural.Count(n, "call"))
	if n == 0 {
		r.set(status.Pass, "no tool call started after `%s` succeeded (%s)", name, callRef(ok))
		return
	}
	if n > maxReasons {
		after = append(after, fmt.Sprintf("%d more", n-maxReasons))
	}
	r.set(status.Fail, "`%s` succeeded (%s), but %s started after it: %s", name, callRef(ok), plural.Count(n, "tool call"), strings.Join(after, ", "))
}

// moment is a point in a trace: an event's sequence number when known,
// else its receive time.
type moment struct{ seq, ms int64 }

// completedAt is when a call's success became known: its TOOL_CALL_RESULT,
// or for a client tool Ananke answered after the run, the start of the
// follow-up run that carried the answer (else its TOOL_CALL_END, else its
// start). Calls the agent started before then, alongside the call, are not
// "after" its success.
func completedAt(s trace.Scope, c *trace.ToolCall) moment {
	m := moment{seq: c.StartSeq, ms: c.StartedMs}
	switch {
	case c.ResultSeq > 0:
		m.seq = c.ResultSeq
	case c.Client && c.StartSeq > 0:
		m.seq = max(c.EndSeq, c.StartSeq)
		for i := range s.Turns {
			for _, run := range s.Turns[i].Runs {
				if run.FirstSeq > m.seq {
					m.seq = run.FirstSeq - 1
					return m
				}
			}
		}
	case c.EndSeq > 0:
		m.seq = c.EndSeq
	}
	if c.TimestampMs > 0 {
		m.ms = c.TimestampMs
	}
	return m
}

// startsAfter reports whether calls[i] started after calls[k] succeeded at
// done: by sequence numbers when both are known, else by time, else by
// their order in the trace.
func startsAfter(calls []trace.ToolCall, i, k int, done moment) bool {
	c := &calls[i]
	switch {
	case done.seq > 0 && c.StartSeq > 0:
		return c.StartSeq > done.seq
	case c.StartedMs != done.ms:
		return c.StartedMs > done.ms
	}
	return i > k
}

func succeeded(c *trace.ToolCall, f *CallFilter) bool {
	if argsMismatch(c, f.ArgsMatch) != "" {
		return false
	}
	if f.ResultMatch != nil {
		return resultMismatch(c, f.ResultMatch, true) == ""
	}
	return c.Result != nil && c.Result.Error == ""
}
