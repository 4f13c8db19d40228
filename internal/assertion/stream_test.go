package assertion

import (
	"testing"

	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// runAt is a run whose request went out at startMs and whose first event
// (sequence number firstSeq) arrived at firstMs; firstMs 0: no event.
func runAt(startMs, firstMs, firstSeq int64) trace.Run {
	r := trace.Run{StartMs: startMs, FirstEventMs: firstMs, FirstSeq: firstSeq}
	if firstMs > 0 {
		r.Frames = 3
	}
	return r
}

func turnWithRuns(index int, runs ...trace.Run) trace.Turn {
	t := turnOf("")
	t.Index, t.Runs = index, runs
	return t
}

func TestMaxFirstEvent(t *testing.T) {
	limit := func(ms int64) Check { return Check{Kind: KindMaxFirstEvent, Payload: Limit{Set: true, Ms: ms}} }
	quick := scopeOf(turnWithRuns(0, runAt(1000, 1300, 1)))
	followUp := scopeOf(turnWithRuns(0, runAt(1000, 1300, 1), runAt(1500, 3800, 9)))
	silent := scopeOf(turnWithRuns(0, runAt(1000, 1300, 1), runAt(1500, 0, 0)))
	test := trace.Trace{Turns: []trace.Turn{turnWithRuns(0, runAt(1000, 1100, 1)), turnWithRuns(1, runAt(2000, 2900, 7))}}
	runCases(t, []evalCase{
		{"within", limit(2000), quick, status.Pass, "turn[0]: the first event came 300 ms after the request (run 1), within the limit of 2000 ms"},
		{"at the limit", limit(300), quick, status.Pass, ""},
		{"no runs", limit(2000), scopeOf(turnOf("")), status.Pass, "no runs to time in turn[0]"},
		{"slowest turn of the test", limit(500), test.TestScope(), status.Fail, "turn[1]: the first event came 900 ms after the request (run 1)"},
	})
	runExact(t, []exactCase{
		{"follow-up run slow", limit(2000), followUp, status.Fail, "turn[0]: the first event came 2300 ms after the request (run 2), over the limit of 2000 ms"},
		{"a run without events", limit(2000), silent, status.Fail, "turn[0]'s run 2 got no event"},
	})
	r := evalOne(t, limit(2000), followUp)
	if len(r.EventRefs) != 1 || r.EventRefs[0] != 9 {
		t.Errorf("EventRefs = %v; want the slow run's first event [9]", r.EventRefs)
	}
}

func TestMaxFirstText(t *testing.T) {
	limit := func(ms int64) Check { return Check{Kind: KindMaxFirstText, Payload: Limit{Set: true, Ms: ms}} }
	texted := func(index int, firstMs, seq int64, runs ...trace.Run) trace.Turn {
		tt := turnWithRuns(index, runs...)
		tt.Texts, tt.FirstTextMs, tt.FirstTextSeq = []string{"hi"}, firstMs, seq
		return tt
	}
	// The text came in the follow-up run; it is timed from the first request.
	late := scopeOf(texted(0, 1800, 12, runAt(1000, 1100, 1), runAt(1500, 1600, 10)))
	noRuns := scopeOf(texted(0, 1250, 2))
	test := trace.Trace{Turns: []trace.Turn{texted(0, 1200, 2, runAt(1000, 1100, 1)), turnWithRuns(1, runAt(3000, 3100, 5))}}
	runCases(t, []evalCase{
		{"within", limit(1000), late, status.Pass, "turn[0]: the first text came 800 ms after the request, within the limit of 1000 ms"},
		{"no text", limit(1), scopeOf(turnWithRuns(0, runAt(1000, 1100, 1))), status.Pass, "no assistant text in turn[0]; no first text to time"},
		{"no runs: from the turn start", limit(200), noRuns, status.Fail, "came 250 ms after the request"},
		{"turns without text are skipped", limit(1000), test.TestScope(), status.Pass, "turn[0]: the first text came 200 ms"},
	})
	runExact(t, []exactCase{
		{"slow", limit(500), late, status.Fail, "turn[0]: the first text came 800 ms after the request, over the limit of 500 ms"},
	})
	r := evalOne(t, limit(500), late)
	if len(r.EventRefs) != 1 || r.EventRefs[0] != 12 {
		t.Errorf("EventRefs = %v; want the first text event [12]", r.EventRefs)
	}
}
