// Package issuestest holds what the tests of the formats written from
// package issues share: the fixture reports each renders to a golden file,
// so that reporters/codequality and reporters/warningsng are checked over
// the same runs, and the check that no secret of them is written.
package issuestest

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/internal/suitetest"
)

// Fixtures are the reports every issue format renders, by golden file
// name (testdata/<name>.golden.json).
func Fixtures() map[string]*report.Report {
	return map[string]*report.Report{
		"report":     reporttest.Report(),
		"suite":      suitetest.Report(),
		"quarantine": reporttest.QuarantineReport(reporttest.Failing, reporttest.Passing, reporttest.Errored, reporttest.Wobbly),
		"variants":   reporttest.VariantsReport(),
		"judges":     reporttest.JudgesReport(),
		"warnings":   reporttest.Pick(false, reporttest.Passing),
	}
}

// NoSecret fails t when out holds a secret the fixtures plant.
func NoSecret(t testing.TB, out []byte) {
	t.Helper()
	for _, secret := range []string{reporttest.Secret, suitetest.Secret} {
		if strings.Contains(string(out), secret) {
			t.Errorf("the file holds the secret %q", secret)
		}
	}
}
