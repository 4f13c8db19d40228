package checks

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/github"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/format"
)

// maxAttemptLines bounds the attempts listed in an annotation's details.
const maxAttemptLines = 50

// failed annotates a failed test: each failing assertion of the shown
// attempt, saying in how many attempts it failed when the test repeated;
// or, when the shown attempt has none — the test failed because its runs
// errored — the test's reason, with its attempts.
func failed(out []github.Annotation, t *report.Test) []github.Annotation {
	as := t.Failed()
	if len(as) == 0 {
		return appendIn(out, reasonAt(t, "failed", "the test failed"))
	}
	for _, a := range as {
		msg := assertionText(a)
		if t.Repeated() {
			// It failed here at least, whatever a hand-made report says.
			msg = format.FailedIn(t, a, max(a.FailedRuns, 1)) + ": " + msg
		}
		out = appendIn(out, github.Annotation{Path: a.Source.File, Line: a.Source.Line, Level: github.LevelFailure,
			Title: t.Name + ": " + a.ID, Message: msg, RawDetails: evidenceText(a)})
	}
	return out
}

// reasonAt is the failure annotation of a test that failed or errored as a
// whole: at its cause when known, else where the test is declared (the top
// of its file, or its line in a dataset, whose tests share the file), with
// its reason (fallback without one) and, for a repeated test, its
// attempts.
func reasonAt(t *report.Test, what, fallback string) github.Annotation {
	at := format.TestLocation(t)
	if t.At != nil {
		at = *t.At
	}
	msg := t.Reason
	if msg == "" {
		msg = fallback
	}
	var details []string
	if t.Detail != "" {
		details = append(details, t.Detail)
	}
	if t.Repeated() {
		details = append(details, attemptLines(t)...)
	}
	return github.Annotation{Path: at.File, Line: at.Line, Level: github.LevelFailure,
		Title: t.Name + ": " + what, Message: msg, RawDetails: strings.Join(details, "\n")}
}

// attemptLines lists a test's attempts, "run 1 retry 1: error: agent
// unreachable", up to maxAttemptLines.
func attemptLines(t *report.Test) []string {
	var lines []string
	for i, a := range t.Attempts {
		if i == maxAttemptLines {
			lines = append(lines, fmt.Sprintf("… %d more attempts", len(t.Attempts)-i))
			break
		}
		l := a.Label() + ": " + string(a.Status)
		if a.Reason != "" {
			l += ": " + a.Reason
		}
		lines = append(lines, l)
	}
	return lines
}

// errored annotates each check of the shown attempt that could not be made
// — a judge whose model failed, a script that crashed, an after hook that
// failed — at its YAML line, but the one the test's reason (annotated
// already) tells of: of a failed test nothing else would show a cleanup
// that failed. A critical one is a failure; one of severity warning, which
// leaves its test passing, a warning that says so.
func errored(out []github.Annotation, t *report.Test) []github.Annotation {
	for _, a := range format.Errored(t) {
		level, title := github.LevelFailure, " (could not be checked)"
		if a.Severity == report.SeverityWarning {
			level, title = github.LevelWarning, " (could not be checked; warning)"
		}
		out = appendIn(out, github.Annotation{Path: a.Source.File, Line: a.Source.Line, Level: level,
			Title: t.Name + ": " + a.ID + title, Message: assertionText(a), RawDetails: evidenceText(a)})
	}
	return out
}

// warned annotates each failing warning of the shown attempt at its YAML
// line, as a warning: it is reported, and never fails the test or the
// check run. Its title says so, beside the failures of the same test.
func warned(out []github.Annotation, t *report.Test) []github.Annotation {
	for _, a := range t.Warned() {
		out = appendIn(out, github.Annotation{Path: a.Source.File, Line: a.Source.Line, Level: github.LevelWarning,
			Title: t.Name + ": " + a.ID + " (warning)", Message: assertionText(a), RawDetails: evidenceText(a)})
	}
	return out
}

// flaky warns at each assertion that failed in some attempts but not in
// the shown one — what makes a test flaky — with its result in the first
// attempt it failed in: the shown attempt passed it, so has nothing to
// say.
func flaky(out []github.Annotation, t *report.Test) []github.Annotation {
	for _, a := range t.Wobbly() {
		if a.Status == status.Fail {
			continue // a failure of the shown attempt, annotated as such
		}
		prefix, shown := "flaky: "+format.FailedIn(t, a, a.FailedRuns), a
		if at, f, ok := t.FirstFailure(a.ID); ok {
			prefix += ", first in " + at.Label()
			shown = f
		}
		out = appendIn(out, github.Annotation{Path: a.Source.File, Line: a.Source.Line, Level: github.LevelWarning,
			Title: t.Name + ": " + a.ID, Message: prefix + ": " + assertionText(shown), RawDetails: evidenceText(shown)})
	}
	return out
}

// inconclusive warns, at where the test is declared, of a test whose
// adaptive runs reached their maximum without settling its verdict
// (docs/runs.md): its status is the observed pass rate's, which the
// stated error rates do not cover.
func inconclusive(out []github.Annotation, t *report.Test) []github.Annotation {
	if !t.Inconclusive || t.Adaptive == nil {
		return out
	}
	msg := fmt.Sprintf("not settled within the maximum of %d runs: %d of %d passed (%s), min_pass_rate %s; the verdict (%s) is the observed pass rate's",
		t.Adaptive.MaxRuns, t.PassedRuns, t.Runs, format.Rate(t.PassRate, t.PassRateCI), stability.FormatPercent(t.MinPassRate), t.Status)
	return appendIn(out, github.Annotation{Path: t.File, Line: format.TestLocation(t).Line, Level: github.LevelWarning,
		Title: t.Name + ": inconclusive", Message: msg})
}
