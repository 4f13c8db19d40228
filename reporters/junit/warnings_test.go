package junit_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
)

// TestWarnings: a failing warning never makes a <failure> — a passing test
// with one stays a pass, with the warning in its <system-out> — and a
// failing test's failure text starts with its kinds of failure and leaves
// its warnings to <system-out>, after the conversation.
func TestWarnings(t *testing.T) {
	const warning = "warnings (they never fail the test):\n" +
		"tests/weather.ananke.yaml:7:17: 1 claim in turn[0]'s reply appears in no tool result, tool argument, user message or history: \"23\" (char 7)\n" +
		"  assertion: turn[0].grounded (turn[0] \"weather?\", declared at turn level)\n" +
		"  expected:  every number in the reply found in a tool result, tool argument, user message or history\n" +
		"  observed:  1 ungrounded claim: \"23\"\n" +
		"  - ungrounded claim: \"Sunny, 23 °C.\"\n"
	passed := reporttest.Pick(false, reporttest.Passing)
	passed.Tests[0].Assertions = passed.Tests[0].Assertions[:2] // without the judge not made
	notMade := reporttest.Pick(false, reporttest.Passing)
	nt := &notMade.Tests[0]
	nt.Assertions = []report.Assertion{nt.Assertions[0], nt.Assertions[2]}
	failed := reporttest.Pick(false, reporttest.Failing)
	ft := &failed.Tests[0]
	warn := passed.Tests[0].Warned()[0]
	warn.Scope = "turn[1]"
	ft.Assertions = append(ft.Assertions, warn)
	steady := reporttest.Pick(false, reporttest.Passing)
	steady.Tests[0].Assertions = steady.Tests[0].Assertions[:1]
	for _, tc := range []struct {
		name     string
		r        *report.Report
		failures int
		failure  string // the start of the failure's text
		out      string // the end of <system-out>; "" for none
	}{
		{name: "passed with a warning", r: passed,
			out: "turn[0] user: weather?\n  assistant: Sunny, 23 °C.\n\n" + warning},
		// Only what its agent used.
		{name: "passed without", r: steady, out: "usage: 10.2k tokens · cost unknown\n"},
		// A warning judge whose model failed: no <failure>, no <error>, and
		// not silent either.
		{name: "passed with a check not made", r: notMade,
			out: "turn[0] user: weather?\n  assistant: Sunny, 23 °C.\n\n" +
				"checks not made (of severity warning, they do not fail the test):\n" +
				"tests/weather.ananke.yaml:8:15: the judge gave no verdict: model gpt-4o-mini at https://models.example.com/v1: server error (500) after 3 attempts: upstream overloaded\n" +
				"  assertion: turn[0].judge (turn[0] \"weather?\", declared at turn level)\n" +
				"  expected:  the judge finds every criterion true: \"answers in the user's units\"\n" +
				"  observed:  no verdict\n"},
		{name: "failed with a warning", r: failed, failures: 1,
			failure: "failure categories: process, outcome\n\ntests/checkout.ananke.yaml:14:13: forbidden call",
			out: "  assistant: Payment \\x1b[31mdeclined\\x1b[0m ]]> <b>&amp;</b> key ***\n\n" +
				strings.Replace(warning, `turn[0] "weather?"`, `turn[1] "pay with my card"`, 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := render(t, tc.r)
			validate(t, out)
			if strings.Contains(string(out), reporttest.Secret) {
				t.Error("the output holds the secret")
			}
			p := parse(t, out)
			c := p.Suites[0].Cases[0]
			if p.Failures != tc.failures || p.Errors != 0 || (c.Failure != nil) != (tc.failures > 0) {
				t.Errorf("failures/errors = %d/%d, <failure> %v; want %d/0", p.Failures, p.Errors, c.Failure != nil, tc.failures)
			}
			if c.Failure != nil {
				if !strings.HasPrefix(c.Failure.Text, tc.failure) {
					t.Errorf("failure text = %q; want it to start with %q", c.Failure.Text, tc.failure)
				}
				if strings.Contains(c.Failure.Text+c.Failure.Message, "grounded") {
					t.Errorf("the failure lists the warning: %q", c.Failure.Text)
				}
			}
			switch {
			case tc.out == "" && c.Out != nil:
				t.Errorf("system-out = %q; want none", *c.Out)
			case tc.out != "" && (c.Out == nil || !strings.HasSuffix(*c.Out, tc.out)):
				t.Errorf("system-out = %v; want it to end with %q", c.Out, tc.out)
			}
		})
	}
}
