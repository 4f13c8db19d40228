package rejudge

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/judge"
	"github.com/ananke/action/internal/model"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// Options are how Rescore asks the current judges.
type Options struct {
	Judge Judge
	// Gate, when set, is asked before each judge written critical, as the
	// engine asks engine.Options.JudgeGate: a reason makes the judge a
	// warning, the reason in its message and its judge's demoted.
	Gate func(criteria []string, model, promptHash string) (demoted string)
	// Mask masks what the judges answer as the report was masked (nil:
	// nothing to mask).
	Mask *report.Redactor
}

// Flip is a judge assertion of an attempt whose answer changed.
type Flip struct {
	Test string
	// Attempt counts from 1 when the test ran more than once, 0 when it
	// ran once (as labels count).
	Attempt   int
	Assertion string
	// Before is "" when the report did not keep the assertion's result:
	// an attempt that is not the shown one keeps only its failures.
	Before, After status.Status
	// Criteria are the criteria whose verdict changed, in order.
	Criteria []CriterionFlip
	// Message is the assertion's new message.
	Message string
}

// CriterionFlip is one criterion's verdict before and after ("" before:
// not kept).
type CriterionFlip struct {
	Criterion, Before, After string
}

// TestChange is a test whose status changed.
type TestChange struct {
	Test          string
	Before, After status.Status
	Reason        string
}

// Outcome is what Rescore changed.
type Outcome struct {
	// Asked counts the judge assertions asked again.
	Asked int
	Flips []Flip
	Tests []TestChange
	// Before and After are the run's status.
	Before, After status.Status
	// Usage is what asking took.
	Usage model.Usage
}

// Rescore asks the current judges again about every judge assertion of
// every attempt of a report read with its traces, over each attempt's
// trace with no agent contacted, replaces their results, and derives
// the attempts' and tests' statuses and the run's totals again by the
// rules a run uses (docs/judges.md, rejudge):
//
//   - a judge that was not evaluated, or is not a judge that gave or was
//     asked for verdicts, stays as it was;
//   - an attempt's status follows its checks (a critical failure fails
//     it, else a critical check not made errors it) when they decided it
//     before; one decided by something else (a hook, the exchange) stays;
//     an attempt whose run stopped at a turn that failed, and now does
//     not, errors: the checks after that turn were never made;
//   - an attempt other than the shown one keeps only its failures, so
//     its judges are those failures, or, when it passed, the shown
//     attempt's evaluated judges asked over its own trace;
//   - a test's status is its stability policy's verdict over its runs'
//     statuses (a run ends at its first passing attempt); the attempt
//     shown stays the one the run showed.
func Rescore(ctx context.Context, r *report.Report, o Options) (*Outcome, error) {
	if o.Mask == nil {
		o.Mask = report.NewRedactor(nil, nil)
	}
	out := &Outcome{Before: r.Status}
	for i := range r.Tests {
		if err := o.test(ctx, &r.Tests[i], out); err != nil {
			return out, err
		}
	}
	r.Recount()
	out.After = r.Status
	return out, nil
}

func (o Options) test(ctx context.Context, t *report.Test, out *Outcome) error {
	if len(t.Attempts) == 0 {
		return nil
	}
	shown := t.Shown - 1
	if shown < 0 || shown >= len(t.Attempts) {
		return fmt.Errorf("test %s: shown_attempt %d is not one of its %d attempts", t.ID, t.Shown, len(t.Attempts))
	}
	policy := policyOf(t)
	fromRuns := policy.Judge(runStatuses(t.Attempts)).Status == t.Status
	template := slices.Clone(t.Assertions)
	for i := range t.Attempts {
		if err := o.attempt(ctx, t, i, template, out); err != nil {
			return err
		}
	}
	failedIn := map[string]int{}
	set := map[string]bool{}
	for _, at := range t.Attempts {
		for _, f := range at.Failed {
			failedIn[f.ID]++
			set[assertion.Category(assertion.Kind(f.Kind))] = true
		}
	}
	for i := range t.Assertions {
		t.Assertions[i].FailedRuns = failedIn[t.Assertions[i].ID]
	}
	t.FailureCategories = []string{}
	for _, c := range assertion.Categories {
		if set[c] {
			t.FailureCategories = append(t.FailureCategories, c)
		}
	}
	if !fromRuns {
		return nil // the status came from elsewhere (runs cancelled): kept
	}
	before := t.Status
	v := policy.Judge(runStatuses(t.Attempts))
	t.Status, t.Runs, t.PassedRuns, t.PassRate, t.Flaky, t.Inconclusive = v.Status, v.Runs, v.PassedRuns, v.PassRate, v.Flaky, v.Inconclusive
	if a := t.Adaptive; a != nil {
		a.StopReason, a.RunsSaved = v.Stop, 0
		if v.Stop == stability.StopSettledPass || v.Stop == stability.StopSettledFail {
			a.RunsSaved = max(a.MaxRuns-v.Runs, 0)
		}
	}
	sh := t.Attempts[shown]
	switch t.Status {
	case status.Error:
		t.Reason = sh.Reason
		if v.Reason != "" {
			t.Reason = fmt.Sprintf("%s; run %d: %s", v.Reason, sh.Run, sh.Reason)
		}
	case status.Fail:
		t.Reason = v.Reason
	default:
		t.Reason = ""
	}
	if t.Status != before {
		t.At, t.Detail = nil, ""
		if e, ok := firstNotMade(t.Assertions); ok && t.Status == status.Error {
			at := e.Source
			t.At = &at
		}
		out.Tests = append(out.Tests, TestChange{Test: t.ID, Before: before, After: t.Status, Reason: t.Reason})
	}
	return nil
}

// attempt asks again about attempt i's judges and derives its status.
func (o Options) attempt(ctx context.Context, t *report.Test, i int, template []report.Assertion, out *Outcome) error {
	at := &t.Attempts[i]
	if at.Trace == nil {
		return fmt.Errorf("test %s: %s has no trace", t.ID, at.Label())
	}
	k := 0
	if len(t.Attempts) > 1 {
		k = i + 1
	}
	where := fmt.Sprintf("test %s, %s", t.ID, at.Label())
	shown := i == t.Shown-1
	known := &at.Failed
	if shown {
		known = &t.Assertions
	}
	old := slices.Clone(*known)
	for j, a := range *known {
		n, asked, err := o.ask(ctx, a, at.Trace, where, out)
		if err != nil {
			return err
		}
		if asked {
			(*known)[j] = n
			out.flip(t.ID, k, a, n, true)
		}
	}
	var added []report.Assertion
	if !shown && at.Status == status.Pass {
		for _, a := range template {
			n, asked, err := o.ask(ctx, a, at.Trace, where, out)
			if err != nil {
				return err
			}
			if asked && n.Status == status.Fail {
				n.FailedRuns = 0
				added = append(added, n)
				out.flip(t.ID, k, a, n, false)
			}
		}
	}
	failed := []report.Assertion{}
	for _, a := range append(slices.Clone(*known), added...) {
		if a.Status == status.Fail {
			a.FailedRuns, a.FailureRateCI = 0, nil
			failed = append(failed, a)
		}
	}
	at.Failed = failed
	if verdictOf(old) != at.Status {
		return nil // decided by something else: a hook, the exchange
	}
	now := *known
	if !shown {
		now = failed
	}
	stopped := stoppedAt(old)
	switch st := verdictOf(now); {
	case at.Status == status.Fail && st != status.Fail && stopped != "" && wentOn(t, template, stopped):
		at.Status = status.Error
		at.Reason = fmt.Sprintf("%s no longer fails when judged again, but the run stopped there when it failed, so %s; run the test again", stopped, notMade(template, stopped))
	case st == status.Error:
		e, _ := firstNotMade(now)
		at.Status, at.Reason = st, e.ID+": "+e.Message
	default:
		at.Status, at.Reason = st, ""
	}
	return nil
}

// ask asks the current judge again about a over tr, counting it in out;
// asked is false when a is left as it was (not a judge with criteria, or
// not evaluated).
func (o Options) ask(ctx context.Context, a report.Assertion, tr *trace.Trace, where string, out *Outcome) (report.Assertion, bool, error) {
	c, ok := Check(a)
	if !ok || a.Status == status.Skip {
		return a, false, nil
	}
	s, err := Scope(tr, a.Scope)
	if err != nil {
		return a, false, fmt.Errorf("%s: %s: %w", where, a.ID, err)
	}
	demoted := ""
	if o.Gate != nil && c.Severity == assertion.Critical {
		if demoted = o.Gate(c.Judge().Criteria, judge.ModelName(o.Judge.Model), judge.PromptHash(o.Judge.Prompt)); demoted != "" {
			c.Severity = assertion.Warning
		}
	}
	res, usage := o.Judge.Ask(ctx, c, s)
	out.Asked++
	out.Usage.Add(usage)
	if demoted != "" {
		res.Message += demotedMark + demoted + ")"
		if res.Judge != nil {
			res.Judge.Demoted = demoted
		}
	}
	n := report.AssertionOf(res, tr, o.Mask)
	n.Source, n.Level, n.Scope, n.FailedRuns = a.Source, a.Level, a.Scope, a.FailedRuns
	return n, true, nil
}

// flip records a changed answer; kept says whether before is the result
// the report kept.
func (out *Outcome) flip(test string, attempt int, before, after report.Assertion, kept bool) {
	f := Flip{Test: test, Attempt: attempt, Assertion: after.ID, After: after.Status, Message: after.Message}
	if kept {
		f.Before = before.Status
	}
	was := map[string]string{}
	if kept && before.Judge != nil {
		for _, c := range before.Judge.Criteria {
			was[c.Criterion] = c.Verdict
		}
	}
	if after.Judge != nil {
		for _, c := range after.Judge.Criteria {
			if was[c.Criterion] != c.Verdict {
				f.Criteria = append(f.Criteria, CriterionFlip{Criterion: c.Criterion, Before: was[c.Criterion], After: c.Verdict})
			}
		}
	}
	if f.Before != f.After || len(f.Criteria) > 0 {
		out.Flips = append(out.Flips, f)
	}
}

// verdictOf is the status assertions give an attempt, as the engine's
// verdict: a critical failure fails it, else a critical check not made
// errors it, else it passes.
func verdictOf(as []report.Assertion) status.Status {
	if slices.ContainsFunc(as, func(a report.Assertion) bool { return a.Status == status.Fail }) {
		return status.Fail
	}
	if _, ok := firstNotMade(as); ok {
		return status.Error
	}
	return status.Pass
}

// firstNotMade is the first critical check that could not be made.
func firstNotMade(as []report.Assertion) (report.Assertion, bool) {
	for _, a := range as {
		if a.Status == status.Error && a.Severity != report.SeverityWarning {
			return a, true
		}
	}
	return report.Assertion{}, false
}

// wentOn says whether the test goes on after the turn scope names: its
// shown attempt played a later turn, or has checks of a later scope
// (made, or not evaluated when the run stopped). A later turn with no
// checks, never played in the shown attempt, is not known to the report.
func wentOn(t *report.Test, template []report.Assertion, scope string) bool {
	i, ok := turnIndex(scope)
	if !ok {
		return false
	}
	if n := len(t.Turns); n > 0 && t.Turns[n-1].Index > i {
		return true
	}
	for _, a := range template {
		if j, ok := turnIndex(a.Scope); a.Scope == "test" || ok && j > i {
			return true
		}
	}
	return false
}

// notMade says what the run never made after the turn scope names: the
// checks of later scopes it did not evaluate when it stopped, or, when
// it has none, the turns it never played.
func notMade(template []report.Assertion, scope string) string {
	i, _ := turnIndex(scope)
	var ids []string
	for _, a := range template {
		if j, ok := turnIndex(a.Scope); a.Status == status.Skip && (a.Scope == "test" || ok && j > i) {
			ids = append(ids, a.ID)
		}
	}
	if len(ids) == 0 {
		return "the turns after it were never played"
	}
	were := "were"
	if len(ids) == 1 {
		were = "was"
	}
	return fmt.Sprintf("%s after it %s never made (%s)", plural.Count(len(ids), "check"), were, strings.Join(ids, ", "))
}

// turnIndex is N of a scope "turn[N]".
func turnIndex(scope string) (int, bool) {
	s, ok := strings.CutPrefix(scope, "turn[")
	if !ok || !strings.HasSuffix(s, "]") {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSuffix(s, "]"))
	return n, err == nil
}

// stoppedAt is the turn whose failure stopped the run ("turn[1]"), or ""
// when no turn failed: the engine checks the rest of a test only while
// its turns pass.
func stoppedAt(as []report.Assertion) string {
	for _, a := range as {
		if a.Status == status.Fail && a.Scope != "test" {
			return a.Scope
		}
	}
	return ""
}
