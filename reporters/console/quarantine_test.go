package console_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/reporters/console"
)

// TestWriteQuarantine: a quarantined test's tree says its entry and that
// it fails nothing; the summary counts the quarantined tests, lists each
// with its reason (stable in this run, for one that passed every attempt)
// and the advice about the quarantine list.
func TestWriteQuarantine(t *testing.T) {
	r := reporttest.QuarantineReport(reporttest.Failing, reporttest.Passing, reporttest.Errored, reporttest.Wobbly)
	err := r.Advise(report.QuarantineAdvice{Test: "tests/search", Action: report.AdviseQuarantine, Reason: "fails 6 of the last 20 runs on main (30%)"},
		report.QuarantineAdvice{Test: "tests/weather", Action: report.AdviseRelease, Reason: "passed the last 30 runs on main"})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := console.Write(&b, r, console.Options{}); err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, "testdata/quarantine.golden.txt", b.String())
}

// TestQuarantineWhyFailed: a run failed by a flaky test under
// --fail-on-flaky says so though a quarantined test failed too.
func TestQuarantineWhyFailed(t *testing.T) {
	out := reporttest.Outcome()
	out.Tests = []*engine.TestResult{out.Tests[reporttest.Failing], out.Tests[reporttest.Wobbly]}
	out.Tests[0].Test.Quarantine = reporttest.CheckoutQuarantine
	cfg := reporttest.Config()
	r := report.Build(out, report.Meta{Config: cfg, FailOnFlaky: true})
	var b bytes.Buffer
	console.Write(&b, r, console.Options{})
	for _, want := range []string{"Flaky tests fail the run (--fail-on-flaky).", "Quarantined: 1 (1 failed, not failing the run)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, b.String())
		}
	}
}

// TestLiveQuarantine: a quarantined test's line ends with a mark; the
// others' have none.
func TestLiveQuarantine(t *testing.T) {
	out := reporttest.Outcome()
	out.Tests[reporttest.Failing].Test.Quarantine = &spec.Quarantine{Test: "tests/checkout", Reason: "r"}
	for i, want := range map[int]bool{reporttest.Failing: true, reporttest.Passing: false} {
		var b bytes.Buffer
		console.NewLive(&b, console.Options{}).TestFinished(out.Tests[i])
		if got := strings.HasSuffix(b.String(), " · quarantined\n"); got != want {
			t.Errorf("line %q: marked %v, want %v", b.String(), got, want)
		}
	}
}
