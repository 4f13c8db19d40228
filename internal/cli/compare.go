package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/sethvargo/go-githubactions"

	"github.com/ananke/action/internal/dryrun"
	"github.com/ananke/action/internal/github"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/diff"
	"github.com/ananke/action/reporters/markdown"
	"github.com/ananke/action/reporters/reportdir"
)

// Values of the compare input; any other value is a report directory.
const (
	compareAuto = "auto" // a pull request: the base branch's report artifact
	compareOff  = "off"
)

// Budgets of the change that heads each published surface. The comment
// and the check run summary hold 65,535 characters: the change gets a
// quarter, so that the failures themselves keep the rest. The job summary
// holds 1 MiB and can give it more.
const (
	leadBudget        = 16 << 10
	summaryLeadBudget = 64 << 10
)

// comparison is what the published surfaces say about the base report:
// the change since it, or one line saying why there is none.
type comparison struct {
	change *diff.Change
	base   string // trusted markdown naming the base, for diff.Markdown
	note   string // trusted markdown, when there is no change to show
	// costLimit is fail-on-cost-increase, which the cost changes over it
	// show; nil when unset.
	costLimit *float64
}

// lead is the markdown put under the heading of a surface, at most budget
// bytes; "" when nothing was compared.
func (c *comparison) lead(budget int, linkBase string) string {
	switch {
	case c == nil:
		return ""
	case c.change == nil:
		return c.note
	}
	return diff.Markdown(c.change, diff.MarkdownOptions{Budget: budget, LinkBase: linkBase, Base: c.base, CostGate: c.costLimit})
}

// readCompare reads the compare input: auto or off (in any case), else a
// directory path, which is only looked at when publishing — a directory
// that is not there is a warning, as comparing never fails the step.
func readCompare(s string) string {
	switch {
	case s == "", strings.EqualFold(s, compareAuto):
		return compareAuto
	case strings.EqualFold(s, compareOff):
		return compareOff
	}
	return s
}

// compare finds the base report the compare input names and compares the
// report with it, for the lead of every surface; the change also goes to
// the log as text. Nothing here changes the verdict: each problem is a
// warning, or a line saying there is no base.
func (p *publisher) compare(ctx context.Context, client *github.Client) {
	if base, md, text := p.base(ctx, client); base != nil {
		p.compared(base, md, text)
	}
}

// base finds the base report the compare input names, and names it in
// markdown and in text; nil when there is none or nothing is compared,
// which the log and p.cmp then say.
func (p *publisher) base(ctx context.Context, client *github.Client) (base *report.Report, md, text string) {
	switch p.in.compare {
	case compareOff:
		return nil, "", ""
	case compareAuto:
		return p.baseBranch(ctx, client)
	}
	return p.baseDir(p.in.compare)
}

// baseBranch is the base branch's report (compare: auto).
func (p *publisher) baseBranch(ctx context.Context, client *github.Client) (*report.Report, string, string) {
	if p.gctx == nil {
		return nil, "", ""
	}
	q, err := p.gctx.BaseQuery(p.in.artifactName)
	switch {
	case errors.Is(err, github.ErrNoBase) && p.gctx.PR == 0:
		// A push or a schedule: nothing to compare with, and nothing wrong.
		fmt.Fprintf(p.app.Out, "No comparison: %s (compare: auto compares a pull request with its base branch)\n", noBaseWhy(err))
		return nil, "", ""
	case err == nil && client == nil:
		if p.in.token == "" {
			p.noBase("there is no github-token to look it up")
		}
		return nil, "", ""
	}
	var b *github.BaseReport
	if err == nil {
		b, err = client.BaseReport(ctx, q)
	}
	switch {
	case errors.Is(err, github.ErrNoBase):
		p.noBase(noBaseWhy(err))
		return nil, "", ""
	case github.Forbidden(err):
		// GitHub answers 404 as well as 403 for what a token may not see.
		p.gha.Warningf("the token cannot read this workflow's runs (permissions lack actions: read): no comparison with the base branch's report")
		p.cmp = &comparison{note: "No base report to compare with: the token cannot read workflow runs (the workflow's `permissions:` lack `actions: read`)."}
		return nil, "", ""
	case err != nil:
		p.gha.Warningf("compare with the base branch's report: %v", err)
		p.cmp = &comparison{note: "No comparison with the base branch: its report could not be fetched (see the warnings in the workflow run)."}
		return nil, "", ""
	}
	base, err := reportdir.ParseSummary(b.Summary)
	if err != nil {
		p.gha.Warningf("compare with the report of run #%d on %s: %v", b.RunNumber, b.Branch, err)
		p.cmp = &comparison{note: "No comparison with the base branch: its report could not be read (see the warnings in the workflow run)."}
		return nil, "", ""
	}
	for _, s := range b.Skipped {
		fmt.Fprintf(p.app.Out, "Passed over for the base report: %s\n", s)
	}
	sha := b.HeadSHA[:min(len(b.HeadSHA), 7)]
	run := fmt.Sprintf("run #%d", b.RunNumber)
	if b.HTMLURL != "" {
		run = fmt.Sprintf("[%s](%s)", run, b.HTMLURL)
	}
	md := fmt.Sprintf("%s on %s (%s)", run, markdown.Code(b.Branch, false), markdown.Code(sha, false))
	return base, md, fmt.Sprintf("run #%d on %s (%s) %s", b.RunNumber, b.Branch, sha, b.HTMLURL)
}

// baseDir is a report directory the workflow downloaded.
func (p *publisher) baseDir(dir string) (*report.Report, string, string) {
	if _, err := os.Stat(dir); err != nil {
		p.gha.Warningf("input compare: no report directory %s (want auto, off or a downloaded report directory): no comparison", dir)
		p.noBase(fmt.Sprintf("no report directory %s", dir))
		return nil, "", ""
	}
	base, err := reportdir.ReadSummary(dir)
	if err != nil {
		p.gha.Warningf("input compare: %v", err)
		p.noBase(fmt.Sprintf("no readable report in %s", dir))
		return nil, "", ""
	}
	return base, "the report in " + markdown.Code(dir, false), dir
}

// actionPrevious is the base report the compare input names, for a dry
// run's estimate of tokens and cost; nil when compare is off or there is
// none, which the log says.
func (a *app) actionPrevious(ctx context.Context, gha *githubactions.Action, in actionInputs) *dryrun.Previous {
	if in.compare == compareOff {
		return nil
	}
	p := &publisher{app: a, gha: gha, in: in}
	var client *github.Client
	if gctx, err := github.ContextFrom(a.getenv, nil); err == nil {
		p.gctx = gctx
		if in.token != "" {
			if client, err = github.NewClient(gctx, in.token, github.ClientOptions{Now: a.now}); err != nil {
				gha.Warningf("%v", err)
			}
		}
	}
	base, _, text := p.base(ctx, client)
	if base == nil {
		fmt.Fprintln(a.Out, "No estimate of the run's tokens and cost: there is no base report.")
		return nil
	}
	return &dryrun.Previous{Report: base, From: strings.TrimSpace(text)}
}

// compared compares the report with base, named by md (markdown) and text.
func (p *publisher) compared(base *report.Report, md, text string) {
	c := diff.CompareAt(base, p.rep, p.in.significance.level())
	limit := p.in.costLimit.limit()
	p.cmp = &comparison{change: c, base: md, costLimit: limit}
	fmt.Fprintln(p.app.Out)
	if err := diff.WriteText(p.app.Out, c, diff.TextOptions{Base: strings.TrimSpace(text), CostGate: limit}); err != nil {
		p.app.warn("", err)
	}
}

// noBase says, in the log and atop every surface, that there is no base
// report to compare with, and why: a fact, not a problem.
func (p *publisher) noBase(why string) {
	fmt.Fprintf(p.app.Out, "No base report to compare with: %s.\n", why)
	p.cmp = &comparison{note: "No base report to compare with: " + markdown.Text(why) + "."}
}

// noBaseWhy is the reason an ErrNoBase error gives.
func noBaseWhy(err error) string {
	why, ok := strings.CutPrefix(err.Error(), github.ErrNoBase.Error()+": ")
	if !ok {
		return err.Error()
	}
	return why
}

// costGate is fail-on-cost-increase over the comparison: exit 1 with a
// line per test whose cost per attempt rose more than the limit; nil when
// none did, the input is unset, or nothing was compared (the log says so).
func (p *publisher) costGate() error {
	limit := p.in.costLimit.limit()
	if limit == nil {
		return nil
	}
	if p.cmp == nil || p.cmp.change == nil {
		fmt.Fprintln(p.app.Out, "fail-on-cost-increase: no base report was compared, so no cost was either")
		return nil
	}
	return costGate("", p.cmp.change, limit, sparedBy(p.app.Out, p.rep))
}

// regressionGate is fail-on-regression over the comparison: exit 1 with
// a line per test run more than once that regressed significantly; nil
// when none did, the input is false, or nothing was compared (the log
// says so).
func (p *publisher) regressionGate() error {
	if !p.in.failOnRegression {
		return nil
	}
	if p.cmp == nil || p.cmp.change == nil {
		fmt.Fprintln(p.app.Out, "fail-on-regression: no base report was compared, so no pass rate was either")
		return nil
	}
	return regressionGate("", p.cmp.change, true, sparedBy(p.app.Out, p.rep))
}
