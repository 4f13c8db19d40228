package junit

import (
	"fmt"

	"github.com/jstemmer/go-junit-report/v2/junit"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/format"
)

// maxMessage bounds a message attribute, which CI UIs show on one line;
// the element's text holds everything.
const maxMessage = 300

// failure is the <failure> of a failed test, from the shown attempt's
// failing assertions, with the reruns for its other attempts that did not
// pass. The message of a test run several times starts with its
// stability, "1 of 2 runs passed (50%), below min_pass_rate 100%; run 1:
// …", so that a failure is never mistaken for a single run's. The text
// starts with the kinds of failure, over every attempt.
func failure(t *report.Test) (*junit.Result, []rerun) {
	failed := t.Failed()
	if len(failed) == 0 {
		// No assertion failed in the shown attempt: the test failed because
		// too few runs passed while others errored. The message says so,
		// and every attempt that did not pass, the shown one too, is a
		// rerun: nothing else would show it.
		var others []report.Attempt
		for _, a := range t.Attempts {
			if a.Status != status.Pass {
				others = append(others, a)
			}
		}
		msg := stability(t)
		return &junit.Result{Message: clean(format.Short(msg, maxMessage)), Type: "min_pass_rate", Data: clean(categories(t) + msg + "\n")},
			reruns(t, others, "rerun")
	}
	msg := summary(failed)
	if t.Repeated() {
		msg = stability(t) + "; " + shownLabel(t) + msg
	}
	return &junit.Result{Message: clean(format.Short(msg, maxMessage)), Type: "assertion", Data: clean(categories(t) + failureText(t, failed) + erroredText(t))},
		reruns(t, t.Others(), "rerun")
}

// summary is the message for failing assertions: the first one's, with how
// many failed when there are several.
func summary(failed []report.Assertion) string {
	msg := failed[0].Message
	if len(failed) > 1 {
		msg = fmt.Sprintf("%d assertions failed; first: %s", len(failed), msg)
	}
	return msg
}

// stability says how a failed test fared over its attempts: its reason
// (the pass rate against min_pass_rate) or, when it has none (a single
// run whose retries all failed), how many attempts did not pass.
func stability(t *report.Test) string {
	if t.Reason != "" {
		return t.Reason
	}
	bad := 0
	for _, a := range t.Attempts {
		if a.Status != status.Pass {
			bad++
		}
	}
	return fmt.Sprintf("%d of %d attempts did not pass", bad, len(t.Attempts))
}

// shownLabel is "run 1: " for the attempt the test shows, or "" when it
// has none.
func shownLabel(t *report.Test) string {
	if t.Shown < 1 || t.Shown > len(t.Attempts) {
		return ""
	}
	return t.Attempts[t.Shown-1].Label() + ": "
}

// reruns are the elements for attempts that did not pass; kind is "flaky"
// under a passing test and "rerun" under a failed or errored one.
func reruns(t *report.Test, attempts []report.Attempt, kind string) []rerun {
	var out []rerun
	for _, a := range attempts {
		out = append(out, rerunOf(t, a, kind))
	}
	return out
}

// rerunOf describes one attempt: "run 2: <first failing assertion>" with
// the failing assertions as its stack trace, or "run 2: <reason>" when it
// errored.
func rerunOf(t *report.Test, a report.Attempt, kind string) rerun {
	name, typ, msg, text := kind+"Error", "error", a.Reason, a.Reason+"\n"
	if a.Status == status.Fail {
		name, typ, msg, text = kind+"Failure", "assertion", "failed", ""
		if len(a.Failed) > 0 {
			msg, text = summary(a.Failed), failureText(t, a.Failed)
		}
	}
	r := rerun{Message: clean(format.Short(a.Label()+": "+msg, maxMessage)), Type: typ}
	r.XMLName.Local = name
	if text != "" {
		r.StackTrace = &junit.Output{Data: clean(text)}
	}
	return r
}
