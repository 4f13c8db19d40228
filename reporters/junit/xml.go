package junit

import (
	"encoding/xml"
	"io"

	"github.com/jstemmer/go-junit-report/v2/junit"
)

// testcase is a junit.Testcase plus Surefire's elements for the other
// attempts of a test run several times, which the library does not model.
// encoding/xml writes the embedded fields first, so the reruns follow
// <failure>, <error> and <system-out>, as Surefire writes them;
// junit-10.xsd accepts the children in any order.
type testcase struct {
	junit.Testcase
	Reruns []rerun `xml:"rerun,omitempty"` // each named by its XMLName
}

// rerun is one attempt that did not pass, as junit-10.xsd's rerunType:
// <rerunFailure>, <rerunError>, <flakyFailure> or <flakyError>. A slice of
// one type with the element name in XMLName keeps the attempts in the
// order they ran.
type rerun struct {
	XMLName    xml.Name
	Message    string        `xml:"message,attr"`
	Type       string        `xml:"type,attr"`
	StackTrace *junit.Output `xml:"stackTrace,omitempty"`
}

// testsuite carries our testcases. Its Cases shadow the embedded
// Testcases (encoding/xml drops the deeper field of the same name); add
// still leaves those nil, so no testcase can be written twice.
type testsuite struct {
	junit.Testsuite
	Cases []testcase `xml:"testcase,omitempty"`
}

// add appends c, counting it (tests, failures, errors, skipped) as the
// library does.
func (s *testsuite) add(c testcase) {
	s.AddTestcase(c.Testcase)
	s.Testsuite.Testcases = nil
	s.Cases = append(s.Cases, c)
}

// testsuites carries our testsuites, as testsuite carries our testcases.
type testsuites struct {
	junit.Testsuites
	Suites []testsuite `xml:"testsuite,omitempty"`
}

// add appends s, adding its counts to the totals as the library does.
func (r *testsuites) add(s testsuite) {
	r.AddSuite(s.Testsuite)
	r.Testsuites.Suites = nil
	r.Suites = append(r.Suites, s)
}

// writeXML writes r as junit.Testsuites.WriteXML does: tab-indented, with
// a newline after the root element.
func (r *testsuites) writeXML(w io.Writer) error {
	enc := xml.NewEncoder(w)
	enc.Indent("", "\t")
	if err := enc.Encode(r); err != nil {
		return err
	}
	if err := enc.Flush(); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
