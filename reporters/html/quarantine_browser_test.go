package html_test

import (
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/html/htmltest"
	"github.com/ananke/action/reporters/reportdir"
)

// TestBrowserQuarantine: the run's header counts the quarantined tests and
// gives the advice about the list; a filter shows them alone; each is
// flagged in the list and its view, which says its entry and, when it
// passed every attempt, that it was stable in this run; a test not
// quarantined says nothing of it.
func TestBrowserQuarantine(t *testing.T) {
	rep := reporttest.QuarantineReport(reporttest.Failing, reporttest.Passing, reporttest.Wobbly)
	if err := rep.Advise(report.QuarantineAdvice{Test: "tests/search", Action: report.AdviseQuarantine, Reason: "fails 6 of the last 20 runs on main"}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := reportdir.Write(dir, rep); err != nil {
		t.Fatal(err)
	}
	p := htmltest.Open(t, filepath.Join(dir, reportdir.HTMLFile))
	p.WaitVisible("#run")
	run := p.Text("#run")
	for _, want := range []string{"Quarantined", "2 (1 failed, not failing the run)", "Suggested: quarantine search finds shoes: fails 6 of the last 20 runs on main"} {
		if !strings.Contains(run, want) {
			t.Errorf("the run's header lacks %q:\n%s", want, run)
		}
	}
	p.Click(`.filters button[data-filter="quarantined"]`)
	if got := p.Text("#shown"); got != "Showing 2 of 3 tests" {
		t.Errorf("the quarantined filter: %q", got)
	}
	if n := strings.Count(p.Text("#list"), "· quarantined"); n != 2 {
		t.Errorf("%d tests marked quarantined in the list, want 2:\n%s", n, p.Text("#list"))
	}
	for id, want := range map[string]string{
		"tests/checkout": "Quarantined: the payment sandbox declines at random",
		"tests/weather":  "Stable in this run: every attempt passed.",
		"tests/search":   "",
	} {
		p.SetHash("test=" + url.QueryEscape(id))
		p.WaitVisible(`#detail[data-test="` + id + `"]`)
		got := p.Text("#detail")
		if want == "" {
			if strings.Contains(got, "uarantine") {
				t.Errorf("%s: a test not quarantined speaks of quarantine:\n%s", id, got)
			}
			continue
		}
		if !strings.Contains(got, want) || !strings.Contains(got, "never fails the run") || p.Count(`#detail .test-head .flag.warn`) == 0 {
			t.Errorf("%s: the view lacks %q or its flag:\n%s", id, want, got)
		}
	}
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("script errors: %v", errs)
	}
}
