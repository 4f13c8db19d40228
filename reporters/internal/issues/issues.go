// Package issues lists the problems of a run that belong on a line of a
// file in the repository, for the formats a CI shows beside the source: a
// failing assertion at its YAML line, a check that could not be made, an
// assertion that failed in some runs only, a failing warning, a test that
// failed or errored without an assertion to show (at its cause), a suite
// hook that failed (at its line in the config). reporters/codequality and
// reporters/warningsng write the same list, each in its format, so GitLab
// and Jenkins show the same problems (docs/reports.md).
//
// Each issue has a severity from what happened (the table is in
// docs/reports.md) and a fingerprint that names the test and the assertion,
// not the line: moving a test in its file keeps its issues' fingerprints,
// so a CI that compares two runs by fingerprint says which problems are new
// and which were fixed.
package issues

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/textsafe"
	"github.com/ananke/action/reporters/internal/format"
)

// Severity orders the issues, from a note to what fails the run.
type Severity int

const (
	// Info: a check of severity warning that could not be made.
	Info Severity = iota
	// Minor: a failing warning, an assertion that failed in some runs
	// only (a flaky test's), any problem of a quarantined test.
	Minor
	// Major: a critical check that could not be made, a test that
	// errored, a suite hook that failed.
	Major
	// Critical: a failing critical assertion, a test that failed.
	Critical
)

// What an issue is, its Category.
const (
	Failed      = "failed assertion"
	Warned      = "failing warning"
	NotChecked  = "check not made"
	Flaky       = "flaky assertion"
	TestFailed  = "test failed"
	TestErrored = "test errored"
	HookFailed  = "suite hook failed"
)

// Issue is one problem at one line.
type Issue struct {
	// Check names the check that found it: "ananke/" and the assertion's
	// kind ("ananke/tools.require"), or "ananke/test" for a test that
	// failed or errored as a whole, "ananke/hook" for a suite hook.
	Check string
	// Category says what happened (Failed, Warned, …).
	Category string
	Severity Severity
	// Path is slash-separated and relative to the repository root; Line
	// counts from 1, Col from 1 (0: unknown).
	Path      string
	Line, Col int
	// Summary is one line: the test's name and the message.
	Summary string
	// Details are the lines under it: the assertion, what was expected
	// and observed, the evidence; "" when there is nothing more to say.
	Details string
	// Fingerprint is the hex of a hash of the test's id and the
	// assertion's id (or the hook's name): unique in the list, and the
	// same in every run while the test and the assertion keep their ids.
	Fingerprint string
	// Quarantined: the issue's test is quarantined, so it fails nothing.
	Quarantined bool
}

// maxSummary bounds an issue's summary, which CIs show on one line.
const maxSummary = 500

// List returns the issues of r, ordered by path, line and column (the
// report's order where they tie). Positions outside the repository cannot
// be shown beside the source and are left out; so is a second issue with a
// fingerprint already listed.
func List(r *report.Report) []Issue {
	var out []Issue
	byHook := hookErrored(r)
	for _, h := range r.FailedHooks() {
		out = add(out, hook(r, h, byHook))
	}
	for i := range r.Tests {
		t := &r.Tests[i]
		name := t.Name
		if t.Variant != "" {
			name += " · " + t.Variant // as the markdown names it (docs/variants.md)
		}
		if t.Quarantined != nil {
			name += " (quarantined)"
		}
		for _, is := range testIssues(t, name, byHook) {
			if t.Quarantined != nil {
				is.Quarantined, is.Severity = true, min(is.Severity, Minor)
			}
			out = add(out, is)
		}
	}
	seen := map[string]bool{}
	out = slices.DeleteFunc(out, func(is Issue) bool {
		dup := seen[is.Fingerprint]
		seen[is.Fingerprint] = true
		return dup
	})
	slices.SortStableFunc(out, func(a, b Issue) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
	return out
}

// testIssues are one test's issues: each failing assertion of the shown
// attempt, each check of it not made (but the one the test's reason tells
// of), each assertion that failed in other attempts only, each failing
// warning; and, for a test that failed with no failing assertion to show or
// that errored (not because a suite hook failed), the test itself at its
// cause. name is how the summaries call the test.
func testIssues(t *report.Test, name string, byHook func(*report.Test) bool) []Issue {
	var out []Issue
	switch {
	case t.Status == status.Fail && len(t.Failed()) == 0:
		out = append(out, whole(t, name+": ", Critical, TestFailed, "the test failed"))
	case t.Status == status.Error && !byHook(t):
		out = append(out, whole(t, name+": errored: ", Major, TestErrored, "the test errored"))
	}
	for _, a := range t.Failed() {
		msg := a.Message
		if t.Repeated() {
			msg = format.FailedIn(t, a, max(a.FailedRuns, 1)) + ": " + msg
		}
		out = append(out, assertion(t, a, a, Critical, Failed, name+": "+msg))
	}
	for _, a := range format.Errored(t) {
		sev, what := Major, "could not be checked: "
		if a.Severity == report.SeverityWarning {
			sev, what = Info, "could not be checked (warning): "
		}
		out = append(out, assertion(t, a, a, sev, NotChecked, name+": "+what+a.Message))
	}
	for _, a := range t.Wobbly() {
		if a.Status != status.Pass {
			continue // a failure, a warning or a check not made of the shown attempt: listed as such
		}
		prefix, shown := "flaky, "+format.FailedIn(t, a, a.FailedRuns), a
		if at, f, ok := t.FirstFailure(a.ID); ok {
			prefix += ", first in " + at.Label()
			shown = f
		}
		out = append(out, assertion(t, a, shown, Minor, Flaky, name+": "+prefix+": "+shown.Message))
	}
	for _, a := range t.Warned() {
		out = append(out, assertion(t, a, a, Minor, Warned, name+": warning: "+a.Message))
	}
	return out
}

// assertion is the issue of assertion a of test t, at a's position, with
// the result shown (a, or its first failure for a flaky one) and its
// summary msg.
func assertion(t *report.Test, a, shown report.Assertion, sev Severity, category, msg string) Issue {
	check := "ananke/" + cmp.Or(a.Kind, a.Level, "assertion")
	details := []string{fmt.Sprintf("%s (%s) at %s", a.ID, cmp.Or(a.Kind, a.Level), a.Source)}
	if shown.Expected != "" {
		details = append(details, "expected: "+shown.Expected)
	}
	if shown.Observed != "" {
		details = append(details, "observed: "+shown.Observed)
	}
	details = append(details, format.EvidenceLines(shown)...)
	return Issue{Check: check, Category: category, Severity: sev, Path: a.Source.File, Line: a.Source.Line, Col: a.Source.Col,
		Summary: summary(msg), Details: text(details), Fingerprint: Fingerprint("assertion", t.ID, a.ID)}
}

// whole is the issue of a test that failed or errored as a whole: at its
// cause when known, else where the test is declared, with its reason
// (fallback without one) after lead and, for a repeated test, its
// attempts.
func whole(t *report.Test, lead string, sev Severity, category, fallback string) Issue {
	at := format.TestLocation(t)
	if t.At != nil {
		at = *t.At
	}
	var details []string
	if t.Detail != "" {
		details = append(details, t.Detail)
	}
	if t.Repeated() {
		for _, a := range t.Attempts {
			l := a.Label() + ": " + string(a.Status)
			if a.Reason != "" {
				l += ": " + a.Reason
			}
			details = append(details, l)
		}
	}
	return Issue{Check: "ananke/test", Category: category, Severity: sev, Path: at.File, Line: at.Line, Col: at.Col,
		Summary: summary(lead + cmp.Or(t.Reason, fallback)), Details: text(details), Fingerprint: Fingerprint("test", t.ID, "")}
}

// hook is the issue of a failed suite hook, at its line in the config,
// counting the tests that errored because of it.
func hook(r *report.Report, h report.Hook, byHook func(*report.Test) bool) Issue {
	msg, n := h.Message, 0
	for i := range r.Tests {
		if t := &r.Tests[i]; t.Reason == h.Message && byHook(t) {
			n++
		}
	}
	if n > 0 {
		msg += "; " + plural.Count(n, "test") + " errored because of it"
	}
	name := format.HookName(h)
	return Issue{Check: "ananke/hook", Category: HookFailed, Severity: Major, Path: h.Source.File, Line: h.Source.Line, Col: h.Source.Col,
		Summary: summary(name + " failed: " + msg), Details: text([]string{h.Detail}), Fingerprint: Fingerprint("hook", name, "")}
}

// hookErrored reports a test that errored because a suite hook failed: its
// reason is the hook's message at the hook's line, so the hook's issue
// counts it rather than repeating it once per test.
func hookErrored(r *report.Report) func(*report.Test) bool {
	failed := r.FailedHooks()
	return func(t *report.Test) bool {
		if t.Status != status.Error || t.At == nil {
			return false
		}
		return slices.ContainsFunc(failed, func(h report.Hook) bool { return h.Message == t.Reason && h.Source == *t.At })
	}
}

// add appends is when its path is inside the repository, at line 1 at
// least.
func add(out []Issue, is Issue) []Issue {
	p := path.Clean(is.Path)
	if is.Path == "" || path.IsAbs(p) || p == ".." || strings.HasPrefix(p, "../") {
		return out
	}
	is.Path, is.Line, is.Col = p, max(is.Line, 1), max(is.Col, 0)
	return append(out, is)
}

// Fingerprint is the hex of the SHA-256 of what names an issue — its kind
// ("assertion", "test", "hook"), the test's id (or the hook's name) and
// the assertion's id — cut to 32 digits: the line is not part of it.
func Fingerprint(kind, id, assertion string) string {
	sum := sha256.Sum256([]byte("ananke\x00" + kind + "\x00" + id + "\x00" + assertion))
	return hex.EncodeToString(sum[:16])
}

// summary is s on one line, its control characters visible, shortened.
func summary(s string) string {
	return format.Short(textsafe.Visible(s, false), maxSummary)
}

// text joins the lines of the details, their control characters visible.
func text(lines []string) string {
	return textsafe.Visible(strings.TrimSpace(strings.Join(lines, "\n")), true)
}
