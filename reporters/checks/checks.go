// Package checks turns a report into a GitHub check run: the conclusion
// from the run's status, the markdown summary, and an annotation at the
// YAML line of every failing assertion (and at every errored test, every
// check that could not be made, every failed before_all or after_all hook
// at its line in the config), so a reviewer sees which assertion on which
// line failed, in the diff; an assertion that failed only in some runs of
// a test, a failing assertion of severity warning and a check of severity
// warning that could not be made get a warning there, and so does every
// problem of a quarantined test, whose entry gets a notice when it failed.
// Warnings never fail the check run: its conclusion follows the run's
// status alone, which a failed suite hook makes an error.
package checks

import (
	"fmt"
	"path"
	"strings"

	"github.com/ananke/action/internal/github"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/textsafe"
	"github.com/ananke/action/reporters/internal/format"
	"github.com/ananke/action/reporters/markdown"
)

// Options say where the check run goes.
type Options struct {
	Name, HeadSHA string
	DetailsURL    string // the workflow run
	LinkBase      string // blob URL prefix for file links
	Artifact      string // where the full report is, for trimming notes
	Footer        string // trusted markdown after the summary (report links)
	// Lead is trusted markdown under the summary's heading, before the
	// totals (what changed since the base run); left out when the summary
	// cannot hold it.
	Lead string
	// Annotations false publishes the check run without annotations.
	Annotations bool
}

// Build returns the check run for r.
func Build(r *report.Report, o Options) github.CheckRun {
	run := github.CheckRun{
		Name: o.Name, HeadSHA: o.HeadSHA, DetailsURL: o.DetailsURL, Conclusion: Conclusion(r), Title: Title(r),
		Summary: markdown.Render(r, markdown.Options{Budget: 65535, Title: o.Name, LinkBase: o.LinkBase, Artifact: o.Artifact, Footer: o.Footer, Lead: o.Lead}),
	}
	if o.Annotations {
		run.Annotations = Annotations(r)
	}
	return run
}

// Conclusion maps the run to a check run conclusion. It follows the run's
// status, so that under fail-on-flaky a flaky test fails the check though
// it passed; and any failed or errored test not quarantined fails it
// whatever the status says, so a report without one is never a false pass;
// a quarantined one fails nothing. A run of skipped
// tests is skipped, an empty run neutral. Warnings play no part, nor do
// checks of severity warning that could not be made: a warning is what the
// test's author chose not to fail on.
func Conclusion(r *report.Report) string {
	t := r.Totals
	c := t.Counted()
	switch {
	case r.Status.Failed() || c.Failed > 0 || c.Errored > 0:
		return "failure"
	case t.Total == 0:
		return "neutral"
	case t.Skipped == t.Total:
		return "skipped"
	}
	return "success"
}

// Title is the check run's one-line title: "1 failed of 6 tests, 2 flaky,
// 1 with warnings, 1 check not made", or, when flaky tests alone failed
// the run, "1 flaky test failed the run (fail-on-flaky); 5 of 6 tests
// passed". A failed suite hook comes first, as it errors the run whatever
// the tests did: "after_all[0] failed; 6 of 6 tests passed". The counts are
// of the tests not quarantined, the quarantined ones counted after them:
// "3 of 3 tests passed, 1 quarantined (1 failed, not failing the run)".
// With the base branch's history, the failures are counted by its
// verdict: "2 failed of 6 tests (1 new failure, 1 known flaky on main)".
// An attacks' gate that failed or errored the run comes first, after a
// failed hook: "3 of 8 attack runs succeeded (37.5%), above the allowed
// 0%; 2 of 2 tests passed".
func Title(r *report.Report) string {
	t := r.Totals.Counted()
	var parts []string
	if t.Failed > 0 {
		parts = append(parts, fmt.Sprintf("%d failed", t.Failed))
	}
	if t.Errored > 0 {
		parts = append(parts, fmt.Sprintf("%d errored", t.Errored))
	}
	s := fmt.Sprintf("%d of %d tests passed", t.Passed, t.Total)
	if len(parts) > 0 {
		s = blameTitle(r, fmt.Sprintf("%s of %d tests", strings.Join(parts, ", "), t.Total))
	}
	switch {
	case r.Status == status.Fail && t.Failed == 0 && t.Flaky > 0 && (r.FailOnFlaky || !inconclusiveFailed(r) && !attacksFailed(r)):
		s = plural.Count(t.Flaky, "flaky test") + " failed the run (fail-on-flaky); " + s
	case t.Flaky > 0:
		s += fmt.Sprintf(", %d flaky", t.Flaky)
	}
	s = inconclusiveTitle(r, s)
	s = quarantineTitle(r, s)
	if t.Warned > 0 {
		s += fmt.Sprintf(", %d with warnings", t.Warned)
	}
	if t.NotMade > 0 {
		s += ", " + plural.Count(t.NotMade, "check") + " not made"
	}
	s = attacksTitle(r, s)
	if h := format.HooksFailed(r.FailedHooks()); h != "" {
		s = h + "; " + s
	}
	return s
}

// Annotations returns a failure annotation per failed suite hook and per
// bound of the run's budget exceeded (at its line in the config, first; a
// warning for a bound not checked), per failing assertion and critical check
// that could not be made (at its YAML position) and per errored test, or
// failed test without a failing assertion to show (at its cause, or where
// the test is declared: its file, or its line in a dataset); a warning per
// assertion that failed in some runs but not in the one shown (a flaky
// test's), per failing warning and per check of severity warning not made
// (of any test, at its YAML position), and one per
// test with protocol warnings. A test that errored because a suite hook
// failed is counted in the hook's annotation rather than given one of its
// own at the same line. With the base branch's history, a failing test's
// annotations end with its verdict (blame.go). Attacks that succeeded come
// last, where their payloads were planted (attacks.go). Positions outside
// the repository cannot be annotated and are left out.
func Annotations(r *report.Report) []github.Annotation {
	out, byHook := hooks(nil, r)
	out = budget(out, r)
	for i := range r.Tests {
		t := &r.Tests[i]
		from := len(out)
		switch {
		case t.Status == status.Fail:
			out = failed(out, t)
		case t.Status == status.Error && !byHook(t):
			out = appendIn(out, reasonAt(t, "error", "the test errored"))
		}
		out = errored(out, t)
		out = flaky(out, t)
		out = inconclusive(out, t)
		out = warned(out, t)
		if n := len(t.Warnings); n > 0 {
			var msgs []string
			for _, w := range t.Warnings[:min(n, 10)] {
				msgs = append(msgs, w.Where()+": "+w.Message)
			}
			out = appendIn(out, github.Annotation{Path: t.File, Line: format.TestLocation(t).Line, Level: github.LevelWarning,
				Title: fmt.Sprintf("%s: %d protocol warning(s)", t.Name, n), Message: strings.Join(msgs, "\n")})
		}
		out = append(out[:from], blamed(quarantined(out[from:], t), r, t)...)
	}
	return attacks(out, r)
}

// maxTitle is GitHub's limit on an annotation's title: 255 characters
// (github-ci.md §4). internal/github clips what it sends, but the
// ::error commands of a read-only run take the title as it is.
const maxTitle = 255

// appendIn adds a when its path is inside the repository, with its texts
// made safe: annotations are shown in the log too (::error commands), where
// an agent's escape sequences must stay visible text.
func appendIn(out []github.Annotation, a github.Annotation) []github.Annotation {
	p := path.Clean(a.Path)
	if a.Path == "" || path.IsAbs(p) || p == ".." || strings.HasPrefix(p, "../") {
		return out
	}
	a.Path = p
	a.Title = format.Short(textsafe.Visible(a.Title, false), maxTitle)
	a.Message = textsafe.Visible(a.Message, true)
	a.RawDetails = textsafe.Visible(a.RawDetails, true)
	return append(out, a)
}

func assertionText(a report.Assertion) string {
	var b strings.Builder
	b.WriteString(a.Message)
	if a.Expected != "" {
		b.WriteString("\nexpected: " + a.Expected)
	}
	if a.Observed != "" {
		b.WriteString("\nobserved: " + a.Observed)
	}
	return b.String()
}

func evidenceText(a report.Assertion) string {
	return strings.Join(format.EvidenceLines(a), "\n")
}
