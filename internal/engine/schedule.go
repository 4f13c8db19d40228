package engine

import (
	"context"
	"fmt"
	"slices"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
)

// job is one attempt to make: run `run` of test `test`, after `retry`
// earlier attempts of that run.
type job struct{ test, run, retry int }

// done is a finished attempt.
type done struct {
	job
	attempt *Attempt
}

// testState follows one test through its attempts.
type testState struct {
	result  *TestResult
	runs    [][]*Attempt // per run, its attempts in order
	started bool
	// open counts the test's attempts queued or in flight; the test is
	// finished when it drops to zero.
	open int
	// dropped counts runs never attempted because the run was cancelled.
	dropped int
	// pending counts the runs started and not finished (a run awaiting a
	// retry is pending); passed and failed count the finished runs, by
	// their last attempt, for adaptive runs' stopping rule.
	pending, passed, failed int
}

// settled reports whether the test runs adaptively and its finished runs
// settle its verdict: no new run of it starts (adaptive.go).
func (st *testState) settled() bool {
	return st.result.Policy.Settled(st.passed, st.failed)
}

// scheduler runs attempts on up to Parallel workers. Tests start in the
// suite's order; every run of a test is queued when the test is, and a
// retry goes to the front of the queue, so a test finishes soon after it
// starts and its live line is not held back by later tests. An adaptive
// test's queued runs are held back while its verdict is settled, and
// dropped once its runs in flight finished and it is still settled. A
// test that must run alone (engine.alone: it uses Ananke's backend and
// the agent does not forward the attempt's token) runs one attempt at a
// time among such tests, while the others fill the remaining workers.
type scheduler struct {
	e       *engine
	tests   []*testState
	queue   []job
	results chan done
	running int
	// alone is set while an attempt of a test that must run alone is in
	// flight; aloneTests says which tests must.
	alone      bool
	aloneTests []bool
	// stopped, once set, is why no new test starts (--fail-fast).
	stopped string
	// attempt makes one attempt (the engine's runAttempt; tests replace it
	// to finish attempts in an order they choose).
	attempt func(ctx context.Context, t *spec.Test, run, retry int) *Attempt
}

func newScheduler(e *engine) *scheduler {
	s := &scheduler{e: e, results: make(chan done), attempt: e.runAttempt}
	for i, t := range e.opts.Suite.Tests {
		st := &testState{result: &TestResult{Test: t, Policy: e.policy(t)}}
		st.runs = make([][]*Attempt, st.result.Policy.Runs)
		for run := range st.result.Policy.Runs {
			s.queue = append(s.queue, job{test: i, run: run})
		}
		st.open = st.result.Policy.Runs
		s.tests = append(s.tests, st)
		s.aloneTests = append(s.aloneTests, e.alone(t))
	}
	return s
}

// run makes every attempt and fills out with each test's result.
func (s *scheduler) run(ctx context.Context, out []*TestResult) {
	for {
		for s.running < s.e.opts.Parallel {
			j, ok := s.next()
			if !ok {
				break
			}
			s.dispatch(ctx, j, out)
		}
		if s.running == 0 {
			break
		}
		d := <-s.results
		s.running--
		if s.aloneTests[d.test] {
			s.alone = false
		}
		s.record(ctx, d, out)
	}
}

// next takes the first queued job that may start: a retry, or a new run
// of a test whose verdict is not settled; of a test that must run alone,
// only while no other such attempt is in flight.
func (s *scheduler) next() (job, bool) {
	for i, j := range s.queue {
		if j.retry == 0 && s.tests[j.test].settled() {
			continue // held: the runs in flight may unsettle it
		}
		if s.alone && s.aloneTests[j.test] {
			continue // held: one runs alone already
		}
		s.queue = slices.Delete(s.queue, i, i+1)
		return j, true
	}
	return job{}, false
}

// dispatch starts job j, or settles it without running when the test must
// not start (skipped, cancelled, --fail-fast) or the run was cancelled.
func (s *scheduler) dispatch(ctx context.Context, j job, out []*TestResult) {
	st := s.tests[j.test]
	t := st.result.Test
	if !st.started {
		switch {
		case t.Skip != "":
			s.settle(j.test, status.Skipped, t.Skip, out)
			return
		case ctx.Err() != nil:
			s.settle(j.test, status.Error, "cancelled before it started", out)
			return
		case s.stopped != "":
			s.settle(j.test, status.Skipped, s.stopped, out)
			return
		}
		st.started = true
		st.result.Start = s.e.opts.Now()
		if so, ok := s.e.opts.Observer.(StartObserver); ok {
			so.TestStarted(t)
		}
	} else if ctx.Err() != nil {
		st.dropped++
		s.close(j.test, out)
		return
	}
	if j.retry == 0 {
		st.pending++
	}
	s.running++
	if s.aloneTests[j.test] {
		s.alone = true
	}
	go func() {
		s.results <- done{job: j, attempt: s.attempt(ctx, t, j.run, j.retry)}
	}()
}

// settle finishes a test that will not start, dropping its queued jobs.
func (s *scheduler) settle(i int, status status.Status, reason string, out []*TestResult) {
	st := s.tests[i]
	now := s.e.opts.Now()
	r := st.result
	r.Status, r.Reason, r.Start, r.End = status, reason, now, now
	kept := s.queue[:0]
	for _, j := range s.queue {
		if j.test != i {
			kept = append(kept, j)
		}
	}
	s.queue = kept
	st.open = 0
	out[i] = r
	s.e.finished(r)
}

// record files a finished attempt, queues a retry when the policy allows,
// and finishes the test when nothing of it is left. A finished run counts
// towards adaptive runs' stopping rule: once no run of the test is in
// flight and its verdict is settled, its queued runs are dropped.
func (s *scheduler) record(ctx context.Context, d done, out []*TestResult) {
	st := s.tests[d.test]
	st.runs[d.run] = append(st.runs[d.run], d.attempt)
	if ctx.Err() == nil && st.result.Policy.Retry(statuses(st.runs[d.run])) {
		s.queue = append([]job{{test: d.test, run: d.run, retry: d.retry + 1}}, s.queue...)
		return // the retry keeps the test open
	}
	st.pending--
	if d.attempt.Status == status.Pass {
		st.passed++
	} else {
		st.failed++
	}
	if st.pending == 0 && st.settled() {
		s.drop(d.test)
	}
	s.close(d.test, out)
}

// drop removes the test's queued runs, which it no longer needs.
func (s *scheduler) drop(i int) {
	kept := s.queue[:0]
	for _, j := range s.queue {
		if j.test == i {
			s.tests[i].open--
		} else {
			kept = append(kept, j)
		}
	}
	s.queue = kept
}

// close counts one of the test's attempts settled and, at the last one,
// judges the test.
func (s *scheduler) close(i int, out []*TestResult) {
	st := s.tests[i]
	if st.open--; st.open > 0 {
		return
	}
	r := st.result
	r.End = s.e.opts.Now()
	judgeRuns(r, st.runs, st.dropped)
	out[i] = r
	s.e.finished(r)
	if s.e.opts.FailFast && s.stopped == "" && r.Status.Failed() && r.Test.Quarantine == nil {
		s.stopped = fmt.Sprintf("not run: --fail-fast stopped the run after %q %s", r.Test.Name.Value, map[status.Status]string{status.Fail: "failed", status.Error: "errored"}[r.Status])
	}
}

// judgeRuns sets the test's attempts, verdict, status and reason from its runs.
func judgeRuns(r *TestResult, runs [][]*Attempt, dropped int) {
	var finished [][]status.Status
	for _, attempts := range runs {
		if len(attempts) == 0 {
			continue
		}
		r.Attempts = append(r.Attempts, attempts...)
		finished = append(finished, statuses(attempts))
	}
	r.Verdict = r.Policy.Judge(finished)
	r.Status = r.Verdict.Status
	if dropped > 0 {
		if r.Policy.Adaptive() {
			r.Verdict.Stop, r.Verdict.Inconclusive = stability.StopCancelled, false
		}
		r.Status = status.Error
		r.Reason = fmt.Sprintf("cancelled after %d of %s", len(finished), plural.Count(r.Policy.Runs, "run"))
		return
	}
	shown := r.Shown()
	switch {
	case r.Status == status.Error && shown != nil:
		r.Reason, r.ReasonPos, r.Detail = shown.Reason, shown.ReasonPos, shown.Detail
		if r.Verdict.Reason != "" {
			r.Reason = fmt.Sprintf("%s; run %d: %s", r.Verdict.Reason, shown.Run+1, shown.Reason)
		}
	case r.Status == status.Fail:
		r.Reason = r.Verdict.Reason
	}
}

func statuses(attempts []*Attempt) []status.Status {
	out := make([]status.Status, len(attempts))
	for i, a := range attempts {
		out[i] = a.Status
	}
	return out
}

// finished tells the observer about a finished test. The scheduler calls
// it from one goroutine, so calls are serialized.
func (e *engine) finished(r *TestResult) {
	if e.opts.Observer != nil {
		e.opts.Observer.TestFinished(r)
	}
}
