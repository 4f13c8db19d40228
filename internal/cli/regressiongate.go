package cli

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/ananke/action/reporters/diff"
)

// significanceFlag is --significance ALPHA: the level at which a lower
// pass rate is a regression, in (0, 1); diff.DefaultSignificance unless
// set.
type significanceFlag struct {
	v   float64
	set bool
}

func (f *significanceFlag) String() string {
	if f == nil || !f.set {
		return diff.Level(diff.DefaultSignificance)
	}
	return diff.Level(f.v)
}

func (f *significanceFlag) Set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || !(v > 0 && v < 1) {
		return fmt.Errorf("want a level between 0 and 1, e.g. 0.05")
	}
	f.v, f.set = v, true
	return nil
}

// level is the significance level: the flag's, or the default.
func (f *significanceFlag) level() float64 {
	if !f.set {
		return diff.DefaultSignificance
	}
	return f.v
}

// regressionGate is --fail-on-regression: exit 1, with a line per test,
// when a test run more than once passes significantly less often than in
// the base, or one of its assertions fails significantly more often
// (docs/diff.md, "Pass rates"); nil when none does, or when on is false.
// Lower rates within noise never gate. A test quarantined in the head
// report is listed by sp instead. It changes no test's verdict.
func regressionGate(scope string, c *diff.Change, on bool, sp *spared) error {
	if !on || c == nil {
		return nil
	}
	var errs []error
	for _, e := range c.Rates.Regressed {
		if !sp.spares("regression gate", e.ID, e.Name, e.GateLine(c.Rates.Significance)) {
			errs = append(errs, exitf(ExitFail, scope, "regression gate: %s", e.GateLine(c.Rates.Significance)))
		}
	}
	return errors.Join(errs...)
}
