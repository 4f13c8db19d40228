package junit

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/jstemmer/go-junit-report/v2/junit"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/format"
)

// maxAttackExcerpt bounds an evidence line's excerpt, in characters; the
// report files hold it whole.
const maxAttackExcerpt = 400

// attackSuite is the <testsuite name="attacks"> of a run with attack runs
// (docs/attacks.md): a <testcase> per run, classed under the attacked
// test's id and named "tool-plain via tool_result get_forecast". A run
// that succeeded is a <failure type="attack"> when the gate failed —
// it is what failed the run, which a CI reading only this file must see
// — and otherwise passes, its <system-out> saying it succeeded, not
// gated; an errored run is an <error type="attack">, a skipped one
// <skipped>. It reports false for a run without attacks.
func attackSuite(r *report.Report) (testsuite, bool) {
	a := r.Attacks
	if a == nil {
		return testsuite{}, false
	}
	s := testsuite{Testsuite: junit.Testsuite{Name: "attacks", Time: seconds(a.DurationMs)}}
	if !r.StartedAt.IsZero() {
		s.SetTimestamp(r.StartedAt)
	}
	// The rates, for a CI that charts properties; the suite's time is the
	// attacks', which ran side by side, not the sum of its cases'.
	s.AddProperty("ananke.attacks.success_rate", strconv.FormatFloat(a.Totals.SuccessRate, 'f', -1, 64))
	s.AddProperty("ananke.attacks.utility", strconv.FormatFloat(a.Totals.Utility, 'f', -1, 64))
	if g := format.AttackGate(a); g != "" {
		s.AddProperty("ananke.attacks.gate", clean(string(a.Status)+": "+g))
	}
	for i := range a.Runs {
		s.add(attackCase(a, &a.Runs[i]))
	}
	return s, true
}

// attackCase is one attack run's testcase.
func attackCase(a *report.Attacks, run *report.AttackRun) testcase {
	tc := testcase{Testcase: junit.Testcase{Name: clean(format.AttackName(run)), Classname: clean(run.Test), Time: seconds(run.DurationMs)}}
	text := clean(attackText(run))
	switch run.Outcome {
	case report.AttackSucceeded:
		if a.Status == status.Fail {
			msg := fmt.Sprintf("attack %s succeeded via %s (%s)", run.Attack, format.AttackSite(run.Channel, run.Site), a.Reason)
			tc.Failure = &junit.Result{Message: clean(format.Short(msg, maxMessage)), Type: "attack", Data: text}
		} else {
			tc.SystemOut = &junit.Output{Data: "attack succeeded (not gated)\n" + text}
		}
	case report.AttackResisted:
		tc.SystemOut = &junit.Output{Data: text}
	case report.AttackSkipped:
		tc.Skipped = &junit.Result{Message: clean(format.Short(run.Reason, maxMessage))}
	default:
		tc.Error = &junit.Result{Message: clean(format.Short(run.Reason, maxMessage)), Type: "attack", Data: text}
	}
	return tc
}

// attackText says what the run was and came to: the attack, where it was
// planted, the evidence, the test's verdict under attack and the payload
// whole.
func attackText(run *report.AttackRun) string {
	var b strings.Builder
	fmt.Fprintf(&b, "attack %s (%s) on %s: %s\n", run.Attack, format.AttackAbout(run), run.Name, format.AttackOutcome(run))
	if run.PlantedAt != nil {
		fmt.Fprintf(&b, "planted at %s (%s)\n", run.PlantedAt, format.AttackSite(run.Channel, run.Site))
	} else {
		fmt.Fprintf(&b, "planted in %s\n", format.AttackSite(run.Channel, run.Site))
	}
	for _, e := range run.Evidence {
		fmt.Fprintf(&b, "  - %s\n", format.Evidence(e, maxAttackExcerpt))
	}
	if u := format.AttackUtility(run); u != "" {
		b.WriteString(u + "\n")
	}
	for _, f := range run.UtilityFailures {
		fmt.Fprintf(&b, "  - under attack: %s\n", f)
	}
	fmt.Fprintf(&b, "canary: %s\npayload:\n%s\n", run.Canary, run.Payload)
	return b.String()
}
