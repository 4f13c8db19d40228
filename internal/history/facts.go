package history

import "github.com/ananke/action/internal/stats"

// Facts are what a history says about one test (docs/history.md). Counts
// are of the runs of the history that judged the test — it passed, failed
// or errored — unless they say otherwise.
type Facts struct {
	Test *Test
	// Sequence has a character per run of the history, oldest first: p
	// passed, f failed, e errored, s skipped, . not in the run; upper case
	// when the test was flaky in the run.
	Sequence string
	// Judged counts the runs that judged the test; Passed, Failed (failed
	// or errored) and Flaky divide them.
	Judged, Passed, Failed, Flaky int
	// Runs and PassedRuns sum the test's runs over the judged runs of the
	// history (a run of the suite runs a test several times with runs: N),
	// and PassRate is their ratio (0 when Runs is 0), with its Wilson
	// interval PassCI at the level asked for.
	Runs, PassedRuns int
	PassRate         float64
	PassCI           stats.Interval
	// Flakes counts the runs that were flaky — the test was flaky in the
	// run, or it failed and the next run that judged it passed — and
	// FlakeRate is Flakes / Judged (0 when Judged is 0).
	Flakes    int
	FlakeRate float64
	// Streak counts the runs, at the end of the history, that judged the
	// test and failed it, in a row (runs that skipped it or did not have it
	// neither end nor lengthen it); Since is the first of them, nil when
	// Streak is 0.
	Streak int
	Since  *Run
	// MedianMs is the median duration over the judged runs (of an even
	// count, the mean of the middle two), LastMs the
	// newest judged run's; both 0 when none judged it.
	MedianMs, LastMs int64
	// MeanTokens and MeanCostUSD are the mean, over the judged runs that
	// know it, of the agent's use per attempt; nil when none does.
	// LastTokens and LastCostUSD are the newest judged run's; nil when it
	// does not know.
	MeanTokens, MeanCostUSD *float64
	LastTokens, LastCostUSD *float64
}

// Facts are the facts of every test, in the history's order, with pass
// rate intervals at level (0.95 for 95%).
func (h *History) Facts(level float64) []Facts {
	out := make([]Facts, len(h.Tests))
	for i := range h.Tests {
		out[i] = h.facts(&h.Tests[i], level)
	}
	return out
}

// FactsOf are the facts of the test with id; false when the history does
// not have it.
func (h *History) FactsOf(id string, level float64) (Facts, bool) {
	t := h.Test(id)
	if t == nil {
		return Facts{}, false
	}
	return h.facts(t, level), true
}

func (h *History) facts(t *Test, level float64) Facts {
	f := Facts{Test: t}
	seq := make([]byte, len(t.Results))
	var durations []int64
	var tokens, costs []float64
	prevFailed := false // the previous judged run failed the test
	for i, r := range t.Results {
		seq[i] = r.Char()
		if !r.Judged() {
			continue
		}
		f.Judged++
		f.Runs += r.Runs
		f.PassedRuns += r.PassedRuns
		failed := r.Status.Failed()
		switch {
		case failed:
			f.Failed++
			if f.Streak == 0 {
				f.Since = &h.Runs[i]
			}
			f.Streak++
		default:
			f.Passed++
			f.Streak, f.Since = 0, nil
		}
		if r.Flaky {
			f.Flaky++
		}
		if r.Flaky || prevFailed && !failed && !t.flakyBefore(i) {
			f.Flakes++
		}
		prevFailed = failed
		durations = append(durations, r.DurationMs)
		f.LastMs = r.DurationMs
		f.LastTokens, f.LastCostUSD = r.Tokens, r.CostUSD
		if r.Tokens != nil {
			tokens = append(tokens, *r.Tokens)
		}
		if r.CostUSD != nil {
			costs = append(costs, *r.CostUSD)
		}
	}
	f.Sequence = string(seq)
	if f.Runs > 0 {
		f.PassRate = float64(f.PassedRuns) / float64(f.Runs)
	}
	f.PassCI = stats.Wilson(f.PassedRuns, f.Runs, level)
	if f.Judged > 0 {
		f.FlakeRate = float64(f.Flakes) / float64(f.Judged)
	}
	f.MedianMs = stats.Median(durations)
	f.MeanTokens, f.MeanCostUSD = mean(tokens), mean(costs)
	return f
}

// flakyBefore reports whether the judged run before run i was flaky: a
// failure in a flaky run that the next run passes is one flake, counted
// once.
func (t *Test) flakyBefore(i int) bool {
	for j := i - 1; j >= 0; j-- {
		if t.Results[j].Judged() {
			return t.Results[j].Flaky
		}
	}
	return false
}

// mean is the mean of vs; nil for none.
func mean(vs []float64) *float64 {
	if len(vs) == 0 {
		return nil
	}
	var sum float64
	for _, v := range vs {
		sum += v
	}
	m := sum / float64(len(vs))
	return &m
}
