package github

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	gh "github.com/google/go-github/v66/github"
)

// Limits of the Checks API (GitHub REST OpenAPI description, checks/create).
const (
	// "The Checks API limits the number of annotations to a maximum of 50
	// per API request." Further annotations go in updates, which append.
	maxAnnotationsPerRequest = 50
	// output.summary and output.text: maxLength 65535.
	maxOutputText = 65535
	// output.title and annotation title: 255 characters.
	maxTitle = 255
	// annotation message and raw_details: "64 KB".
	maxAnnotationText = 64 * 1024
)

// Annotation levels the Checks API accepts ("error" is not one of them).
const (
	LevelFailure = "failure"
	LevelWarning = "warning"
	LevelNotice  = "notice"
)

// Annotation marks a line of a file in the repository.
type Annotation struct {
	Path       string // relative to the repository root, forward slashes
	Line       int
	Level      string
	Title      string
	Message    string
	RawDetails string
}

// CheckRun is a completed check run to publish.
type CheckRun struct {
	Name, HeadSHA string
	// Conclusion is one of success, failure, neutral, cancelled, skipped,
	// timed_out, action_required.
	Conclusion     string
	Title, Summary string
	Text           string
	DetailsURL     string
	Annotations    []Annotation
}

// PublishCheck creates the check run, completed, with the first 50
// annotations, then adds the rest 50 at a time. Texts over GitHub's limits
// are shortened with a note.
func (c *Client) PublishCheck(ctx context.Context, run CheckRun) (int64, error) {
	first, rest := batch(run.Annotations)
	out := &gh.CheckRunOutput{
		Title:       gh.String(clip(run.Title, maxTitle, "")),
		Summary:     gh.String(clip(run.Summary, maxOutputText, truncatedNote)),
		Annotations: annotations(first),
	}
	if run.Text != "" {
		out.Text = gh.String(clip(run.Text, maxOutputText, truncatedNote))
	}
	opts := gh.CreateCheckRunOptions{
		Name: run.Name, HeadSHA: run.HeadSHA, Status: gh.String("completed"), Conclusion: gh.String(run.Conclusion),
		CompletedAt: &gh.Timestamp{Time: c.now()}, Output: out,
	}
	if run.DetailsURL != "" {
		opts.DetailsURL = gh.String(run.DetailsURL)
	}
	cr, _, err := c.gh.Checks.CreateCheckRun(ctx, c.owner, c.repo, opts)
	if err != nil {
		return 0, fmt.Errorf("create check run %q: %w", run.Name, err)
	}
	for len(rest) > 0 {
		var next []Annotation
		next, rest = batch(rest)
		_, _, err := c.gh.Checks.UpdateCheckRun(ctx, c.owner, c.repo, cr.GetID(), gh.UpdateCheckRunOptions{
			Name:   run.Name, // go-github sends name even when empty; GitHub requires it non-empty
			Output: &gh.CheckRunOutput{Title: out.Title, Summary: out.Summary, Annotations: annotations(next)},
		})
		if err != nil {
			return cr.GetID(), fmt.Errorf("add annotations to check run %d: %w", cr.GetID(), err)
		}
	}
	return cr.GetID(), nil
}

func batch(as []Annotation) (first, rest []Annotation) {
	if len(as) <= maxAnnotationsPerRequest {
		return as, nil
	}
	return as[:maxAnnotationsPerRequest], as[maxAnnotationsPerRequest:]
}

func annotations(as []Annotation) []*gh.CheckRunAnnotation {
	out := make([]*gh.CheckRunAnnotation, 0, len(as))
	for _, a := range as {
		line := max(a.Line, 1)
		ga := &gh.CheckRunAnnotation{
			Path: gh.String(a.Path), StartLine: gh.Int(line), EndLine: gh.Int(line),
			AnnotationLevel: gh.String(a.Level), Message: gh.String(clip(a.Message, maxAnnotationText, "")),
		}
		if a.Title != "" {
			ga.Title = gh.String(clip(a.Title, maxTitle, ""))
		}
		if a.RawDetails != "" {
			ga.RawDetails = gh.String(clip(a.RawDetails, maxAnnotationText, ""))
		}
		out = append(out, ga)
	}
	return out
}

// truncatedNote ends a text cut to fit a GitHub limit.
const truncatedNote = "\n\n… (shortened to fit GitHub's limit; the full report is in the run's artifact)"

// clip shortens s to at most n characters (and bytes), on a rune boundary,
// ending with note when it had to cut.
func clip(s string, n int, note string) string {
	if len(s) <= n {
		return s
	}
	cut := n - len(note)
	if cut < 0 {
		cut, note = n, ""
	}
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strings.TrimRightFunc(s[:cut], func(r rune) bool { return r == utf8.RuneError }) + note
}
