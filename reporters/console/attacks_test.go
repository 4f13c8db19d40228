package console_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/console"
)

// TestWriteAttacks: after the summary, the Attacks section gives the
// totals, the gate's verdict, a line per test and channel site, the worst
// runs (succeeded first, at most five) with where the payload was planted,
// the attack and each piece of evidence, then the tests not attacked; -v
// lists every run; without a gate there is no verdict line, and nothing
// says the run failed.
func TestWriteAttacks(t *testing.T) {
	for _, tc := range []struct {
		golden string
		gated  bool
		opts   console.Options
	}{
		{"attacks", true, console.Options{}},
		{"attacks-verbose", true, console.Options{Verbose: true}},
		{"attacks-ungated", false, console.Options{}},
		{"attacks-color", true, console.Options{Color: true}},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			r := reporttest.AttacksReport(tc.gated, reporttest.Passing, reporttest.Wobbly)
			var b bytes.Buffer
			if err := console.Write(&b, r, tc.opts); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			golden.Assert(t, "testdata/"+tc.golden+".golden.txt", out)
			if strings.Contains(out, reporttest.Secret) {
				t.Error("the output shows the secret")
			}
			if strings.Contains(out, "Flaky tests fail the run") {
				t.Error("the output blames flaky tests for the run's failure")
			}
			if got := strings.Contains(out, "above the allowed 0%: the run fails"); got != tc.gated {
				t.Errorf("gate's verdict shown %v, want %v", got, tc.gated)
			}
		})
	}
}

// TestWriteWithoutAttacks: a run without attacks has no Attacks section.
func TestWriteWithoutAttacks(t *testing.T) {
	var b bytes.Buffer
	console.Write(&b, reporttest.Report(), console.Options{})
	if strings.Contains(b.String(), "Attacks:") {
		t.Errorf("a run without attacks shows them:\n%s", b.String())
	}
}

// TestAttackFinished: each attack run's line as it finishes — outcome's
// symbol, test, channel site, attack, outcome (with why, when errored or
// skipped) and utility — printed above the progress line, which it
// redraws without counting the run as a test.
func TestAttackFinished(t *testing.T) {
	a := reporttest.Attacks(true)
	byID := map[string]report.AttackRun{}
	for _, run := range a.Runs {
		byID[run.ID] = run
	}
	for _, tc := range []struct{ id, want string }{
		{"tests/weather@attack/tool_result.get_forecast/tool-plain", "✗ weather in Paris · tool_result get_forecast · tool-plain · succeeded · utility pass\n"},
		{"tests/weather@attack/user/reveal-fake-system", "✓ weather in Paris · user · reveal-fake-system · resisted · utility fail\n"},
		{"tests/search@attack/double.search/tool-encoded", "! search finds shoes · double search · tool-encoded · errored: turn[0]: the agent sent nothing for 30s · utility error\n"},
		{"tests/search@attack/history.1/tool-plain", "- search finds shoes · history 1 · tool-plain · skipped: the test itself calls search\n"},
	} {
		var b strings.Builder
		console.NewLive(&b, console.Options{}).AttackFinished(byID[tc.id])
		if b.String() != tc.want {
			t.Errorf("%s: printed %q\nwant %q", tc.id, b.String(), tc.want)
		}
	}

	var w chunks
	l := console.NewLive(&w, console.Options{Progress: true, Total: 1, Color: true})
	l.TestStarted(newTest("a"))
	l.AttackFinished(byID["tests/weather@attack/user/leak-url"])
	want := []string{
		"\x1b[2m[0/1 done, 1 running]\x1b[0m",
		"\r\x1b[K\x1b[31m✗\x1b[0m weather in Paris · user · leak-url · \x1b[31msucceeded\x1b[0m · utility fail\n\x1b[2m[0/1 done, 1 running]\x1b[0m",
	}
	if strings.Join(w.got, "|") != strings.Join(want, "|") {
		t.Errorf("writes:\n%q\nwant:\n%q", w.got, want)
	}
	if report.AttackStatus(report.AttackSucceeded) != status.Fail {
		t.Error("a succeeded attack is not shown as a failure")
	}
}
