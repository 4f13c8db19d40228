package cli

import (
	"regexp"
	"strings"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/selection"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
)

// selected says how --run, --tag and --shard chose the suite's tests.
type selected struct {
	shard    *report.Shard
	describe string // "shard 2/3, --tag smoke"; "" when every test runs
	of       int    // the suite's tests before selection
}

// selectTests narrows suite.Tests to what --run, --tag and --shard ask for.
// A filter that matches nothing is a mistake (exit 3): a CI job must not
// pass by running nothing. An empty shard is not: a suite may have fewer
// tests than shards.
func selectTests(suite *spec.Suite, o runOptions) (*selected, error) {
	sel := &selected{of: len(suite.Tests)}
	var f selection.Filter
	if o.run != "" {
		re, err := regexp.Compile(o.run)
		if err != nil {
			return nil, invalidf("", "--run %q: %v", o.run, err)
		}
		f.Run = re
	}
	var err error
	if f.Include, f.Exclude, err = selection.ParseTags(o.tags); err != nil {
		return nil, withCode(ExitInvalid, "", err)
	}
	var parts []string
	if !f.IsZero() {
		suite.Tests = f.Apply(suite.Tests)
		if len(suite.Tests) == 0 {
			return nil, invalidf("", "no test matches %s (of %s); nothing was run", f, plural.Count(sel.of, "test"))
		}
		parts = append(parts, f.String())
	}
	if sh := o.shard.shard; sh != nil {
		weight := func(t *spec.Test) int {
			return stability.Resolve(t.Stability, o.stability(), suite.Config.Stability).Runs * max(len(t.Turns), 1)
		}
		suite.Tests = sh.Apply(suite.Tests, weight)
		sel.shard = &report.Shard{Index: sh.Index, Total: sh.Total}
		parts = append([]string{"shard " + sh.String()}, parts...)
	}
	sel.describe = strings.Join(parts, ", ")
	return sel, nil
}
