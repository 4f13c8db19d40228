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
	// MinPassRate is the percentage of runs that must pass (nil: unset).
	MinPassRate *float64
	// Retries is how often a failing run is run again (nil: unset).
	Retries *int
	// Pos is where the runs/min_pass_rate fields are written, for messages.
	MinPassRatePos diag.Pos
}

// stabilityFields are the keys Stability reads, in configs and test files.
var stabilityFields = []string{"runs", "min_pass_rate", "retries"}

// stability reads the runs, min_pass_rate and retries fields of f.
func (l *loader) stability(f map[string]decode.Pair, prefix string) Stability {
	var s Stability
	if p, ok := f["runs"]; ok {
		v, _ := l.Integer(p.Val, prefix+"runs", 1, MaxRuns)
		s.Runs = int(v)
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
	return s
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
