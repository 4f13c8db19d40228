// Command adaptive is the simulation behind the adaptive-runs defaults
// (docs/statistics.md): Bernoulli agents — each run passes with a fixed
// chance — judged against thresholds by the adaptive rule
// (stats.Sequential: Wald's SPRT between a minimum and a maximum of runs)
// and by a fixed number of runs equal to that maximum. It prints, as
// markdown, each cell's mean number of runs and its wrong-verdict rates,
// then the same summary for other settings, and what a perfectly reliable
// agent costs under each.
//
//	go run ./bench/adaptive                  # the defaults, 20,000 trials per cell
//	go run ./bench/adaptive -max 30 -zone 10 # other settings
//	go run ./bench/adaptive -exact           # exact probabilities instead of a simulation
//
// It is deterministic: every draw comes from a PCG seeded with -seed and
// the cell, and nothing reads the clock.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/ananke/action/internal/stats"
)

func main() {
	if err := run(os.Stdout, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "adaptive:", err)
		os.Exit(2)
	}
}

// options are the command's flags.
type options struct {
	rule       stats.Sequential // MinPassRate is each cell's threshold
	thresholds []int
	rates      []int
	trials     int
	seed       uint64
	exact      bool
	others     bool
}

// judge computes one cell, by simulation or exactly.
func (o options) judge(rule stats.Sequential, threshold, rate int) cell {
	if o.exact {
		return exact(rule, threshold, rate)
	}
	return simulate(rule, threshold, rate, o.trials, o.seed)
}

// grid judges every cell of the grid under rule, the cells side by side:
// each has its own seeded generator, so the order they finish in changes
// nothing.
func (o options) grid(rule stats.Sequential) []cell {
	cells := make([]cell, len(o.thresholds)*len(o.rates))
	var wg sync.WaitGroup
	for i, th := range o.thresholds {
		for j, rate := range o.rates {
			wg.Go(func() { cells[i*len(o.rates)+j] = o.judge(rule, th, rate) })
		}
	}
	wg.Wait()
	return cells
}

func run(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("adaptive", flag.ContinueOnError)
	fs.SetOutput(w)
	o := options{rule: stats.Sequential{}}
	fs.IntVar(&o.rule.Min, "min", defaultRule.Min, "the adaptive rule's minimum runs")
	fs.IntVar(&o.rule.Max, "max", defaultRule.Max, "the adaptive rule's maximum runs, and the fixed rule's runs")
	fs.Float64Var(&o.rule.Zone, "zone", defaultRule.Zone, "the indifference zone, in percentage points either side of the threshold")
	fs.Float64Var(&o.rule.Alpha, "alpha", defaultRule.Alpha, "the chance of passing an agent at the zone's lower rate")
	fs.Float64Var(&o.rule.Beta, "beta", defaultRule.Beta, "the chance of failing an agent at the zone's upper rate")
	fs.IntVar(&o.trials, "trials", 20000, "seeded trials per cell")
	fs.Uint64Var(&o.seed, "seed", 1, "the simulation's seed")
	fs.BoolVar(&o.exact, "exact", false, "compute the chances exactly instead of simulating")
	fs.BoolVar(&o.others, "others", true, "also summarize the other settings")
	thresholds := fs.String("thresholds", "80,90,95", "the thresholds (min_pass_rate), percent")
	rates := fs.String("rates", "50,60,70,75,80,85,90,95,98,100", "the agents' true pass rates, percent")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var err error
	if o.thresholds, err = percents(*thresholds); err != nil {
		return fmt.Errorf("-thresholds: %w", err)
	}
	if o.rates, err = percents(*rates); err != nil {
		return fmt.Errorf("-rates: %w", err)
	}
	switch {
	case o.rule.Min < 1 || o.rule.Max < o.rule.Min:
		return fmt.Errorf("-min %d, -max %d: want 1 <= min <= max", o.rule.Min, o.rule.Max)
	case o.trials < 1:
		return fmt.Errorf("-trials %d: want at least 1", o.trials)
	case o.rule.Alpha <= 0 || o.rule.Alpha >= 1 || o.rule.Beta <= 0 || o.rule.Beta >= 1:
		return fmt.Errorf("-alpha %v, -beta %v: want each strictly between 0 and 1", o.rule.Alpha, o.rule.Beta)
	case o.rule.Zone <= 0:
		return fmt.Errorf("-zone %v: want more than 0", o.rule.Zone)
	}
	return write(w, o)
}

// percents parses a comma-separated list of percentages from 1 to 100.
func percents(s string) ([]int, error) {
	var out []int
	for f := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("parse %q: %w", f, err)
		}
		if n < 1 || n > 100 {
			return nil, fmt.Errorf("%d: want a percentage from 1 to 100", n)
		}
		out = append(out, n)
	}
	return out, nil
}
