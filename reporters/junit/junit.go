// Package junit writes the run as JUnit XML for GitLab, Jenkins and every
// other CI that reads it: one <testsuite> per test file, one <testcase> per
// test, a <failure type="assertion"> holding every failing assertion with
// its YAML position and evidence, <error> for errors, <skipped>. The output
// validates against Jenkins' junit-10.xsd.
package junit

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"

	"github.com/ananke/action/reporters/internal/format"

	"github.com/jstemmer/go-junit-report/v2/junit"

	"github.com/ananke/action/internal/report"
)

// Write writes r as JUnit XML, header included.
func Write(w io.Writer, r *report.Report) error {
	suites := junit.Testsuites{Name: "ananke", Time: seconds(r.DurationMs)}
	var order []string
	byFile := map[string]*junit.Testsuite{}
	for i := range r.Tests {
		t := &r.Tests[i]
		s := byFile[t.File]
		if s == nil {
			s = &junit.Testsuite{Name: clean(t.File), File: clean(t.File), ID: len(order)}
			s.SetTimestamp(t.StartedAt)
			byFile[t.File] = s
			order = append(order, t.File)
		}
		s.AddTestcase(testcase(t))
		s.Time = seconds(msOf(s.Time) + t.DurationMs)
	}
	for _, f := range order {
		suites.AddSuite(*byFile[f])
	}
	// junit-10.xsd rejects `skipped` on <testsuites> and `disabled`
	// anywhere; consumers read the per-suite counts.
	suites.Skipped, suites.Disabled = 0, 0
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return fmt.Errorf("write junit header: %w", err)
	}
	if err := suites.WriteXML(w); err != nil {
		return fmt.Errorf("write junit: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func testcase(t *report.Test) junit.Testcase {
	tc := junit.Testcase{Name: clean(t.Name), Classname: clean(t.File), Time: seconds(t.DurationMs)}
	switch t.Status {
	case report.StatusFail:
		failed := t.Failed()
		msg := failed[0].Message
		if len(failed) > 1 {
			msg = fmt.Sprintf("%d assertions failed; first: %s", len(failed), msg)
		}
		tc.Failure = &junit.Result{Message: clean(format.Short(msg, 300)), Type: "assertion", Data: clean(failureText(t, failed))}
		tc.SystemOut = &junit.Output{Data: clean(transcript(t))}
	case report.StatusError:
		tc.Error = &junit.Result{Message: clean(format.Short(t.Reason, 300)), Type: "error", Data: clean(errorText(t))}
		if len(t.Turns) > 0 {
			tc.SystemOut = &junit.Output{Data: clean(transcript(t))}
		}
	case report.StatusSkipped:
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
