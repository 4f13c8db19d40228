package spec

import (
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
)

// Bounds of the repeated-run settings: a thousand runs of one test is a
// stability study, not a CI job; more is a typo.
const (
	MaxRuns    = 1000
	MaxRetries = 100
)

// Stability says how often a test runs and what pass rate it needs. Each
// field is optional: an unset one leaves the decision to the next level
// (test file, then command line, then config, then the default).
type Stability struct {
	// Runs is how many independent times the test runs (0: unset).
	Runs int
	// Adaptive, set instead of Runs (runs: {min, max}), runs the test
	// between Min and Max times, stopping once its verdict is settled
	// (docs/runs.md, "Adaptive runs"); nil: unset.
	Adaptive *RunRange
	// MinPassRate is the percentage of runs that must pass (nil: unset).
	MinPassRate *float64
	// Retries is how often a failing run is run again (nil: unset).
	Retries *int
	// Rule is the adaptive stopping rule's parameters (adaptive:); each
	// unset one comes from the next level, else its default.
	Rule StoppingRule
	// Pos is where the runs/min_pass_rate fields are written, for messages.
	MinPassRatePos diag.Pos
}

// RunsSet reports whether the level sets runs, fixed or adaptive.
func (s Stability) RunsSet() bool { return s.Runs > 0 || s.Adaptive != nil }

// RunRange is adaptive runs: at least Min, at most Max (1 ≤ Min ≤ Max ≤
// MaxRuns).
type RunRange struct {
	Min, Max int
}

// StoppingRule holds the parameters of adaptive runs' sequential test, as
// written (nil: unset): Zone is the indifference zone around min_pass_rate
// in percentage points, Alpha the chance of passing a test whose pass rate
// is Zone below min_pass_rate, Beta of failing one Zone above it.
type StoppingRule struct {
	Zone, Alpha, Beta *float64
}

// stabilityFields are the keys Stability reads, in configs and test files.
var stabilityFields = []string{"runs", "min_pass_rate", "retries", "adaptive"}

// ruleFields are the keys of adaptive:.
var ruleFields = []string{"zone", "alpha", "beta"}

// stability reads the runs, min_pass_rate, retries and adaptive fields of f.
func (l *loader) stability(f map[string]decode.Pair, prefix string) Stability {
	var s Stability
	if p, ok := f["runs"]; ok {
		s.Runs, s.Adaptive = l.runs(p.Val, prefix+"runs")
	}
	if p, ok := f["min_pass_rate"]; ok {
		if v, ok := l.percent(p.Val, prefix+"min_pass_rate"); ok {
			s.MinPassRate = &v
			s.MinPassRatePos = l.Pos(l.DerefQuiet(p.Val))
		}
	}
	if p, ok := f["retries"]; ok {
		if v, ok := l.Integer(p.Val, prefix+"retries", 0, MaxRetries); ok {
			r := int(v)
			s.Retries = &r
		}
	}
	if p, ok := f["adaptive"]; ok {
		s.Rule = l.stoppingRule(p.Val, prefix+"adaptive")
	}
	return s
}

// runs reads runs: a whole number (fixed runs), or {min, max} (adaptive).
func (l *loader) runs(n *yaml.Node, what string) (int, *RunRange) {
	if m := l.DerefQuiet(n); m.Kind != yaml.MappingNode {
		v, _ := l.Integer(n, what, 1, MaxRuns)
		return int(v), nil
	}
	f, ok := l.Fields(n, what, []string{"min", "max"})
	if !ok {
		return 0, nil
	}
	l.Require(n, f, what, "min", "max")
	lo, hi := f["min"], f["max"]
	if lo.Val == nil || hi.Val == nil {
		return 0, nil
	}
	minRuns, ok1 := l.Integer(lo.Val, what+".min", 1, MaxRuns)
	maxRuns, ok2 := l.Integer(hi.Val, what+".max", 1, MaxRuns)
	if !ok1 || !ok2 {
		return 0, nil
	}
	if maxRuns < minRuns {
		l.Errorf(l.DerefQuiet(hi.Val), "%s.max must be at least %s.min (%d), got %d", what, what, minRuns, maxRuns)
		return 0, nil
	}
	return 0, &RunRange{Min: int(minRuns), Max: int(maxRuns)}
}

// stoppingRule reads adaptive: {zone, alpha, beta}: the zone in percentage
// points, above 0 and below 50; the error rates above 0 and below 0.5.
func (l *loader) stoppingRule(n *yaml.Node, what string) StoppingRule {
	var r StoppingRule
	f, ok := l.Fields(n, what, ruleFields)
	if !ok {
		return r
	}
	read := func(key string, hi float64, unit string) *float64 {
		p, ok := f[key]
		if !ok {
			return nil
		}
		v, node, ok := l.Number(p.Val, what+"."+key)
		if !ok {
			return nil
		}
		if v <= 0 || v >= hi {
			l.Errorf(node, "%s.%s must be above 0 and below %s%s, got %s", what, key, strconv.FormatFloat(hi, 'f', -1, 64), unit, node.Value)
			return nil
		}
		return &v
	}
	r.Zone = read("zone", 50, " (percentage points)")
	r.Alpha = read("alpha", 0.5, "")
	r.Beta = read("beta", 0.5, "")
	return r
}

// percent reads a number from 0 to 100 (a whole number or a decimal).
func (l *loader) percent(n *yaml.Node, what string) (float64, bool) {
	s, ok := l.Scalar(n, what, "a percentage from 0 to 100")
	if !ok {
		return 0, false
	}
	if tag := s.ShortTag(); tag != "!!int" && tag != "!!float" {
		l.Errorf(s, "%s must be a percentage from 0 to 100, not %s", what, decode.KindName(s))
		return 0, false
	}
	v, err := strconv.ParseFloat(s.Value, 64)
	if err != nil || v < 0 || v > 100 || v != v {
		l.Errorf(s, "%s must be a percentage from 0 to 100, got %s", what, s.Value)
		return 0, false
	}
	return v, true
}
