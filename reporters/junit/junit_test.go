package junit_test

import (
	"bytes"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/junit"
)

func xsd() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "junit", "junit-10.xsd")
}

func render(t *testing.T, r *report.Report) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := junit.Write(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// validate checks the XML against junit-10.xsd with xmllint. CI installs
// libxml2-utils; a missing xmllint fails the test rather than skipping it.
func validate(t *testing.T, xmlData []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "junit.xml")
	if err := os.WriteFile(path, xmlData, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("xmllint", "--noout", "--schema", xsd(), path).CombinedOutput()
	if err != nil {
		t.Fatalf("xmllint rejects the output: %v\n%s\n%s", err, out, xmlData)
	}
}

// TestWrite: the fixture (a passing, failing, erroring and skipped test; a
// flaky test that passes and one that fails over several runs; agent text
// with ANSI escapes, "]]>" and markup; a masked secret) renders to the
// golden file, which junit-10.xsd accepts.
func TestWrite(t *testing.T) {
	out := render(t, reporttest.Report())
	golden.Assert(t, "testdata/junit.golden.xml", string(out))
	validate(t, out)
	s := string(out)
	if strings.Contains(s, reporttest.Secret) || strings.Contains(s, "\x1b") {
		t.Error("the output holds the secret or a raw escape")
	}
	var parsed struct {
		Suites []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string    `xml:"name,attr"`
				Time    string    `xml:"time,attr"`
				Failure *struct{} `xml:"failure"`
				Error   *struct{} `xml:"error"`
				Skipped *struct{} `xml:"skipped"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(out, &parsed); err != nil {
		t.Fatalf("parse: %v", err)
	}
	if len(parsed.Suites) != 6 {
		t.Fatalf("%d suites; want one per test file (6)", len(parsed.Suites))
	}
	kinds := ""
	for _, s := range parsed.Suites {
		for _, c := range s.Cases {
			if c.Time == "" {
				t.Errorf("%s has no time", c.Name)
			}
			switch {
			case c.Failure != nil:
				kinds += "F"
			case c.Error != nil:
				kinds += "E"
			case c.Skipped != nil:
				kinds += "S"
			default:
				kinds += "P"
			}
		}
	}
	if kinds != "FPESPF" {
		t.Errorf("cases = %s; want FPESPF", kinds)
	}
}

// TestHostileText: every control character and the CDATA terminator in
// every field still produce a valid file.
func TestHostileText(t *testing.T) {
	r := reporttest.Report()
	var nasty strings.Builder
	for c := rune(0); c < 0x20; c++ {
		nasty.WriteRune(c)
	}
	nasty.WriteString("\x7f\u0085 ]]> ]]]]>> <![CDATA[ &amp; \"'<>\ufffe\xff")
	r.Tests[0].Name = nasty.String()
	r.Tests[0].File = "tests/" + nasty.String()
	for i := range r.Tests[0].Assertions {
		r.Tests[0].Assertions[i].Message = nasty.String()
	}
	r.Tests[2].Reason, r.Tests[2].Detail = nasty.String(), nasty.String()
	r.Tests[3].Reason = nasty.String()
	r.Tests[4].Attempts[1].Failed[0].Message = nasty.String()
	r.Tests[5].Attempts[1].Status, r.Tests[5].Attempts[1].Reason = status.Error, nasty.String()
	validate(t, render(t, r))
}

// TestEmpty: a run with no tests is still a valid file.
func TestEmpty(t *testing.T) {
	validate(t, render(t, &report.Report{}))
}
