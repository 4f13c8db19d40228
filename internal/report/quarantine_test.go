package report_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
)

// TestQuarantined: a quarantined test keeps the status it earned and says
// its entry; one that passed every attempt is stable in this run; the
// totals count the quarantined tests with the others and apart.
func TestQuarantined(t *testing.T) {
	r := reporttest.QuarantineReport(reporttest.Failing, reporttest.Passing, reporttest.Errored, reporttest.Wobbly)
	if r.Status != status.Pass {
		t.Errorf("status %s: a run whose only failure and error are quarantined passes", r.Status)
	}
	checkout, weather, refund, search := r.Tests[0], r.Tests[1], r.Tests[2], r.Tests[3]
	want := report.Quarantined{Reason: "the payment sandbox declines at random", Until: "2026-12-31", Owner: "@payments",
		Issue: "https://github.com/acme/shop/issues/42", Match: "tests/checkout", Source: report.Location{File: "ananke.config.yaml", Line: 12, Col: 5}}
	if checkout.Status != status.Fail || checkout.Quarantined == nil || *checkout.Quarantined != want {
		t.Errorf("checkout: %s, %+v; want fail, %+v", checkout.Status, checkout.Quarantined, want)
	}
	if q := weather.Quarantined; q == nil || !q.StableInRun || q.Match != "tests/[wr]e*" || q.Source.File != ".ananke/quarantine.yaml" {
		t.Errorf("weather: %+v, want stable in this run by the glob", q)
	}
	if q := refund.Quarantined; refund.Status != status.Error || q == nil || q.StableInRun {
		t.Errorf("refund: %s, %+v; want error, quarantined, not stable", refund.Status, q)
	}
	if search.Quarantined != nil {
		t.Errorf("search is quarantined: %+v", search.Quarantined)
	}
	tot := r.Totals
	if tot.Total != 4 || tot.Passed != 2 || tot.Failed != 1 || tot.Errored != 1 || tot.Flaky != 1 {
		t.Errorf("totals %+v: the quarantined tests are counted as they did", tot)
	}
	wantQ := report.QuarantineTotals{Tests: 3, Passed: 1, Failed: 1, Errored: 1, Stable: 1}
	if tot.Quarantined == nil || *tot.Quarantined != wantQ {
		t.Errorf("quarantined totals %+v, want %+v", tot.Quarantined, wantQ)
	}
	if c := tot.Counted(); c.Total != 1 || c.Passed != 1 || c.Failed != 0 || c.Errored != 0 || c.Flaky != 1 || c.Quarantined != nil {
		t.Errorf("counted %+v: only search decides", c)
	}
	if none := reporttest.Pick(false, reporttest.Failing); none.Totals.Quarantined != nil || none.Tests[0].Quarantined != nil {
		t.Errorf("a run without quarantine has quarantine totals %+v", none.Totals.Quarantined)
	}
}

// TestQuarantineVerdict: quarantined tests — failed, errored, flaky under
// fail-on-flaky, inconclusive under fail-on-inconclusive — leave the run's
// verdict to the others, and a merge keeps it so.
func TestQuarantineVerdict(t *testing.T) {
	entry := &spec.Quarantine{Test: "x", Reason: "r"}
	build := func(out *engine.Outcome, quarantined []int, m report.Meta) *report.Report {
		for _, i := range quarantined {
			out.Tests[i].Test.Quarantine = entry
		}
		m.Config = reporttest.Config()
		return report.Build(out, m)
	}
	pick := func(tests ...int) *engine.Outcome {
		out := reporttest.Outcome()
		all := out.Tests
		out.Tests = nil
		for _, i := range tests {
			out.Tests = append(out.Tests, all[i])
		}
		return out
	}
	inconclusive := func() *engine.Outcome {
		out := reporttest.AdaptiveOutcome()
		out.Tests = out.Tests[reporttest.Inconclusive : reporttest.Inconclusive+1]
		return out
	}
	for _, tc := range []struct {
		name        string
		out         *engine.Outcome
		quarantined []int
		meta        report.Meta
		want        status.Status
	}{
		{"failed, quarantined", pick(reporttest.Failing, reporttest.Passing), []int{0}, report.Meta{}, status.Pass},
		{"failed, not quarantined", pick(reporttest.Failing, reporttest.Passing), nil, report.Meta{}, status.Fail},
		{"another test failed", pick(reporttest.Failing, reporttest.Flips), []int{0}, report.Meta{}, status.Fail},
		{"errored, quarantined", pick(reporttest.Errored, reporttest.Passing), []int{0}, report.Meta{}, status.Pass},
		{"errored beside a quarantined failure", pick(reporttest.Failing, reporttest.Errored), []int{0}, report.Meta{}, status.Error},
		{"flaky, quarantined, fail-on-flaky", pick(reporttest.Wobbly), []int{0}, report.Meta{FailOnFlaky: true}, status.Pass},
		{"flaky, fail-on-flaky", pick(reporttest.Wobbly), nil, report.Meta{FailOnFlaky: true}, status.Fail},
		{"inconclusive, quarantined, fail-on-inconclusive", inconclusive(), []int{0}, report.Meta{FailOnInconclusive: true}, status.Pass},
		{"inconclusive, fail-on-inconclusive", inconclusive(), nil, report.Meta{FailOnInconclusive: true}, status.Fail},
		{"all quarantined", pick(reporttest.Failing, reporttest.Flips), []int{0, 1}, report.Meta{}, status.Pass},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := build(tc.out, tc.quarantined, tc.meta)
			if r.Status != tc.want {
				t.Errorf("status %s, want %s", r.Status, tc.want)
			}
			m, err := report.Merge([]*report.Report{r, reporttest.Pick(false, reporttest.Skipped)})
			if err != nil {
				t.Fatal(err)
			}
			if m.Status != tc.want || m.Totals.Quarantine().Tests != len(tc.quarantined) {
				t.Errorf("merged: status %s, %d quarantined; want %s, %d", m.Status, m.Totals.Quarantine().Tests, tc.want, len(tc.quarantined))
			}
		})
	}
}

// TestQuarantineAdvise: advice about the quarantine list is kept in the
// report's order, one per test, masked; advice that does not fit — an
// unknown test or action, no reason, quarantining a quarantined test or
// releasing one that is not — is refused and named; a merge keeps it.
func TestQuarantineAdvise(t *testing.T) {
	r := reporttest.QuarantineReport(reporttest.Failing, reporttest.Passing, reporttest.Wobbly)
	err := r.Advise(
		report.QuarantineAdvice{Test: "tests/search", Action: report.AdviseQuarantine, Reason: "fails 6 of the last 20 runs on main"},
		report.QuarantineAdvice{Test: "tests/weather", Action: report.AdviseRelease, Reason: "passed the last 30 runs on main"},
		report.QuarantineAdvice{Test: "tests/search", Action: report.AdviseQuarantine, Reason: "fails 7 of the last 20 runs on main " + reporttest.Secret},
		report.QuarantineAdvice{Test: "tests/nope", Action: report.AdviseRelease, Reason: "r"},
		report.QuarantineAdvice{Test: "tests/search", Action: "ignore", Reason: "r"},
		report.QuarantineAdvice{Test: "tests/weather", Action: report.AdviseRelease},
		report.QuarantineAdvice{Test: "tests/checkout", Action: report.AdviseQuarantine, Reason: "r"},
		report.QuarantineAdvice{Test: "tests/search", Action: report.AdviseRelease, Reason: "r"},
	)
	for _, want := range []string{
		"quarantine advice for tests/nope: no such test in the report",
		`quarantine advice for tests/search: unknown action "ignore"`,
		"quarantine advice for tests/weather: no reason",
		"quarantine advice for tests/checkout: cannot quarantine a test that is quarantined",
		"quarantine advice for tests/search: cannot release a test that is not quarantined",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
	got := r.QuarantineAdvice
	if len(got) != 2 || got[0].Test != "tests/weather" || got[1].Test != "tests/search" ||
		got[1].Reason != "fails 7 of the last 20 runs on main ***" {
		t.Errorf("advice %+v: want weather's, then search's latest, masked", got)
	}
	if a, ok := r.Advice("tests/weather"); !ok || a.Action != report.AdviseRelease {
		t.Errorf("Advice(weather) = %+v, %v", a, ok)
	}
	if _, ok := r.Advice("tests/checkout"); ok {
		t.Error("checkout has advice")
	}
	m, err := report.Merge([]*report.Report{r, reporttest.Pick(false, reporttest.Skipped)})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.QuarantineAdvice) != 2 {
		t.Errorf("merged advice %+v", m.QuarantineAdvice)
	}
}
