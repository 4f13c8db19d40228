package junit

import (
	"strconv"

	"github.com/jstemmer/go-junit-report/v2/junit"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/format"
)

// What the agent used (docs/cost.md), in a run where some test's agent
// reported usage; a run without usage writes nothing of it.
//
// junit-10.xsd allows <properties> on a <testsuite> only, not on a
// <testcase>: a test file's (or dataset's) suite carries the sum of its
// tests' usage as properties — ananke.tokens.total, ananke.tokens.input,
// ananke.tokens.output and ananke.cost_usd, each only when known (a sum
// some test reported nothing towards is not) — and each testcase says
// what its agent used in words, first in its <system-out>.

// usageProperties sets a suite's properties to what its tests' agents
// used: those that ran (a skipped test never did).
func usageProperties(s *testsuite, tests []*report.Test) {
	var spends []*cost.Spend
	for _, t := range tests {
		if t.Status != status.Skipped {
			spends = append(spends, t.Usage)
		}
	}
	u := cost.Sum(spends...)
	if u == nil || u.Partial() {
		return
	}
	tokens := u.Tokens()
	for _, p := range []struct {
		name  string
		field cost.Field
	}{{"ananke.tokens.total", cost.Total}, {"ananke.tokens.input", cost.Input}, {"ananke.tokens.output", cost.Output}} {
		n, ok := tokens.Get(p.field)
		if p.field == cost.Total {
			n, ok = tokens.TotalTokens()
		}
		if ok {
			s.AddProperty(p.name, strconv.FormatInt(n, 10))
		}
	}
	if usd, ok := u.CostUSD(); ok {
		s.AddProperty("ananke.cost_usd", strconv.FormatFloat(usd, 'f', -1, 64))
	}
}

// usageOut puts what the test's agent used first in its <system-out>:
// "usage: 5k tokens · $0.0036", or "usage unknown". Nothing for a skipped
// test, which never ran.
func usageOut(tc *testcase, t *report.Test) {
	if t.Status == status.Skipped {
		return
	}
	line := "usage: " + format.Usage(t)
	if t.Usage == nil {
		line = "usage unknown"
	}
	if tc.SystemOut == nil {
		tc.SystemOut = &junit.Output{Data: line + "\n"}
		return
	}
	tc.SystemOut.Data = line + "\n\n" + tc.SystemOut.Data
}
