// Package junit writes the run as JUnit XML for GitLab, Jenkins and every
// other CI that reads it: one <testsuite> per test file (or dataset), one
// <testcase> per test, a <failure type="assertion"> holding the kinds of
// failure and every failing assertion with its YAML position and evidence,
// then the checks that could not be made, <error> for errors, <skipped>.
// The config's before_all and after_all hooks come first, in a
// <testsuite> of their own named after the config: a <testcase> per hook,
// with an <error type="hook"> when it failed, so that a failed after_all
// shows even when every test passed. The conversation, with the files
// each user message carried, is in <system-out>. A failing warning never
// makes a <failure>: it is listed in <system-out>, after the conversation,
// whatever the test's status; so is a check of severity warning that could
// not be made, of a test that passed (a failed or errored test lists its
// checks not made in its <failure> or <error>). A test run
// several times also lists its other attempts that did not pass, in
// Surefire's elements for reruns: <flakyFailure>/<flakyError> under a test
// that passed, <rerunFailure>/<rerunError> under one that failed or
// errored. In a run where the agent reported usage, each test file's
// <testsuite> carries what its tests' agent used as <properties>
// (ananke.tokens.total, ananke.tokens.input, ananke.tokens.output,
// ananke.cost_usd, each only when known), and each testcase says it in
// words first in its <system-out> (usage.go); a test run more than once
// puts its pass rate, the rate's interval and pass^k there too
// (confidence.go), and a test run adaptively why its runs stopped
// (adaptive.go). A quarantined test that failed or errored is a <skipped
// type="quarantined"> holding what it would have been, so that it fails no
// build (quarantine.go). Attack runs (docs/attacks.md) come after the
// tests, in a <testsuite name="attacks"> of their own (attacks.go). The
// output validates against Jenkins' junit-10.xsd.
package junit

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"

	"github.com/ananke/action/reporters/internal/format"

	"github.com/jstemmer/go-junit-report/v2/junit"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
)

// Write writes r as JUnit XML, header included.
func Write(w io.Writer, r *report.Report) error {
	suites := testsuites{Testsuites: junit.Testsuites{Name: "ananke", Time: seconds(r.DurationMs)}}
	// The suite hooks first: a failed before_all is why every test
	// errored.
	if s, ok := hookSuite(r); ok {
		suites.add(s)
	}
	var order []string
	byFile := map[string]*testsuite{}
	tests := map[string][]*report.Test{}
	usage := format.ShowsUsage(r)
	for i := range r.Tests {
		t := &r.Tests[i]
		s := byFile[t.File]
		if s == nil {
			s = &testsuite{Testsuite: junit.Testsuite{Name: clean(t.File), File: clean(t.File), ID: len(suites.Suites) + len(order)}}
			s.SetTimestamp(t.StartedAt)
			byFile[t.File] = s
			order = append(order, t.File)
		}
		tc := caseOf(t)
		quarantinedCase(&tc, t)
		if usage {
			usageOut(&tc, t)
		}
		s.add(tc)
		s.Time = seconds(msOf(s.Time) + t.DurationMs)
		tests[t.File] = append(tests[t.File], t)
	}
	for _, f := range order {
		if usage {
			usageProperties(byFile[f], tests[f])
		}
		confidenceProperties(byFile[f], tests[f])
		adaptiveProperties(byFile[f], tests[f])
		quarantineProperties(byFile[f], tests[f])
		suites.add(*byFile[f])
	}
	// The attack runs after the tests they attacked.
	if s, ok := attackSuite(r); ok {
		s.ID = len(suites.Suites)
		suites.add(s)
	}
	// The run's budget last: it holds the tests together.
	if s, ok := budgetSuite(r); ok {
		suites.add(s)
	}
	// junit-10.xsd rejects `skipped` on <testsuites> and `disabled`
	// anywhere; consumers read the per-suite counts.
	suites.Skipped, suites.Disabled = 0, 0
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return fmt.Errorf("write junit header: %w", err)
	}
	if err := suites.writeXML(w); err != nil {
		return fmt.Errorf("write junit: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// caseOf is the testcase for t. Surefire's conventions for reruns, which
// Jenkins and GitLab follow: a passing test's failed attempts are "flaky"
// and leave it passing; a failed or errored test's further failed attempts
// are "reruns" of its one <failure> or <error>.
func caseOf(t *report.Test) testcase {
	tc := testcase{Testcase: junit.Testcase{Name: clean(t.Name), Classname: clean(t.File), Time: seconds(t.DurationMs)}}
	switch t.Status {
	case status.Pass:
		tc.Reruns = reruns(t, t.Others(), "flaky")
		if len(t.Warned()) > 0 || len(t.NotMade()) > 0 {
			tc.SystemOut = systemOut(t)
		}
	case status.Fail:
		tc.Failure, tc.Reruns = failure(t)
		tc.SystemOut = systemOut(t)
	case status.Error:
		tc.Error = &junit.Result{Message: clean(format.Short(t.Reason, maxMessage)), Type: "error", Data: clean(errorText(t))}
		tc.SystemOut = systemOut(t)
		tc.Reruns = reruns(t, t.Others(), "rerun")
	case status.Skipped:
		tc.Skipped = &junit.Result{Message: clean(t.Reason)}
	}
	return tc
}

// seconds formats milliseconds as junit-10.xsd's SUREFIRE_TIME: plain
// decimal seconds.
func seconds(ms int64) string { return strconv.FormatFloat(float64(ms)/1000, 'f', 3, 64) }

func msOf(s string) int64 {
	f, _ := strconv.ParseFloat(s, 64)
	return int64(f*1000 + 0.5)
}
