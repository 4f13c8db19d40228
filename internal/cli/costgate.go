package cli

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ananke/action/reporters/diff"
)

// increaseFlag is --fail-on-cost-increase PCT: an optional percentage of
// at least 0, with no upper bound ("50", "50%", "200").
type increaseFlag struct {
	v   float64
	set bool
}

func (f *increaseFlag) String() string {
	if f == nil || !f.set {
		return ""
	}
	return strconv.FormatFloat(f.v, 'f', -1, 64)
}

func (f *increaseFlag) Set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64)
	if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return fmt.Errorf("want a percentage of at least 0, e.g. 50")
	}
	f.v, f.set = v, true
	return nil
}

// limit is the percentage, or nil when the flag is not set.
func (f *increaseFlag) limit() *float64 {
	if !f.set {
		return nil
	}
	v := f.v
	return &v
}

// costGate is --fail-on-cost-increase: exit 1, with a line per test,
// when a test compared in both runs costs more than pct percent more per
// attempt than in the base (docs/cost.md, "Cost regressions"); nil when
// none does or pct is nil. A test quarantined in the head report is
// listed by sp instead. It changes no test's verdict.
func costGate(scope string, c *diff.Change, pct *float64, sp *spared) error {
	if pct == nil || c == nil {
		return nil
	}
	var errs []error
	for _, e := range c.CostOver(*pct) {
		if !sp.spares("cost gate", e.ID, e.Name, e.GateLine(*pct)) {
			errs = append(errs, exitf(ExitFail, scope, "cost gate: %s", e.GateLine(*pct)))
		}
	}
	return errors.Join(errs...)
}
