package report_test

import (
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/status"
)

// TestStatusExcusing: the run's status with the failures the history
// explains excused — what fail-on new ends the step with — is a pass when
// they were the only ones, and keeps every other cause: a new failure, an
// errored test not excused, a flaky test under fail-on-flaky. The report
// is left as it was.
func TestStatusExcusing(t *testing.T) {
	explained := func(t *report.Test) bool { return !t.CountsAsNew() }
	for _, tc := range []struct {
		name        string
		tests       []int
		failOnFlaky bool
		want        status.Status
	}{
		{"known flaky and already failing", []int{reporttest.Failing, reporttest.Errored, reporttest.Passing}, false, status.Pass},
		{"and a new failure", []int{reporttest.Failing, reporttest.Flips, reporttest.Passing}, false, status.Fail},
		{"a flaky test under fail-on-flaky", []int{reporttest.Failing, reporttest.Wobbly}, true, status.Fail},
		{"a flaky test", []int{reporttest.Failing, reporttest.Wobbly}, false, status.Pass},
	} {
		r := reporttest.HistoryReport(tc.tests...)
		r.FailOnFlaky = tc.failOnFlaky
		before := r.Status
		if got := r.StatusExcusing(explained); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
		if r.Status != before || r.Totals.Quarantined != nil {
			t.Errorf("%s: the report changed", tc.name)
		}
	}
	// Excusing only the failure leaves the errored test: an error.
	r := reporttest.HistoryReport(reporttest.Failing, reporttest.Errored)
	if got := r.StatusExcusing(func(t *report.Test) bool { return t.Status == status.Fail }); got != status.Error {
		t.Errorf("the errored test not excused: %s, want error", got)
	}
}

// TestCountsAsNew: a failing or errored test counts as new when its
// history says so or it has none; a passing one never does.
func TestCountsAsNew(t *testing.T) {
	for _, tc := range []struct {
		st   status.Status
		h    *report.TestHistory
		want bool
	}{
		{status.Fail, nil, true},
		{status.Error, &report.TestHistory{Blame: "new", New: true}, true},
		{status.Fail, &report.TestHistory{Blame: "flaky", New: true}, true},
		{status.Fail, &report.TestHistory{Blame: "flaky"}, false},
		{status.Error, &report.TestHistory{Blame: "failing"}, false},
		{status.Pass, nil, false},
		{status.Skipped, &report.TestHistory{}, false},
	} {
		if got := (&report.Test{Status: tc.st, History: tc.h}).CountsAsNew(); got != tc.want {
			t.Errorf("%s %+v: %v, want %v", tc.st, tc.h, got, tc.want)
		}
	}
}
