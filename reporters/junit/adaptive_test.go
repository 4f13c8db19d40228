package junit_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/report/reporttest"
)

// TestAdaptiveProperties: each test run adaptively puts why its runs
// stopped in a property of its file's suite, which junit-10.xsd accepts;
// a fixed test puts none.
func TestAdaptiveProperties(t *testing.T) {
	out := render(t, reporttest.AdaptiveReport(false, reporttest.SettledPass, reporttest.SettledFail, reporttest.Inconclusive, reporttest.Fixed))
	validate(t, out)
	s := string(out)
	for _, want := range []string{
		`<property name="ananke.adaptive" value="stop=settled_pass runs=24 min=3 max=30"></property>`,
		`<property name="ananke.adaptive" value="stop=settled_fail runs=6 min=3 max=30"></property>`,
		`<property name="ananke.adaptive" value="stop=max_runs runs=3 min=2 max=3 inconclusive"></property>`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("junit.xml lacks %s", want)
		}
	}
	if strings.Contains(s, "ananke.adaptive.tests/fixed") {
		t.Error("a fixed test has an adaptive property")
	}
}
