package rejudge

import (
	"context"
	"strings"
	"testing"

	"github.com/ananke/action/internal/judge"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
)

// TestRescoreFlips: each judge is asked again over its trace; its result,
// its attempt's and test's status and the run's totals follow the new
// verdicts, and the flips say what changed.
func TestRescoreFlips(t *testing.T) {
	r := run(
		test("fails-now", turns("Hi."), judged("turn[0]", "critical", "polite=true")),
		test("passes-now", turns("Hello!"), judged("turn[0]", "critical", "polite=false")),
		test("warns", turns("Hey."), judged("test", "warning", "brief=true")),
	)
	if r.Status != status.Fail || r.Totals.Failed != 1 || r.Totals.Passed != 2 {
		t.Fatalf("before: %s %+v", r.Status, r.Totals)
	}
	f := &fakeJudge{verdicts: map[string]string{"Hi.|polite": "false", "brief": "false"}}
	out, err := Rescore(context.Background(), r, Options{Judge: Judge{Model: f}})
	if err != nil {
		t.Fatal(err)
	}
	if out.Asked != 3 || f.asked != 3 {
		t.Errorf("asked %d (model %d), want 3", out.Asked, f.asked)
	}
	want := map[string]status.Status{"fails-now": status.Fail, "passes-now": status.Pass, "warns": status.Pass}
	for _, tt := range r.Tests {
		if tt.Status != want[tt.ID] || tt.Attempts[0].Status != want[tt.ID] {
			t.Errorf("%s: test %s, attempt %s, want %s", tt.ID, tt.Status, tt.Attempts[0].Status, want[tt.ID])
		}
	}
	ff := r.Tests[0]
	if a := ff.Assertions[0]; a.Status != status.Fail || a.Judge.Model != "m" || a.Judge.Criteria[0].Verdict != "false" || a.FailedRuns != 1 ||
		a.Source.Line != 3 || !strings.Contains(a.Message, `"polite" (false: judged false)`) || len(ff.Attempts[0].Failed) != 1 {
		t.Errorf("fails-now: %+v, failed %+v", a, ff.Attempts[0].Failed)
	}
	if len(ff.FailureCategories) != 1 || ff.FailureCategories[0] != "judgment" || ff.Reason != "" || ff.PassedRuns != 0 {
		t.Errorf("fails-now: categories %v, reason %q, passed runs %d", ff.FailureCategories, ff.Reason, ff.PassedRuns)
	}
	if pn := r.Tests[1]; len(pn.Attempts[0].Failed) != 0 || len(pn.FailureCategories) != 0 || pn.PassedRuns != 1 || pn.Assertions[0].FailedRuns != 0 {
		t.Errorf("passes-now: %+v", pn)
	}
	if w := r.Tests[2].Assertions[0]; w.Status != status.Warn || r.Totals.Warned != 1 {
		t.Errorf("warns: %s, warned %d", w.Status, r.Totals.Warned)
	}
	if r.Status != status.Fail || r.Totals.Failed != 1 || r.Totals.Passed != 2 || out.Before != status.Fail || out.After != status.Fail {
		t.Errorf("after: %s %+v", r.Status, r.Totals)
	}
	if len(out.Flips) != 3 || len(out.Tests) != 2 {
		t.Fatalf("flips %+v, tests %+v", out.Flips, out.Tests)
	}
	if fl := out.Flips[0]; fl.Test != "fails-now" || fl.Attempt != 0 || fl.Before != status.Pass || fl.After != status.Fail ||
		len(fl.Criteria) != 1 || fl.Criteria[0] != (CriterionFlip{"polite", "true", "false"}) {
		t.Errorf("flip %+v", fl)
	}
	if tc := out.Tests[1]; tc != (TestChange{Test: "passes-now", Before: status.Fail, After: status.Pass}) {
		t.Errorf("test change %+v", tc)
	}
}

// TestRescoreGate: the current gate decides whether a judge written
// critical gates: a reason makes it a warning, said in its message; a
// judge an earlier gate demoted gates again when the gate lets it.
func TestRescoreGate(t *testing.T) {
	f := &fakeJudge{verdicts: map[string]string{"polite": "false"}}
	r := run(test("t", turns("Hi."), judged("turn[0]", "critical", "polite=true")))
	gate := func(criteria []string, m, hash string) string {
		if m != "m" || hash != judge.PromptHash("") || len(criteria) != 1 {
			t.Errorf("gate asked about %v %s %s", criteria, m, hash)
		}
		return "no calibration"
	}
	if _, err := Rescore(context.Background(), r, Options{Judge: Judge{Model: f}, Gate: gate}); err != nil {
		t.Fatal(err)
	}
	a := r.Tests[0].Assertions[0]
	if a.Status != status.Warn || a.Severity != "warning" || a.Judge.Demoted != "no calibration" || !strings.HasSuffix(a.Message, " (reported as a warning: no calibration)") || r.Status != status.Pass {
		t.Errorf("demoted: %+v, run %s", a, r.Status)
	}
	// Rejudged again without a gate, the judge is critical once more.
	if _, err := Rescore(context.Background(), r, Options{Judge: Judge{Model: f}}); err != nil {
		t.Fatal(err)
	}
	if a := r.Tests[0].Assertions[0]; a.Status != status.Fail || a.Severity != "critical" || a.Judge.Demoted != "" || r.Status != status.Fail {
		t.Errorf("gated again: %+v, run %s", a, r.Status)
	}
}

// TestRescoreLeavesAlone: a judge not evaluated stays so, with its test's
// status; a judge that gave no verdict is asked again by the criteria its
// expectation names; an attempt errored by something else stays errored.
func TestRescoreLeavesAlone(t *testing.T) {
	skipped := judged("turn[0]", "critical", "polite=true")
	skipped.Status, skipped.Judge, skipped.Message = status.Skip, nil, "not evaluated: a deterministic check failed, and a judge only adds failures"
	det := report.Assertion{ID: "turn[0].text.contains", Kind: "text.contains", Scope: "turn[0]", Severity: "critical", Status: status.Fail, Message: "no"}
	noVerdict := judged("test", "critical", "polite=true", "says \"bye\"=true")
	noVerdict.Status, noVerdict.Judge, noVerdict.Message = status.Error, nil, "the judge gave no verdict: model m: server error"
	hook := test("hook", turns("Hi."), judged("turn[0]", "critical", "polite=true"))
	hook.Status, hook.Attempts[0].Status, hook.Attempts[0].Reason = status.Error, status.Error, "after[0]: exit 1"
	r := run(test("det", turns("Hi."), det, skipped), test("no-verdict", turns("Hi."), noVerdict), hook)
	f := &fakeJudge{verdicts: map[string]string{"polite": "false"}}
	out, err := Rescore(context.Background(), r, Options{Judge: Judge{Model: f}})
	if err != nil {
		t.Fatal(err)
	}
	if out.Asked != 2 || r.Tests[0].Assertions[1].Status != status.Skip || r.Tests[0].Status != status.Fail {
		t.Errorf("not evaluated: asked %d, %+v", out.Asked, r.Tests[0])
	}
	nv := r.Tests[1]
	if a := nv.Assertions[0]; a.Status != status.Fail || a.Judge == nil || len(a.Judge.Criteria) != 2 || a.Judge.Criteria[1].Criterion != `says "bye"` || nv.Status != status.Fail {
		t.Errorf("no verdict: %+v, test %s", a, nv.Status)
	}
	if h := r.Tests[2]; h.Status != status.Error || h.Attempts[0].Status != status.Error || h.Attempts[0].Reason != "after[0]: exit 1" || h.Assertions[0].Status != status.Fail {
		t.Errorf("hook: %+v", h)
	}
}

// TestRescoreStopped: an attempt whose run stopped at a turn whose judge
// failed, and passes now, errors: what came after was never checked. At
// its last turn, with nothing after it, it passes.
func TestRescoreStopped(t *testing.T) {
	later := report.Assertion{ID: "turn[1].text.contains", Kind: "text.contains", Scope: "turn[1]", Severity: "critical", Status: status.Skip,
		Message: "not evaluated: the test stopped when turn[0] failed"}
	r := run(test("stopped", turns("Hi."), judged("turn[0]", "critical", "polite=false"), later),
		test("last", turns("Hi."), judged("turn[0]", "critical", "polite=false")))
	if _, err := Rescore(context.Background(), r, Options{Judge: Judge{Model: &fakeJudge{}}}); err != nil {
		t.Fatal(err)
	}
	s := r.Tests[0]
	if s.Status != status.Error || s.Attempts[0].Status != status.Error || !strings.Contains(s.Reason, "turn[0] no longer fails when judged again, but the run stopped there when it failed, so 1 check after it was never made (turn[1].text.contains); run the test again") {
		t.Errorf("stopped: %s %q", s.Status, s.Reason)
	}
	if l := r.Tests[1]; l.Status != status.Pass {
		t.Errorf("last turn: %s %q", l.Status, l.Reason)
	}
	if r.Status != status.Error {
		t.Errorf("run %s", r.Status)
	}
}

// TestRescoreRuns: a test run twice keeps the failures only of the
// attempt it does not show; a passing one is asked the shown attempt's
// judges over its own trace, and the pass rate follows.
func TestRescoreRuns(t *testing.T) {
	two := func() report.Test {
		tt := test("twice", turns("Hi."), judged("turn[0]", "critical", "polite=true"))
		tt.Runs, tt.PassedRuns, tt.PassRate = 2, 2, 100
		second := tt.Attempts[0]
		second.Run, second.Trace = 2, turns("Yo.")
		tt.Attempts = append(tt.Attempts, second)
		tt.Shown = 2
		return tt
	}
	r := run(two())
	out, err := Rescore(context.Background(), r, Options{Judge: Judge{Model: &fakeJudge{verdicts: map[string]string{"Hi.|polite": "false"}}}})
	if err != nil {
		t.Fatal(err)
	}
	tt := r.Tests[0]
	if tt.Status != status.Fail || tt.PassedRuns != 1 || tt.PassRate != 50 || !tt.Flaky || tt.Attempts[0].Status != status.Fail || len(tt.Attempts[0].Failed) != 1 ||
		tt.Attempts[1].Status != status.Pass || tt.Assertions[0].FailedRuns != 1 || tt.Reason != "1 of 2 runs passed (50%), below min_pass_rate 100%" || tt.PassRateCI == nil {
		t.Errorf("twice: %+v", tt)
	}
	if out.Asked != 2 || len(out.Flips) != 1 || out.Flips[0].Attempt != 1 || out.Flips[0].Before != "" {
		t.Errorf("asked %d, flips %+v", out.Asked, out.Flips)
	}
}

// TestCheck: the check a judge assertion was made by, its criteria from
// its verdicts or its expectation, its severity as written.
func TestCheck(t *testing.T) {
	a := judged("turn[0]", "warning", "polite=false")
	a.Judge.Demoted = "stale"
	c, ok := Check(a)
	if !ok || c.Severity != "critical" || c.Judge().Criteria[0] != "polite" || c.ID != "turn[0].judge" {
		t.Errorf("demoted: %+v %v", c, ok)
	}
	a.Judge = nil
	a.Message = "the judge gave no verdict: x (reported as a warning: stale)"
	if c, ok := Check(a); !ok || c.Severity != "critical" || c.Judge().Criteria[0] != "polite" {
		t.Errorf("no verdict: %+v %v", c, ok)
	}
	for _, exp := range []string{"", "the judge finds every criterion true: polite", `the judge finds every criterion true: "a" "b"`} {
		a.Expected = exp
		if _, ok := Check(a); ok {
			t.Errorf("expected %q made a check", exp)
		}
	}
	if _, ok := Check(report.Assertion{Kind: "text.contains"}); ok {
		t.Error("a text check is a judge")
	}
}
