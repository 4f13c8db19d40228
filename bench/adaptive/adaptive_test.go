package main

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/ananke/action/internal/stats"
)

// tiny is a grid small enough for a test: two thresholds, three agents,
// few trials.
var tiny = []string{"-thresholds", "80,95", "-rates", "60,90,100", "-trials", "300", "-max", "30"}

func table(t *testing.T, args ...string) string {
	t.Helper()
	var b bytes.Buffer
	if err := run(&b, append(append([]string{}, tiny...), args...)); err != nil {
		t.Fatalf("run %v: %v", args, err)
	}
	return b.String()
}

// TestDeterministic: the same seed prints the same tables, another seed
// other numbers; a cell's numbers do not depend on the rest of the grid.
func TestDeterministic(t *testing.T) {
	a, b := table(t, "-seed", "7"), table(t, "-seed", "7")
	if a != b {
		t.Fatalf("seed 7 twice gave different tables:\n%s\n---\n%s", a, b)
	}
	if c := table(t, "-seed", "8"); c == a {
		t.Errorf("seeds 7 and 8 gave the same table:\n%s", a)
	}
	for _, want := range []string{"| 80% | 60% | fail |", "| 95% | 100% | pass |", "Over the 6 cells", "| 3..50 | 5 | 0.05 | 0.05 |"} {
		if !strings.Contains(a, want) {
			t.Errorf("the table lacks %q:\n%s", want, a)
		}
	}
	alone := table(t, "-seed", "7", "-thresholds", "80", "-rates", "90", "-others=false")
	line := func(s string) string {
		for l := range strings.SplitSeq(s, "\n") {
			if strings.HasPrefix(l, "| 80% | 90% |") {
				return l
			}
		}
		t.Fatalf("no line for 80%%, 90%% in:\n%s", s)
		return ""
	}
	if line(alone) != line(a) {
		t.Errorf("the cell alone: %s\nin the grid: %s", line(alone), line(a))
	}
}

// TestSimulationSane: every trial ends settled or inconclusive; the
// adaptive rule takes between min and max runs; a
// perfect agent takes exactly the SPRT's passes to accept and passes,
// or, where those are more than max, reaches max and is inconclusive; the
// fixed rule takes max.
func TestSimulationSane(t *testing.T) {
	rule := stats.Sequential{Min: 3, Max: 30, Zone: 5, Alpha: 0.05, Beta: 0.05}
	for _, th := range []int{80, 90, 95} {
		for _, rate := range []int{50, 75, 90, 100} {
			c := simulate(rule, th, rate, 200, 1)
			if sum := c.SettledPass + c.SettledFail + c.Inconclusive; math.Abs(sum-1) > 1e-12 || c.PassA < c.SettledPass || c.PassA > c.SettledPass+c.Inconclusive {
				t.Errorf("%d%% at %d%%: settled pass %v, settled fail %v, inconclusive %v, pass %v: do not add up", rate, th, c.SettledPass, c.SettledFail, c.Inconclusive, c.PassA)
			}
			if c.MinRuns < rule.Min || c.MaxRuns > rule.Max || c.Runs < float64(c.MinRuns) || c.Runs > float64(c.MaxRuns) || c.Fixed != rule.Max {
				t.Errorf("%d%% at %d%%: runs %v in [%d, %d], fixed %d; want within [%d, %d], fixed %d",
					rate, th, c.Runs, c.MinRuns, c.MaxRuns, c.Fixed, rule.Min, rule.Max, rule.Max)
			}
		}
	}
	for th, want := range map[int]cell{
		80: {Runs: 24, MinRuns: 24, MaxRuns: 24, PassA: 1, PassF: 1},
		95: {Runs: 30, MinRuns: 30, MaxRuns: 30, PassA: 1, PassF: 1, Inconclusive: 1},
	} {
		c := simulate(rule, th, 100, 200, 1)
		got := cell{Runs: c.Runs, MinRuns: c.MinRuns, MaxRuns: c.MaxRuns, PassA: c.PassA, PassF: c.PassF, Inconclusive: c.Inconclusive}
		if got != want {
			t.Errorf("a perfect agent at %d%%: %+v, want %+v", th, got, want)
		}
	}
}

// TestSimulationMatchesExact: the simulated chances are within five
// standard errors of the exact ones, and so is the mean number of runs.
func TestSimulationMatchesExact(t *testing.T) {
	const trials = 2000
	rule := stats.Sequential{Min: 3, Max: 30, Zone: 5, Alpha: 0.05, Beta: 0.05}
	for _, tc := range []struct{ th, rate int }{{80, 75}, {80, 85}, {90, 95}, {95, 90}} {
		s, e := simulate(rule, tc.th, tc.rate, trials, 3), exact(rule, tc.th, tc.rate)
		if s.Should != e.Should {
			t.Errorf("%d%% at %d%%: should %s, exactly %s", tc.rate, tc.th, s.Should, e.Should)
		}
		for _, q := range []struct {
			what      string
			sim, want float64
		}{{"pass, adaptive", s.PassA, e.PassA}, {"pass, fixed", s.PassF, e.PassF}, {"inconclusive", s.Inconclusive, e.Inconclusive}} {
			se := math.Sqrt(q.want * (1 - q.want) / trials)
			if math.Abs(q.sim-q.want) > 5*se+1e-9 {
				t.Errorf("%d%% at %d%%: %s %.4f simulated, %.4f exactly (standard error %.4f)", tc.rate, tc.th, q.what, q.sim, q.want, se)
			}
		}
		if se := float64(rule.Max) / 2 / math.Sqrt(trials); math.Abs(s.Runs-e.Runs) > 5*se {
			t.Errorf("%d%% at %d%%: %.2f runs simulated, %.2f exactly", tc.rate, tc.th, s.Runs, e.Runs)
		}
	}
}

// TestExactTotals: the exact chances of the adaptive rule's paths sum to
// one; a perfect agent at 80% takes the 24 runs the SPRT needs.
func TestExactTotals(t *testing.T) {
	rule := stats.Sequential{Min: 3, Max: 30, Zone: 5, Alpha: 0.05, Beta: 0.05}
	r := ruleAt(rule, 90)
	total := 0.0
	// The chance of every stopping (passes, fails) pair, summed by hand.
	for s := 0; s <= rule.Max; s++ {
		for f := 0; s+f <= rule.Max; f++ {
			if r.Next(s, f).Done {
				total += pathChance(r, s, f, 0.9)
			}
		}
	}
	if math.Abs(total-1) > 1e-9 {
		t.Errorf("the stopping paths' chances sum to %v", total)
	}
	if c := exact(rule, 90, 90); math.Abs(c.SettledPass+c.SettledFail+c.Inconclusive-1) > 1e-9 {
		t.Errorf("exactly, at 90%%: settled pass %v, settled fail %v, inconclusive %v do not add up to 1", c.SettledPass, c.SettledFail, c.Inconclusive)
	}
	if c := exact(rule, 80, 100); c.Runs != 24 || c.PassA != 1 || c.Inconclusive != 0 {
		t.Errorf("a perfect agent at 80%%: %+v", c)
	}
}

// pathChance is the chance that the rule stops at exactly s passes and f
// fails: the sum over the orders of runs that reach (s, f) without
// stopping before.
func pathChance(r stats.Sequential, s, f int, p float64) float64 {
	memo := map[[2]int]float64{}
	var reach func(s, f int) float64 // the chance to reach (s, f) unstopped before it
	reach = func(s, f int) float64 {
		if s == 0 && f == 0 {
			return 1
		}
		if v, ok := memo[[2]int{s, f}]; ok {
			return v
		}
		var v float64
		if s > 0 && !r.Next(s-1, f).Done {
			v += reach(s-1, f) * p
		}
		if f > 0 && !r.Next(s, f-1).Done {
			v += reach(s, f-1) * (1 - p)
		}
		memo[[2]int{s, f}] = v
		return v
	}
	return reach(s, f)
}

// TestFlags: settings the rule cannot take are refused.
func TestFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-min", "0"}, {"-min", "5", "-max", "4"}, {"-alpha", "0"}, {"-beta", "1"}, {"-zone", "0"},
		{"-trials", "0"}, {"-rates", "50,x"}, {"-thresholds", "0"}, {"-nope"},
	} {
		var b bytes.Buffer
		if err := run(&b, args); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}
