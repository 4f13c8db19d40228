package junit_test

import (
	"encoding/xml"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/status"
)

// parsed is the part of the output the rerun, hook and usage tests read
// back.
type parsed struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Errors   int `xml:"errors,attr"`
	Suites   []struct {
		Name     string       `xml:"name,attr"`
		File     string       `xml:"file,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr"`
		Skipped  int          `xml:"skipped,attr"`
		Cases    []parsedCase `xml:"testcase"`
		// Properties are what the suite's agent used and how its repeated
		// tests passed.
		Properties []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"properties>property"`
	} `xml:"testsuite"`
}

type parsedCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *parsedResult `xml:"failure"`
	Error     *parsedResult `xml:"error"`
	Skipped   *parsedResult `xml:"skipped"`
	Out       *string       `xml:"system-out"`
	// Reruns are the children not matched above: rerunFailure, rerunError,
	// flakyFailure, flakyError.
	Reruns []struct {
		XMLName    xml.Name
		Message    string `xml:"message,attr"`
		Type       string `xml:"type,attr"`
		StackTrace string `xml:"stackTrace"`
	} `xml:",any"`
}

type parsedResult struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// outcome is a case's verdict element as "failure <type>: <message>", or
// "" when it has none.
func (c parsedCase) outcome() string {
	switch {
	case c.Failure != nil:
		return fmt.Sprintf("failure %s: %s", c.Failure.Type, c.Failure.Message)
	case c.Error != nil:
		return fmt.Sprintf("error %s: %s", c.Error.Type, c.Error.Message)
	case c.Skipped != nil:
		return "skipped: " + c.Skipped.Message
	}
	return ""
}

// reruns lists a case's rerun elements as "<element> <type>: <message>".
func (c parsedCase) reruns() []string {
	var out []string
	for _, r := range c.Reruns {
		out = append(out, fmt.Sprintf("%s %s: %s", r.XMLName.Local, r.Type, r.Message))
	}
	return out
}

func parse(t *testing.T, out []byte) parsed {
	t.Helper()
	var p parsed
	if err := xml.Unmarshal(out, &p); err != nil {
		t.Fatalf("parse: %v\n%s", err, out)
	}
	return p
}

// TestFixtureReruns: the fixture's flaky passing test lists its failed run
// as a <flakyFailure> and stays a pass; the flaky failing one states its
// pass rate in the <failure> and lists its failed retry as a
// <rerunFailure>; the counts ignore both kinds, and the secret appears in
// neither.
func TestFixtureReruns(t *testing.T) {
	out := render(t, reporttest.Report())
	if strings.Contains(string(out), reporttest.Secret) {
		t.Error("the output holds the secret")
	}
	p := parse(t, out)
	if p.Tests != 6 || p.Failures != 2 || p.Errors != 1 {
		t.Errorf("testsuites tests/failures/errors = %d/%d/%d; want 6/2/1", p.Tests, p.Failures, p.Errors)
	}
	const never = "`search` was never called (no tool calls in turn[0])"
	tests := []struct {
		name                    string
		tests, failures, errors int
		outcome                 string
		reruns                  []string
	}{
		{name: "checkout declines the card", tests: 1, failures: 1,
			outcome: "failure assertion: 2 assertions failed; first: forbidden call to `charge_card` with result_match `declined`: call call-1 in turn[1] (result \"{\\\"status\\\":\\\"declined\\\"}\")"},
		{name: "weather in Paris", tests: 1},
		{name: "search finds shoes", tests: 1,
			reruns: []string{"flakyFailure assertion: run 2: " + never}},
		{name: "search flips", tests: 1, failures: 1,
			outcome: "failure assertion: 1 of 2 runs passed (50%), below min_pass_rate 100%; run 1: " + never,
			reruns:  []string{"rerunFailure assertion: run 1 retry 1: " + never}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, s := range p.Suites {
				for _, c := range s.Cases {
					if c.Name != tc.name {
						continue
					}
					if s.Tests != tc.tests || s.Failures != tc.failures || s.Errors != tc.errors {
						t.Errorf("suite tests/failures/errors = %d/%d/%d; want %d/%d/%d", s.Tests, s.Failures, s.Errors, tc.tests, tc.failures, tc.errors)
					}
					if got := c.outcome(); got != tc.outcome {
						t.Errorf("outcome = %q; want %q", got, tc.outcome)
					}
					if got := c.reruns(); !slices.Equal(got, tc.reruns) {
						t.Errorf("reruns = %q; want %q", got, tc.reruns)
					}
					for _, r := range c.Reruns {
						if !strings.HasPrefix(r.StackTrace, "tests/") || !strings.Contains(r.StackTrace, "observed:  0 calls") {
							t.Errorf("%s stackTrace = %q; want the failing assertion at its position", r.XMLName.Local, r.StackTrace)
						}
					}
					return
				}
			}
			t.Fatal("no such testcase")
		})
	}
}

// TestReruns: how each kind of repeated test is written; every output
// validates against junit-10.xsd.
func TestReruns(t *testing.T) {
	never := report.Assertion{ID: "turn[0].tools.require[0]", Level: "turn", Scope: "turn[0]", Status: status.Fail,
		Source: report.Location{File: "tests/a.ananke.yaml", Line: 9, Col: 13}, Message: "`search` was never called", Observed: "0 calls"}
	failed := func(run, retry int) report.Attempt {
		return report.Attempt{Run: run, Retry: retry, Status: status.Fail, Failed: []report.Assertion{never}}
	}
	errored := func(run int, reason string) report.Attempt {
		return report.Attempt{Run: run, Status: status.Error, Reason: reason}
	}
	passed := func(run int) report.Attempt { return report.Attempt{Run: run, Status: status.Pass} }
	tests := []struct {
		name       string
		test       report.Test
		outcome    string
		reruns     []string
		stackTrace string // of the first rerun
		out        bool   // has <system-out>
	}{
		{
			name:    "run once, failed: no reruns, no stability",
			test:    report.Test{Status: status.Fail, Runs: 1, Assertions: []report.Assertion{never}, Attempts: []report.Attempt{failed(1, 0)}, Shown: 1, Turns: []report.Turn{{Type: "user"}}},
			outcome: "failure assertion: `search` was never called",
			out:     true,
		},
		{
			name: "passed with an errored run",
			test: report.Test{Status: status.Pass, Runs: 2, PassedRuns: 1, Flaky: true,
				Attempts: []report.Attempt{errored(1, "turn[0]: agent timed out"), passed(2)}, Shown: 2},
			reruns:     []string{"flakyError error: run 1: turn[0]: agent timed out"},
			stackTrace: "turn[0]: agent timed out\n",
		},
		{
			name: "one run whose retry failed too: no reason, counts attempts",
			test: report.Test{Status: status.Fail, Runs: 1, Retries: 1, Assertions: []report.Assertion{{ID: never.ID, Status: status.Fail, Message: never.Message, FailedRuns: 2}},
				Attempts: []report.Attempt{failed(1, 0), failed(1, 1)}, Shown: 1, Turns: []report.Turn{{Type: "user"}}},
			outcome:    "failure assertion: 2 of 2 attempts did not pass; run 1: `search` was never called",
			reruns:     []string{"rerunFailure assertion: run 1 retry 1: `search` was never called"},
			stackTrace: "tests/a.ananke.yaml:9:13: `search` was never called\n",
			out:        true,
		},
		{
			name: "failed because runs errored: the reason, every errored run",
			test: report.Test{Status: status.Fail, Runs: 3, PassedRuns: 1, MinPassRate: 60, Reason: "1 of 3 runs passed (33.3%), below min_pass_rate 60%",
				Attempts: []report.Attempt{errored(1, "boom"), passed(2), errored(3, "bang")}, Shown: 1},
			outcome: "failure min_pass_rate: 1 of 3 runs passed (33.3%), below min_pass_rate 60%",
			reruns:  []string{"rerunError error: run 1: boom", "rerunError error: run 3: bang"},
		},
		{
			name: "errored in every run",
			test: report.Test{Status: status.Error, Runs: 2, Reason: "all 2 runs errored; run 1: boom",
				Attempts: []report.Attempt{errored(1, "boom"), failed(2, 0)}, Shown: 1},
			outcome: "error error: all 2 runs errored; run 1: boom",
			reruns:  []string{"rerunFailure assertion: run 2: `search` was never called"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.test.Name, tc.test.File = "a", "tests/a.ananke.yaml"
			out := render(t, &report.Report{Tests: []report.Test{tc.test}})
			validate(t, out)
			c := parse(t, out).Suites[0].Cases[0]
			if got := c.outcome(); got != tc.outcome {
				t.Errorf("outcome = %q; want %q", got, tc.outcome)
			}
			if got := c.reruns(); !slices.Equal(got, tc.reruns) {
				t.Errorf("reruns = %q; want %q", got, tc.reruns)
			}
			if len(c.Reruns) > 0 && !strings.HasPrefix(c.Reruns[0].StackTrace, tc.stackTrace) {
				t.Errorf("first stackTrace = %q; want it to start with %q", c.Reruns[0].StackTrace, tc.stackTrace)
			}
			if got := c.Out != nil; got != tc.out {
				t.Errorf("has system-out = %v; want %v", got, tc.out)
			}
		})
	}
}
