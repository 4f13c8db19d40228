package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/reporters/console"
	"github.com/ananke/action/reporters/markdown"
	"github.com/ananke/action/reporters/reportdir"
)

// runOptions are the flags of `ananke run`.
type runOptions struct {
	config    string
	parallel  int
	timeout   durationFlag
	reportDir string
	summary   string
	verbose   bool
	paths     []string
}

func runRun(ctx context.Context, a *app, args []string) int {
	var o runOptions
	fs := a.flags("run", "[PATH...]")
	fs.StringVar(&o.config, "config", "", "project config `file` (default: ananke.config.yaml here or in a parent of the first PATH)")
	fs.IntVar(&o.parallel, "parallel", 1, "run up to `N` tests at once")
	fs.Var(&o.timeout, "timeout", "bound each test, e.g. 2m (default: none beyond target.timeout_ms per run)")
	fs.StringVar(&o.reportDir, "report-dir", "ananke-report", "write reports into `dir`")
	fs.StringVar(&o.summary, "summary", "", "also write a markdown summary to `file` (e.g. $GITHUB_STEP_SUMMARY)")
	fs.BoolVar(&o.verbose, "v", false, "list every assertion and protocol warning")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if o.parallel < 1 {
		fmt.Fprintf(a.Err, "ananke run: --parallel must be at least 1, got %d\n", o.parallel)
		return ExitInvalid
	}
	o.paths = fs.Args()
	return a.run(ctx, o)
}

func (a *app) run(ctx context.Context, o runOptions) int {
	res := a.pipeline(ctx, o, nil)
	if res.report == nil {
		return res.exit
	}
	if o.summary != "" {
		md := markdown.Render(res.report, markdown.Options{Budget: summaryBudget, Artifact: "the report directory (" + o.reportDir + ")"})
		if err := os.WriteFile(o.summary, []byte(md), 0o644); err != nil {
			fmt.Fprintf(a.Err, "ananke: write summary: %v\n", err)
			res.fail()
		}
	}
	return res.exit
}

// summaryBudget is GitHub's limit for a step summary: "1024k".
// https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions#step-isolation-and-limits
const summaryBudget = 1 << 20

// pipelineResult is what a run produced.
type pipelineResult struct {
	report *report.Report // nil when the files were invalid
	exit   int
}

// fail records that an output was lost: a pass must not read as a pass.
func (r *pipelineResult) fail() {
	if r.exit == ExitPass {
		r.exit = ExitError
	}
}

// pipeline is everything `ananke run` and `ananke action` share: load and
// check the files, run the tests with live lines, build the report, print
// the failure trees and summary, and write the report directory. loaded,
// when set, sees the suite before anything runs.
func (a *app) pipeline(ctx context.Context, o runOptions, loaded func(*spec.Suite)) *pipelineResult {
	suite, code := a.load(o.config, o.paths)
	if suite == nil {
		return &pipelineResult{exit: code}
	}
	if diags := spec.CheckEnv(suite, a.lookupEnv); len(diags) > 0 {
		for _, d := range diags {
			fmt.Fprintln(a.Err, d)
		}
		fmt.Fprintf(a.Err, "ananke: %s found; nothing was run\n", plural(len(diags), "problem"))
		return &pipelineResult{exit: ExitInvalid}
	}
	if loaded != nil {
		loaded(suite)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if a.onSignal != nil {
		defer a.onSignal(cancel)()
	}
	copts := console.Options{Color: a.OutIsTerminal && !a.has("NO_COLOR"), Verbose: o.verbose}
	var serverLog io.Writer // target.server's output, shown with -v
	if o.verbose {
		serverLog = a.Err
	}
	out := engine.Run(ctx, engine.Options{
		Suite: suite, Parallel: o.parallel, TestTimeout: o.timeout.Duration, Env: a.environ, LookupEnv: a.lookupEnv,
		Now: a.now, Observer: console.NewLive(a.Out, copts), ServerLog: serverLog,
	})
	root, _ := a.getwd()
	meta := report.Meta{Version: Version(), Config: suite.Config, Parallel: o.parallel, Root: root}
	res := &pipelineResult{report: report.Build(out, meta)}
	res.exit = exitCode(res.report.Totals)
	if err := console.Write(a.Out, res.report, copts); err != nil {
		fmt.Fprintf(a.Err, "ananke: write console output: %v\n", err)
	}
	if err := reportdir.Write(o.reportDir, res.report); err != nil {
		fmt.Fprintf(a.Err, "ananke: %v\n", err)
		res.fail()
	} else {
		fmt.Fprintf(a.Out, "Report: %s\n", filepath.Join(o.reportDir, reportdir.SummaryFile))
	}
	return res
}

// exitCode maps the totals to the process exit code (design §5).
func exitCode(t report.Totals) int {
	switch {
	case t.Failed > 0:
		return ExitFail
	case t.Errored > 0:
		return ExitError
	}
	return ExitPass
}

// has reports whether an environment variable is set (to anything).
func (a *app) has(name string) bool {
	_, ok := a.lookupEnv(name)
	return ok
}
