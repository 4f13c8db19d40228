package junit_test

import (
	"encoding/xml"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report/reporttest"
)

// jenkinsCase is a <testcase> as Jenkins' JUnit plugin reads it
// (hudson.tasks.junit.CaseResult, from 1380.v491ff054cd35): its verdict
// from the presence of <failure>, <error> or <skipped>, and, beside it,
// each <flakyFailure> and <rerunFailure> as a Failure of its message and
// type attributes and its <stackTrace>, <system-out> and <system-err>
// children. It reads no <flakyError> nor <rerunError>.
type jenkinsCase struct {
	Name    string           `xml:"name,attr"`
	Failure *struct{}        `xml:"failure"`
	Error   *struct{}        `xml:"error"`
	Skipped *struct{}        `xml:"skipped"`
	Flaky   []jenkinsFailure `xml:"flakyFailure"`
	Rerun   []jenkinsFailure `xml:"rerunFailure"`
}

type jenkinsFailure struct {
	Message    string `xml:"message,attr"`
	Type       string `xml:"type,attr"`
	StackTrace string `xml:"stackTrace"`
	Stdout     string `xml:"system-out"`
	Stderr     string `xml:"system-err"`
}

// TestJenkinsReadsReruns: what Jenkins' JUnit plugin keeps of a repeated
// test. The flaky test that passed is a pass there (no verdict element)
// with its failed run as a flaky failure; the test that failed after a
// retry is a failure with its failed retry as a rerun failure; each
// carries the run in its message and the failing assertion at its
// file:line:col in its stack trace.
func TestJenkinsReadsReruns(t *testing.T) {
	var doc struct {
		Suites []struct {
			Cases []jenkinsCase `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(render(t, reporttest.Report()), &doc); err != nil {
		t.Fatal(err)
	}
	cases := map[string]jenkinsCase{}
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			cases[c.Name] = c
		}
	}
	const never = "`search` was never called (no tool calls in turn[0])"
	for _, tc := range []struct {
		name          string
		passed        bool
		flaky, rerun  []string // messages
		stackTraceHas string
	}{
		{name: "search finds shoes", passed: true, flaky: []string{"run 2: " + never}, stackTraceHas: "tests/search.ananke.yaml:9:"},
		{name: "search flips", rerun: []string{"run 1 retry 1: " + never}, stackTraceHas: "tests/flip.ananke.yaml:9:"},
		{name: "checkout declines the card"},
		{name: "weather in Paris", passed: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, ok := cases[tc.name]
			if !ok {
				t.Fatal("no such testcase")
			}
			if passed := c.Failure == nil && c.Error == nil && c.Skipped == nil; passed != tc.passed {
				t.Errorf("passed = %v; want %v", passed, tc.passed)
			}
			for _, k := range []struct {
				kind string
				got  []jenkinsFailure
				want []string
			}{{"flakyFailure", c.Flaky, tc.flaky}, {"rerunFailure", c.Rerun, tc.rerun}} {
				if len(k.got) != len(k.want) {
					t.Fatalf("%d %s; want %d", len(k.got), k.kind, len(k.want))
				}
				for i, f := range k.got {
					if f.Message != k.want[i] || f.Type != "assertion" || !strings.HasPrefix(f.StackTrace, tc.stackTraceHas) || !strings.Contains(f.StackTrace, "observed:") {
						t.Errorf("%s %d = %+v; want message %q, type assertion, the assertion at %s… in the stack trace", k.kind, i, f, k.want[i], tc.stackTraceHas)
					}
				}
			}
		})
	}
}
