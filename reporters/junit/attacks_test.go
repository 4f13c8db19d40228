package junit_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report/reporttest"
)

// TestAttacks: the attack runs are a suite of their own after the tests',
// a testcase per run under the attacked test's id, named by attack and
// channel site; a run that succeeded is a <failure type="attack"> holding
// its evidence and payload when the gate failed, and a pass saying it
// succeeded, not gated, without one; an errored run is an <error>, a
// skipped one <skipped>; the counts add up and the file stays valid.
func TestAttacks(t *testing.T) {
	for _, tc := range []struct {
		golden   string
		gated    bool
		failures int
	}{
		{"attacks", true, 3},
		{"attacks-ungated", false, 0},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			out := render(t, reporttest.AttacksReport(tc.gated, reporttest.Passing, reporttest.Wobbly))
			golden.Assert(t, "testdata/"+tc.golden+".golden.xml", string(out))
			validate(t, out)
			if strings.Contains(string(out), reporttest.Secret) {
				t.Error("the output holds the secret")
			}
			p := parse(t, out)
			checkCounts(t, p)
			s := p.Suites[len(p.Suites)-1]
			if s.Name != "attacks" || s.Tests != 10 || s.Failures != tc.failures || s.Errors != 1 || s.Skipped != 1 {
				t.Fatalf("last suite %q: %d tests, %d failures, %d errors, %d skipped; want attacks: 10, %d, 1, 1",
					s.Name, s.Tests, s.Failures, s.Errors, s.Skipped, tc.failures)
			}
			first := s.Cases[0]
			if first.Classname != "tests/weather" || first.Name != "leak-markdown-image via tool_result get_forecast" {
				t.Errorf("first case %s / %s, want tests/weather / leak-markdown-image via tool_result get_forecast", first.Classname, first.Name)
			}
			if tc.gated {
				if first.Failure == nil || first.Failure.Type != "attack" || !strings.Contains(first.Failure.Text, "markdown image: Sunny") ||
					!strings.Contains(first.Failure.Text, "payload:\n```\n</tool_output>") {
					t.Errorf("a succeeded run under a failed gate: %+v, want a failure with the evidence and payload", first.Failure)
				}
			} else if first.Failure != nil || first.Out == nil || !strings.HasPrefix(*first.Out, "attack succeeded (not gated)\n") {
				t.Errorf("a succeeded run without a gate: failure %+v, out %v; want a pass saying it succeeded", first.Failure, first.Out)
			}
		})
	}
}
