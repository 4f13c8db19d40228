// Package checks turns a report into a GitHub check run: the conclusion
// from the totals, the markdown summary, and an annotation at the YAML line
// of every failing assertion (and at every errored test), so a reviewer
// sees which assertion on which line failed, in the diff.
package checks

import (
	"fmt"
	"path"
	"strings"

	"github.com/ananke/action/internal/github"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/textsafe"
	"github.com/ananke/action/reporters/markdown"
)

// Options say where the check run goes.
type Options struct {
	Name, HeadSHA string
	DetailsURL    string // the workflow run
	LinkBase      string // blob URL prefix for file links
	Artifact      string // where the full report is, for trimming notes
	Footer        string // trusted markdown after the summary (report links)
	// Annotations false publishes the check run without annotations.
	Annotations bool
}

// Build returns the check run for r.
func Build(r *report.Report, o Options) github.CheckRun {
	run := github.CheckRun{
		Name: o.Name, HeadSHA: o.HeadSHA, DetailsURL: o.DetailsURL, Conclusion: Conclusion(r.Totals), Title: Title(r.Totals),
		Summary: markdown.Render(r, markdown.Options{Budget: 65535, Title: o.Name, LinkBase: o.LinkBase, Artifact: o.Artifact, Footer: o.Footer}),
	}
	if o.Annotations {
		run.Annotations = Annotations(r)
	}
	return run
}

// Conclusion maps the totals to a check run conclusion: any failure or
// error fails the check (never a false pass), a run of skipped tests is
// skipped, an empty run is neutral.
func Conclusion(t report.Totals) string {
	switch {
	case t.Failed > 0 || t.Errored > 0:
		return "failure"
	case t.Total == 0:
		return "neutral"
	case t.Skipped == t.Total:
		return "skipped"
	}
	return "success"
}

// Title is the check run's one-line title.
func Title(t report.Totals) string {
	var parts []string
	if t.Failed > 0 {
		parts = append(parts, fmt.Sprintf("%d failed", t.Failed))
	}
	if t.Errored > 0 {
		parts = append(parts, fmt.Sprintf("%d errored", t.Errored))
	}
	if len(parts) == 0 {
		return fmt.Sprintf("%d of %d tests passed", t.Passed, t.Total)
	}
	return fmt.Sprintf("%s of %d tests", strings.Join(parts, ", "), t.Total)
}

// Annotations returns a failure annotation per failing assertion (at its
// YAML position) and per errored test (at its cause, or the test file),
// and a warning per test with protocol warnings. Positions outside the
// repository cannot be annotated and are left out.
func Annotations(r *report.Report) []github.Annotation {
	var out []github.Annotation
	for i := range r.Tests {
		t := &r.Tests[i]
		switch t.Status {
		case report.StatusFail:
			for _, a := range t.Failed() {
				out = appendIn(out, github.Annotation{Path: a.Source.File, Line: a.Source.Line, Level: github.LevelFailure,
					Title: t.Name + ": " + a.ID, Message: assertionText(a), RawDetails: evidenceText(a)})
			}
		case report.StatusError:
			at := report.Location{File: t.File, Line: 1}
			if t.At != nil {
				at = *t.At
			}
			out = appendIn(out, github.Annotation{Path: at.File, Line: at.Line, Level: github.LevelFailure,
				Title: t.Name + ": error", Message: t.Reason, RawDetails: t.Detail})
		}
		if n := len(t.Warnings); n > 0 {
			var msgs []string
			for _, w := range t.Warnings[:min(n, 10)] {
				msgs = append(msgs, fmt.Sprintf("turn[%d] event #%d: %s", w.Turn, w.Seq, w.Message))
			}
			out = appendIn(out, github.Annotation{Path: t.File, Line: 1, Level: github.LevelWarning,
				Title: fmt.Sprintf("%s: %d protocol warning(s)", t.Name, n), Message: strings.Join(msgs, "\n")})
		}
	}
	return out
}

// appendIn adds a when its path is inside the repository, with its texts
// made safe: annotations are shown in the log too (::error commands), where
// an agent's escape sequences must stay visible text.
func appendIn(out []github.Annotation, a github.Annotation) []github.Annotation {
	p := path.Clean(a.Path)
	if a.Path == "" || path.IsAbs(p) || p == ".." || strings.HasPrefix(p, "../") {
		return out
	}
	a.Path = p
	a.Title = textsafe.Visible(a.Title, false)
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
	var lines []string
	for _, e := range a.Evidence {
		switch {
		case e.Call != nil:
			res := "(no result)"
			if e.Call.Result != nil {
				res = *e.Call.Result
			}
			lines = append(lines, fmt.Sprintf("%s %s → %s (+%dms): %s", e.Call.Name, e.Call.Args, res, e.Call.AtMs, e.Note))
		case e.Gap != nil:
			lines = append(lines, fmt.Sprintf("idle %d ms: %s → %s", e.Gap.ToMs-e.Gap.FromMs, e.Gap.From, e.Gap.To))
		case e.Text != "":
			lines = append(lines, fmt.Sprintf("%s: %q", e.Note, e.Text))
		default:
			lines = append(lines, e.Note)
		}
	}
	return strings.Join(lines, "\n")
}
