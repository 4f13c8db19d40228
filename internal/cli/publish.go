package cli

import (
	"context"
	"fmt"
	"strconv"

	"github.com/sethvargo/go-githubactions"

	"github.com/ananke/action/internal/github"
	"github.com/ananke/action/internal/github/artifact"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/checks"
	"github.com/ananke/action/reporters/markdown"
	"github.com/ananke/action/reporters/prcomment"
	"github.com/ananke/action/reporters/reportdir"
)

// maxWorkflowAnnotations is how many ::error / ::warning commands GitHub
// shows per step: "GitHub Actions are limited to 10 warning annotations and
// 10 error annotations per step."
const maxWorkflowAnnotations = 10

// publisher sends a finished report to GitHub. Every step reports its own
// problems and lets the others run: publishing never hides the verdict.
type publisher struct {
	app *app
	gha *githubactions.Action
	in  actionInputs
	rep *report.Report

	gctx     *github.Context
	artifact string // link to the uploaded report, or a description
	// open says how to see the uploaded report's index.html; "" when
	// nothing was uploaded.
	open string
	cmp  *comparison // nil: nothing compared
	// hist is the history the report was read against; this run appends
	// itself to it when it runs on the branch (nil: history off).
	hist *baseHistory
}

func (p *publisher) publish(ctx context.Context) {
	defer p.outputs()
	gctx, err := github.ContextFrom(p.app.getenv, nil)
	if err != nil {
		p.gha.Warningf("cannot read the GitHub context (%v): the results are in the log and in %s only", err, p.in.reportDir)
		p.compare(ctx, nil)
		p.summary("")
		return
	}
	p.gctx = gctx
	p.artifact = fmt.Sprintf("the report directory of [this run](%s)", gctx.RunURL())
	p.upload(ctx)
	p.appendHistory(ctx)
	if !p.in.publish {
		fmt.Fprintln(p.app.Out, "publish: false: no check run, comment or job summary (a later job merges and publishes)")
		return
	}
	var client *github.Client
	if p.in.token != "" {
		if client, err = github.NewClient(gctx, p.in.token, github.ClientOptions{Now: p.app.now}); err != nil {
			p.gha.Warningf("%v", err)
		}
	}
	p.compare(ctx, client)
	p.summary(gctx.BlobURL())
	switch {
	case p.in.token == "":
		p.gha.Warningf("no github-token: no check run and no pull request comment; annotations go to the log")
		p.logAnnotations()
		return
	case client == nil:
		return
	}
	p.check(ctx, client)
	p.comment(ctx, client)
}

// upload sends the report directory as an artifact.
func (p *publisher) upload(ctx context.Context) {
	token, results := p.app.getenv("ACTIONS_RUNTIME_TOKEN"), p.app.getenv("ACTIONS_RESULTS_URL")
	switch {
	case !p.in.upload:
		return
	case token == "" || results == "":
		p.gha.Warningf("the artifact service is not available (ACTIONS_RUNTIME_TOKEN or ACTIONS_RESULTS_URL unset): the report was not uploaded")
		return
	}
	days, _ := strconv.Atoi(p.app.getenv("GITHUB_RETENTION_DAYS"))
	up, err := artifact.Upload(ctx, artifact.Config{RuntimeToken: token, ResultsURL: results, RetentionDays: days,
		Now: p.app.now, OnSecret: p.gha.AddMask}, p.in.artifactName, p.in.reportDir)
	if err != nil {
		p.gha.Warningf("upload the report as artifact %q: %v", p.in.artifactName, err)
		return
	}
	url := fmt.Sprintf("%s/%s/%s/actions/runs/%s/artifacts/%d", p.gctx.ServerURL, p.gctx.Owner, p.gctx.Repo, p.gctx.RunID, up.ID)
	p.artifact = fmt.Sprintf("the [`%s` artifact](%s)", p.in.artifactName, url)
	p.open = fmt.Sprintf(" (open `index.html` inside, or %s)", markdown.Code("ananke show "+p.in.artifactName+".zip", false))
	fmt.Fprintf(p.app.Out, "Uploaded the report as artifact %s (%d bytes): %s\n", p.in.artifactName, up.Size, url)
}

// footer points at the full report — the uploaded artifact holds
// index.html, the HTML report — and the run.
func (p *publisher) footer() string {
	if p.gctx == nil {
		return ""
	}
	return fmt.Sprintf("Full report: %s%s · [workflow run](%s)", p.artifact, p.open, p.gctx.RunURL())
}

// summary appends the run to the job summary.
func (p *publisher) summary(linkBase string) {
	if p.app.getenv("GITHUB_STEP_SUMMARY") == "" {
		return // go-githubactions would panic without the file
	}
	p.gha.AddStepSummary(markdown.Render(p.rep, markdown.Options{Budget: summaryBudget, Title: p.in.checkName, LinkBase: linkBase,
		Artifact: orDefault(p.artifact, "the report directory"), Footer: p.footer(), Lead: p.cmp.lead(summaryLeadBudget, linkBase)}))
}

// check publishes the check run; a read-only token falls back to
// workflow-command annotations.
func (p *publisher) check(ctx context.Context, client *github.Client) {
	run := checks.Build(p.rep, checks.Options{Name: p.in.checkName, HeadSHA: p.gctx.SHA, DetailsURL: p.gctx.RunURL(),
		LinkBase: p.gctx.BlobURL(), Artifact: p.artifact, Footer: p.footer(), Lead: p.cmp.lead(leadBudget, p.gctx.BlobURL()),
		Annotations: p.in.annotations})
	id, err := client.PublishCheck(ctx, run)
	switch {
	case github.Forbidden(err):
		p.gha.Warningf("the token cannot create check runs (a pull request from a fork has a read-only token; or permissions lack checks: write): annotations go to the log and the results to the job summary")
		p.logAnnotations()
	case err != nil:
		p.gha.Warningf("publish the check run: %v", err)
		p.logAnnotations()
	default:
		fmt.Fprintf(p.app.Out, "Published check run %q (%d) with %d annotations\n", p.in.checkName, id, len(run.Annotations))
	}
}

// comment upserts the sticky pull request comment.
func (p *publisher) comment(ctx context.Context, client *github.Client) {
	if p.gctx.PR == 0 || p.in.comment == "false" {
		return
	}
	failed := p.rep.Totals.Failed+p.rep.Totals.Errored > 0
	// on-failure: a new comment only for a failing run, but an existing
	// one is always updated, so it never goes on showing a fixed failure.
	create := p.in.comment == "true" || failed
	body := prcomment.Body(p.rep, prcomment.Options{CheckName: p.in.checkName, LinkBase: p.gctx.BlobURL(), Artifact: p.artifact,
		Footer: p.footer(), Lead: p.cmp.lead(leadBudget, p.gctx.BlobURL())})
	id, created, err := client.UpsertComment(ctx, p.gctx.PR, prcomment.Marker(p.in.checkName), body, create)
	switch {
	case github.Forbidden(err):
		p.gha.Warningf("the token cannot comment on pull request #%d (read-only token, or permissions lack pull-requests: write): see the job summary", p.gctx.PR)
	case err != nil:
		p.gha.Warningf("comment on pull request #%d: %v", p.gctx.PR, err)
	case created:
		fmt.Fprintf(p.app.Out, "Commented on pull request #%d (comment %d)\n", p.gctx.PR, id)
	case id != 0:
		fmt.Fprintf(p.app.Out, "Updated the comment on pull request #%d (comment %d)\n", p.gctx.PR, id)
	}
}

// logAnnotations writes ::error / ::warning commands, which GitHub shows
// on the files even with a read-only token (at most 10 of each per step).
func (p *publisher) logAnnotations() {
	if !p.in.annotations {
		return
	}
	counts := map[string]int{}
	dropped := 0
	for _, a := range checks.Annotations(p.rep) {
		if counts[a.Level] == maxWorkflowAnnotations {
			dropped++
			continue
		}
		counts[a.Level]++
		f := p.gha.WithFieldsMap(map[string]string{"file": a.Path, "line": strconv.Itoa(max(a.Line, 1)), "title": a.Title})
		if a.Level == github.LevelFailure {
			f.Errorf("%s", a.Message)
		} else {
			f.Warningf("%s", a.Message)
		}
	}
	if dropped > 0 {
		p.gha.Noticef("%d more annotations are not shown (GitHub shows 10 errors and 10 warnings per step): see the job summary", dropped)
	}
}

// outputs sets the action's outputs.
func (p *publisher) outputs() {
	if p.app.getenv("GITHUB_OUTPUT") == "" {
		return // go-githubactions would panic without the file
	}
	t := p.rep.Totals
	for _, kv := range [][2]string{
		{"passed", strconv.Itoa(t.Passed)}, {"failed", strconv.Itoa(t.Failed)}, {"errored", strconv.Itoa(t.Errored)},
		{"total", strconv.Itoa(t.Total)}, {"flaky", strconv.Itoa(t.Flaky)}, {"quarantined", strconv.Itoa(t.Quarantine().Tests)}, {"report-dir", p.in.reportDir}, {"junit-path", p.in.reportDir + "/" + reportdir.JUnitFile},
		{"conclusion", checks.Conclusion(p.rep)},
	} {
		p.gha.SetOutput(kv[0], kv[1])
	}
}
