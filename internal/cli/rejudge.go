package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/ananke/action/internal/judge"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/rejudge"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/console"
	"github.com/ananke/action/reporters/reportdir"
)

// `ananke rejudge REPORT_DIR`: an old run scored again with the current
// judges — model, prompt and gate — over its stored traces, no agent
// contacted (docs/judges.md).

// rejudgedSuffix names the default output of `ananke rejudge DIR`:
// DIR-rejudged beside it, so that the run's own report stays as it was.
const rejudgedSuffix = "-rejudged"

func runRejudge(ctx context.Context, a *app, args []string) error {
	const scope = "rejudge"
	fl := a.flags(scope, "REPORT_DIR")
	config := fl.String("config", "", "project config `file` whose model, judge prompt and judges.gate judge (default: ananke.config.yaml here or in a parent)")
	alias(fl, "c", "config")
	out := fl.String("report-dir", "", "write the rejudged report into `dir` (default: REPORT_DIR"+rejudgedSuffix+"; REPORT_DIR itself replaces the run's report)")
	alias(fl, "o", "report-dir")
	noCache := fl.Bool("no-cache", false, "send every language-model request, ignoring model.cache")
	verbose := fl.Bool("verbose", false, "print every test as a tree, not only failures")
	alias(fl, "v", "verbose")
	var color colorMode
	addColorFlag(fl, &color)
	if err := a.parse(fl, args); err != nil {
		return err
	}
	if fl.NArg() != 1 {
		return invalidf(scope, "name one report directory")
	}
	dir := fl.Arg(0)
	if *out == "" {
		*out = filepath.Clean(dir) + rejudgedSuffix
	}
	cfg, err := a.loadConfig(scope, *config)
	if err != nil {
		return err
	}
	j, lm, err := a.currentJudge(scope, cfg, *noCache)
	if err != nil {
		return err
	}
	defer lm.client.CloseIdleConnections()
	r, err := reportdir.Read(dir)
	if err != nil {
		return withCode(ExitInvalid, scope, err)
	}
	o := rejudge.Options{Judge: j, Gate: a.judgeGate(cfg), Mask: report.ConfigRedactor(lm.secrets, cfg)}
	res, err := rejudge.Rescore(ctx, r, o)
	if err != nil {
		return withCode(ExitInvalid, scope, err)
	}
	compareAgain(r, []*report.Report{r})
	printRejudged(a.Out, res, filepath.Clean(dir), judge.ModelName(j.Model), judge.PromptHash(j.Prompt))
	return a.finish(r, *out, console.Options{Color: a.colored(color), Verbose: *verbose, Confidence: r.Confidence})
}

// printRejudged says what changed: each judge whose answer changed, each
// test whose status changed, and the run's status.
func printRejudged(w io.Writer, res *rejudge.Outcome, dir, model, hash string) {
	fmt.Fprintf(w, "Rejudged %s with judge %s, prompt %s: %s asked again, %s.\n", dir, model, hash,
		plural.Count(res.Asked, "judge assertion"), plural.Count(len(res.Flips), "answer")+" changed")
	for _, f := range res.Flips {
		before := string(f.Before)
		if before == "" {
			before = "(not kept)"
		}
		var crits []string
		for _, c := range f.Criteria {
			was := c.Before
			if was == "" {
				was = "?"
			}
			crits = append(crits, fmt.Sprintf("%q %s → %s", c.Criterion, was, c.After))
		}
		fmt.Fprintf(w, "  %s · %s: %s → %s", where(f.Test, f.Attempt), f.Assertion, before, f.After)
		if len(crits) > 0 {
			fmt.Fprintf(w, " (%s)", strings.Join(crits, ", "))
		}
		fmt.Fprintln(w)
	}
	for _, t := range res.Tests {
		fmt.Fprintf(w, "Test %s: %s → %s", t.Test, t.Before, t.After)
		if t.Reason != "" {
			fmt.Fprintf(w, " (%s)", t.Reason)
		}
		fmt.Fprintln(w)
	}
	if res.Before != res.After {
		fmt.Fprintf(w, "Run: %s → %s\n", res.Before, res.After)
	}
	fmt.Fprintln(w, console.ModelLine(res.Usage))
	fmt.Fprintln(w)
}
