package junit_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report/reporttest"
)

// TestQuarantineJUnit: a quarantined test that failed or errored is a
// <skipped type="quarantined"> carrying its failure or error, never a
// <failure> or <error> that would fail the build; one that passed is as
// it was; each has a property on its suite; the file is valid against
// junit-10.xsd; a test not quarantined keeps its failure.
func TestQuarantineJUnit(t *testing.T) {
	out := render(t, reporttest.QuarantineReport(reporttest.Failing, reporttest.Passing, reporttest.Errored, reporttest.Flips))
	validate(t, out)
	golden.Assert(t, "testdata/quarantine.golden.xml", string(out))
	s := string(out)
	for _, want := range []string{
		`<skipped message="quarantined, failed (not failing the build): the payment sandbox declines at random" type="quarantined">`,
		`<skipped message="quarantined, errored (not failing the build): waiting for the v2 agent" type="quarantined">`,
		`tests/checkout.ananke.yaml:14:13: forbidden call to`,
		`<property name="ananke.quarantined" value="fail: the payment sandbox declines at random (until 2026-12-31, @payments, https://github.com/acme/shop/issues/42, ananke.config.yaml:12)"></property>`,
		`<property name="ananke.quarantined" value="pass, stable in this run: waiting for the v2 agent (.ananke/quarantine.yaml:2)"></property>`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("junit.xml lacks %s", want)
		}
	}
	if n := strings.Count(s, "<failure "); n != 1 {
		t.Errorf("%d <failure> elements, want 1 (search flips, not quarantined)", n)
	}
	if strings.Contains(s, "<error ") {
		t.Error("a quarantined error is an <error>")
	}
}
