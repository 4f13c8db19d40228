package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"path/filepath"
	"strings"

	"github.com/ananke/action/internal/gitlab"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/console"
	"github.com/ananke/action/reporters/diff"
	"github.com/ananke/action/reporters/markdown"
	"github.com/ananke/action/reporters/prcomment"
	"github.com/ananke/action/reporters/reportdir"
)

// gitlabTokenVar holds the token of `ananke publish gitlab`: a masked CI/CD
// variable (docs/gitlab.md, "The merge request note").
const gitlabTokenVar = "ANANKE_GITLAB_TOKEN"

// publishCommands are the commands of `ananke publish` (shell completion
// lists them too).
var publishCommands []command

func init() { // not an initializer: the commands' help reads the table
	publishCommands = []command{
		{"gitlab", "create or update the merge request note of a GitLab CI job: the report and what changed since the target branch", runPublishGitLab},
	}
}

// runPublish is `ananke publish`: a report directory published where a CI
// system's reviewers look.
func runPublish(ctx context.Context, a *app, args []string) error {
	return a.runSub(ctx, "publish", publishCommands, publishUsage, args)
}

func publishUsage(w io.Writer) {
	fmt.Fprintln(w, "Usage: ananke publish gitlab [--report-dir DIR] [--job NAME]")
	fmt.Fprintln(w, "\nCommands:\n  gitlab    create or update the merge request note of a GitLab CI job (docs/gitlab.md)")
	fmt.Fprintln(w, "\nRun 'ananke publish gitlab -h' for its flags.")
}

// runPublishGitLab is `ananke publish gitlab`: the sticky merge request
// note, the same markdown as the GitHub pull request comment, headed by
// the change since the target branch's report. Publishing never hides the
// verdict: whatever goes wrong with GitLab is a warning, the results go to
// the job log instead, and the command exits 0. Only an unreadable report
// directory or a bad flag ends it otherwise.
func runPublishGitLab(ctx context.Context, a *app, args []string) error {
	const scope = "publish gitlab"
	fs := a.flags(scope, "")
	dir := fs.String("report-dir", "ananke-report", "read the report from `dir`, as ananke run wrote it")
	job := fs.String("job", "", "the `name` of the job whose artifacts hold the report on the target branch, and of the note (default $CI_JOB_NAME)")
	if err := a.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return invalidf(scope, "publish gitlab takes no operands; name the report directory with --report-dir")
	}
	rep, err := reportdir.ReadSummary(*dir)
	if err != nil {
		return withCode(ExitInvalid, scope, err)
	}
	p := &gitlabPublisher{app: a, rep: rep, dir: *dir}
	gctx, err := gitlab.ContextFrom(a.getenv)
	if err != nil {
		a.warn(scope, fmt.Errorf("%w: no merge request note; the results follow", err))
		p.logResults()
		return nil
	}
	p.gctx, p.job = gctx, orDefault(*job, orDefault(gctx.JobName, "ananke"))
	p.publish(ctx)
	return nil
}

// gitlabPublisher publishes one report to one GitLab job's merge request.
type gitlabPublisher struct {
	app  *app
	rep  *report.Report
	dir  string // the report directory, as given
	gctx *gitlab.Context
	job  string // the job's name: the note's title and marker, the base's job
}

func (p *gitlabPublisher) publish(ctx context.Context) {
	const scope = "publish gitlab"
	g := p.gctx
	if g.MR == 0 {
		p.logResults()
		fmt.Fprintln(p.app.Out, "ananke: no merge request to note: CI_MERGE_REQUEST_IID is unset (this is not a merge request pipeline); the results are above")
		return
	}
	token := p.app.getenv(gitlabTokenVar)
	if token == "" {
		p.app.warn(scope, fmt.Errorf("%s is unset: no note on !%d (set it as a masked CI/CD variable holding an access token with the api scope); the results follow", gitlabTokenVar, g.MR))
		p.logResults()
		return
	}
	client, err := gitlab.New(g.APIURL, g.ProjectID, token, gitlab.Options{Now: p.app.now})
	if err != nil {
		p.app.warn(scope, fmt.Errorf("%w: no note on !%d; the results follow", err, g.MR))
		p.logResults()
		return
	}
	cmp := p.compare(ctx, client)
	body := prcomment.Body(p.rep, prcomment.Options{CheckName: p.job, LinkBase: g.BlobURL(), Artifact: p.artifact(),
		Footer: p.footer(), Lead: cmp.lead(leadBudget, g.BlobURL())})
	_, created, err := client.UpsertNote(ctx, g.MR, prcomment.Marker(p.job), body)
	switch {
	case err != nil:
		p.app.warn(scope, fmt.Errorf("%s; the results follow", refusal(err, g.MR)))
		p.logResults()
	case created:
		fmt.Fprintf(p.app.Out, "ananke: note created on !%d\n", g.MR)
	default:
		fmt.Fprintf(p.app.Out, "ananke: note updated on !%d\n", g.MR)
	}
}

// refusal says why the note could not be written, naming what the token
// lacks when GitLab refused it.
func refusal(err error, mr int) string {
	var e *gitlab.APIError
	errors.As(err, &e)
	switch {
	case !gitlab.Forbidden(err):
		return fmt.Sprintf("no note on !%d: %v", mr, err)
	case gitlab.NeededScope(err) != "":
		return fmt.Sprintf("the token lacks the %s scope, so it cannot write the note on !%d (a read_api token reads but never writes; give %s a token with the api scope)",
			gitlab.NeededScope(err), mr, gitlabTokenVar)
	case e.Status == 401:
		return fmt.Sprintf("GitLab refused the token (401 Unauthorized: expired, revoked, or not an access token): no note on !%d; put a valid token with the api scope in %s", mr, gitlabTokenVar)
	}
	return fmt.Sprintf("the token may not comment on !%d (%v): its user needs the api scope and at least the Reporter role in the project", mr, err)
}

// logResults prints the results to the job log, as ananke run does, for
// when there is no note to hold them.
func (p *gitlabPublisher) logResults() {
	if err := console.Write(p.app.Out, p.rep, console.Options{}); err != nil {
		p.app.warn("publish gitlab", err)
	}
}

// archivePath is where the report directory is in the job's artifacts
// archive, which keeps paths relative to the project directory; "" when
// it is outside it.
func (p *gitlabPublisher) archivePath() string {
	dir := p.dir
	if !filepath.IsAbs(dir) {
		if wd, err := p.app.getwd(); err == nil {
			dir = filepath.Join(wd, dir)
		}
	}
	if p.gctx.ProjectDir != "" && filepath.IsAbs(dir) {
		rel, err := filepath.Rel(p.gctx.ProjectDir, dir)
		if err != nil || !filepath.IsLocal(rel) {
			return ""
		}
		return filepath.ToSlash(rel)
	}
	if filepath.IsAbs(p.dir) || !filepath.IsLocal(p.dir) {
		return ""
	}
	return path.Clean(filepath.ToSlash(p.dir))
}

// artifact names where the full report is: this job's artifacts.
func (p *gitlabPublisher) artifact() string {
	name := markdown.Code(orDefault(p.archivePath(), p.dir), false)
	if p.gctx.JobURL == "" {
		return "the " + name + " directory of the job's artifacts"
	}
	return fmt.Sprintf("the %s directory of [the job's artifacts](%s/artifacts/browse/%s)", name, p.gctx.JobURL, p.archivePath())
}

func (p *gitlabPublisher) footer() string {
	s := "Full report: " + p.artifact() + " (open `index.html` inside)"
	if p.gctx.PipelineURL != "" {
		s += fmt.Sprintf(" · [pipeline](%s)", p.gctx.PipelineURL)
	}
	return s
}

// compare fetches the target branch's report and compares this one with
// it, for the note's lead; the change also goes to the log as text.
// Nothing here fails the command: each problem is a warning, or a line
// saying there is no base.
func (p *gitlabPublisher) compare(ctx context.Context, client *gitlab.Client) *comparison {
	const scope = "publish gitlab"
	g := p.gctx
	archived := p.archivePath()
	if archived == "" {
		return p.noBase(fmt.Sprintf("the report directory %s is outside the project directory, so no job's artifacts hold it", p.dir))
	}
	b, err := client.BaseReport(ctx, gitlab.BaseQuery{Ref: g.TargetBranch, Job: p.job, Summary: archived + "/" + reportdir.SummaryFile})
	switch {
	case errors.Is(err, gitlab.ErrNoBase):
		why, _ := strings.CutPrefix(err.Error(), gitlab.ErrNoBase.Error()+": ")
		return p.noBase(why)
	case gitlab.Forbidden(err):
		p.app.warn(scope, fmt.Errorf("the token cannot read the job artifacts of %s (%v): no comparison; it needs the read_api or api scope and at least the Reporter role", g.TargetBranch, err))
		return &comparison{note: "No base report to compare with: the token cannot read the target branch's job artifacts (it needs the `read_api` or `api` scope and at least the Reporter role)."}
	case err != nil:
		p.app.warn(scope, fmt.Errorf("compare with the target branch's report: %w", err))
		return &comparison{note: "No comparison with the target branch: its report could not be fetched (see the job log)."}
	}
	base, err := reportdir.ParseSummary(b.Summary)
	if err != nil {
		p.app.warn(scope, fmt.Errorf("compare with the report of job %s on %s: %w", b.Job, b.Ref, err))
		return &comparison{note: "No comparison with the target branch: its report could not be read (see the job log)."}
	}
	text := fmt.Sprintf("the latest successful %s job on %s", b.Job, b.Ref)
	md := fmt.Sprintf("the latest successful %s job on %s", markdown.Code(b.Job, false), markdown.Code(b.Ref, false))
	if g.ProjectURL != "" {
		md = fmt.Sprintf("[%s](%s/-/jobs/artifacts/%s/browse?job=%s)", md, g.ProjectURL, url.PathEscape(b.Ref), url.QueryEscape(b.Job))
	}
	c := diff.CompareAt(base, p.rep, diff.DefaultSignificance)
	fmt.Fprintln(p.app.Out)
	if err := diff.WriteText(p.app.Out, c, diff.TextOptions{Base: text}); err != nil {
		p.app.warn(scope, err)
	}
	return &comparison{change: c, base: md}
}

// noBase says, in the log and atop the note, that there is no base report
// to compare with, and why: a fact, not a problem.
func (p *gitlabPublisher) noBase(why string) *comparison {
	fmt.Fprintf(p.app.Out, "No base report to compare with: %s.\n", why)
	return &comparison{note: "No base report to compare with: " + markdown.Text(why) + "."}
}
