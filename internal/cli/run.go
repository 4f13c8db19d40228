package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/source"
	"github.com/ananke/action/internal/status"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/dryrun"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/target/registry"
	"github.com/ananke/action/reporters/console"
	"github.com/ananke/action/reporters/diff"
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
	color     colorMode
	paths     []string
	// Repeated runs: unset flags leave the decision to the test files and
	// the config.
	runs        runsFlag
	retries     intFlag
	minPassRate percentFlag
	failOnFlaky bool
	// failOnInconclusive makes a test whose adaptive runs did not settle
	// fail the run.
	failOnInconclusive bool
	// Selection.
	run      string
	shard    shardFlag
	tags     listFlag
	failFast bool
	dryRun   bool
	// estimateFrom is --estimate-from DIR: with --dry-run, the report the
	// run's usage is estimated from; previous is that report once read
	// (the action sets it to the base report).
	estimateFrom string
	previous     *dryrun.Previous
	// noCache sends every model request, ignoring model.cache.
	noCache bool
	// input is -i: a message to send (message), or a dataset (a path);
	// endpoint replaces target.endpoint.
	input, message, endpoint string
	// profiles are --cpuprofile and --memprofile.
	profiles profiles
	// record and replay are --record DIR and --replay DIR.
	record, replay string
	// historyPath is --history: the base branch's history, which history
	// holds once read; the report is read against it before it is
	// printed and written (nil: none).
	historyPath string
	history     *baseHistory
	// failOn is --fail-on: error, or new (blame.go).
	failOn string
	// gateway is --gateway: the model gateway's mode, over the config's;
	// backendHost the action's backend-host, over $ANANKE_BACKEND_HOST.
	gateway, backendHost string
	// attack are the flags of attack runs (attack.go).
	attack attackFlags
	// variant and variants are --variant NAME... and --variants all
	// (variants.go).
	variant  listFlag
	variants string
	// updateSnapshots is -u: write and rewrite snapshots (snapshots.go).
	updateSnapshots bool
}

// addRunFlags declares the flags `ananke run` shares with nothing else.
func addRunFlags(fs *flag.FlagSet, o *runOptions) {
	o.retries = intFlag{lo: 0, hi: spec.MaxRetries}
	fs.StringVar(&o.config, "config", "", "project config `file` (default: ananke.config.yaml here or in a parent of the first PATH)")
	alias(fs, "c", "config")
	o.parallel = 1
	fs.Var((*numberFlag)(&o.parallel), "parallel", "run up to `N` attempts at once")
	fs.Var(&o.timeout, "timeout", "bound each attempt of a test to `duration`, e.g. 2m (default: none beyond target.timeout_ms per run)")
	fs.StringVar(&o.reportDir, "report-dir", "ananke-report", "write reports into `dir`")
	alias(fs, "o", "report-dir")
	fs.StringVar(&o.summary, "summary", "", "also write a markdown summary to `file` (e.g. $GITHUB_STEP_SUMMARY)")
	fs.BoolVar(&o.verbose, "verbose", false, "print every test as a tree of turns, tool calls and assertions, and protocol warnings")
	alias(fs, "v", "verbose")
	addColorFlag(fs, &o.color)
	fs.Var(&o.runs, "runs", "run each test `N` times, or MIN..MAX times, stopping once its verdict is settled (e.g. 3..30); its pass rate decides (a test file's runs: wins; default: the config's, else 1)")
	fs.Var(&o.minPassRate, "min-pass-rate", "`percent` of runs a test must pass (a test file's min_pass_rate: wins; default: the config's, else 100)")
	fs.Var(&o.retries, "retries", "run a failing run again up to `N` times; passing on a retry passes, flaky (default: the config's, else 0)")
	fs.BoolVar(&o.failOnFlaky, "fail-on-flaky", false, "fail the run when a test is flaky, even if it passed")
	fs.StringVar(&o.failOn, "fail-on", "error", "`when` the run fails: error (a test failed or errored), or new (as error, but a failure the --history explains — known flaky or already failing there — fails nothing, and is listed)")
	fs.StringVar(&o.historyPath, "history", "", "read the failures against the base branch's history in `path`: a history file (ananke history --append) or a directory of reports, one a subdirectory")
	fs.BoolVar(&o.failOnInconclusive, "fail-on-inconclusive", false, "fail the run when a test is inconclusive (its runs MIN..MAX reached MAX without a settled verdict), even if it passed")
	fs.StringVar(&o.run, "run", "", "run only tests whose id or name matches `regexp`")
	fs.Var(&o.tags, "tag", "run only tests with this `tag` (repeatable; any of them); !tag excludes")
	fs.Var(&o.shard, "shard", "run part `i/n` of the suite (merge the reports with ananke merge)")
	fs.BoolVar(&o.failFast, "fail-fast", false, "start no new test after a test failed or errored; the rest are skipped")
	fs.BoolVar(&o.dryRun, "dry-run", false, "print the plan (tests, turns, assertions, runs) and exit; nothing is sent, no hook runs")
	fs.StringVar(&o.estimateFrom, "estimate-from", "", "with --dry-run, estimate each test's tokens and cost from the report in `dir` (its usage per attempt × runs)")
	fs.BoolVar(&o.noCache, "no-cache", false, "send every language-model request, ignoring model.cache")
	fs.StringVar(&o.input, "input", "", "send `input` to the agent and print its reply: a message, or a dataset file (*.jsonl) to run")
	alias(fs, "i", "input")
	fs.StringVar(&o.endpoint, "endpoint", "", "send to `URL` instead of target.endpoint (without a config: an AG-UI agent there)")
	fs.StringVar(&o.record, "record", "", "record every exchange with the agent into `dir`, to replay later")
	fs.StringVar(&o.replay, "replay", "", "answer every run from the recording in `dir`, without the agent")
	fs.BoolVar(&o.updateSnapshots, "update-snapshots", false, "write the snapshots that are missing, rewrite those that changed and remove the obsolete ones (docs/snapshots.md)")
	alias(fs, "u", "update-snapshots")
	fs.StringVar(&o.gateway, "gateway", "", "run the model gateway in `mode` passthrough, record or replay, over the config's gateway.mode (docs/gateway.md)")
	addAttackFlags(fs, &o.attack)
	fs.Var(&o.variant, "variant", "run the suite under the config's variant `name` (repeatable), and compare the variants side by side (docs/variants.md)")
	fs.StringVar(&o.variants, "variants", "", "`all`: run the suite under every variant of the config, and compare them")
	fs.StringVar(&o.profiles.cpu, "cpuprofile", "", "write a CPU profile of the run to `file` (go tool pprof file)")
	fs.StringVar(&o.profiles.mem, "memprofile", "", "write a memory profile of the run to `file` at its end")
}

func runRun(ctx context.Context, a *app, args []string) error {
	var o runOptions
	fs := a.flags("run", "[PATH...]")
	addRunFlags(fs, &o)
	if err := a.parse(fs, args); err != nil {
		return err
	}
	if o.parallel < 1 {
		return invalidf("run", "--parallel must be at least 1, got %d", o.parallel)
	}
	o.paths = fs.Args()
	if err := o.readInput(); err != nil {
		return err
	}
	if err := o.readPrevious(); err != nil {
		return err
	}
	if o.failOn != "error" && o.failOn != "new" {
		return invalidf("run", "--fail-on %q: want error or new", o.failOn)
	}
	if o.historyPath != "" && !o.dryRun {
		var err error
		if o.history, err = a.readBaseHistory(o.historyPath, diff.DefaultSignificance); err != nil {
			a.warn("run", fmt.Errorf("--history: %w", err))
		}
	}
	stop := o.profiles.start(a)
	err := a.run(ctx, o)
	return errors.Join(err, stop())
}

// readInput reads -i: a path ending in .jsonl (or naming a file) is a
// dataset to run, anything else a message. A message is the whole suite,
// so it takes no PATH; its tree is printed in full.
func (o *runOptions) readInput() error {
	switch {
	case o.input == "":
		return nil
	case strings.HasSuffix(o.input, ".jsonl") || isFile(o.input):
		if !isFile(o.input) {
			return invalidf("run", "-i %s: no such file", o.input)
		}
		o.paths = append(o.paths, o.input)
		return nil
	case len(o.paths) > 0:
		return invalidf("run", "-i with a message runs that message alone; remove the paths (%s)", strings.Join(o.paths, " "))
	case strings.TrimSpace(o.input) == "":
		return invalidf("run", "-i needs a message or a dataset file")
	}
	o.message = o.input
	return nil
}

// readPrevious reads --estimate-from's report, which only a dry run
// uses.
func (o *runOptions) readPrevious() error {
	switch {
	case o.estimateFrom == "":
		return nil
	case !o.dryRun:
		return invalidf("run", "--estimate-from estimates a dry run's usage: add --dry-run")
	}
	r, err := reportdir.ReadSummary(o.estimateFrom)
	if err != nil {
		return invalidf("run", "--estimate-from: %w", err)
	}
	o.previous = &dryrun.Previous{Report: r, From: o.estimateFrom}
	return nil
}

// stability is the command line's level of the runs, min_pass_rate and
// retries settings.
func (o *runOptions) stability() spec.Stability {
	var s spec.Stability
	o.runs.level(&s)
	if o.minPassRate.set {
		v := o.minPassRate.v
		s.MinPassRate = &v
	}
	if o.retries.set {
		v := o.retries.v
		s.Retries = &v
	}
	return s
}

func (a *app) run(ctx context.Context, o runOptions) error {
	r, err := a.pipeline(ctx, o, nil)
	if r == nil {
		return err
	}
	if o.summary != "" {
		err = errors.Join(err, writeSummary(r, o.summary, o.reportDir))
	}
	if o.failOn == "new" {
		err = withCode(failOnNew(a.Out, r, codeOf(err)), "", err)
	}
	return err
}

// writeSummary writes the markdown summary of --summary; an error is an
// output lost (exit 2 unless the run failed).
func writeSummary(r *report.Report, path, reportDir string) error {
	if err := os.WriteFile(path, []byte(summaryMarkdown(r, reportDir)), 0o644); err != nil {
		return errorf("", "write summary: %v", err)
	}
	return nil
}

// summaryMarkdown is the markdown summary of a run whose report directory
// is reportDir, within summaryBudget.
func summaryMarkdown(r *report.Report, reportDir string) string {
	return markdown.Render(r, markdown.Options{Budget: summaryBudget, Artifact: "the report directory (" + reportDir + ")"})
}

// summaryBudget is GitHub's limit for a step summary: "1024k".
// https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions#step-isolation-and-limits
const summaryBudget = 1 << 20

// pipeline is everything `ananke run` and `ananke action` share: load and
// check the files, select the tests, run them with live lines, build the
// report, print the failure trees and summary, and write the report
// directory. loaded, when set, sees the selected suite before anything
// runs. With --dry-run it prints the plan instead and reports nothing. The
// report is nil when nothing ran; the error carries the run's exit code
// (verdict) and any output lost.
func (a *app) pipeline(ctx context.Context, o runOptions, loaded func(*spec.Suite)) (*report.Report, error) {
	suite, err := a.loadSuite(spec.Options{ConfigPath: o.config, Paths: o.paths, Endpoint: o.endpoint, Message: o.message})
	if err != nil {
		return nil, err
	}
	every := slices.Clone(suite.Tests) // what each file declares, before selection (snapshots.go)
	sel, err := selectTests(suite, o)
	if err != nil {
		return nil, err
	}
	attacks, err := a.attackPlan(suite, o.attack)
	if err != nil {
		return nil, err
	}
	vs, err := selectVariants(suite.Config, o.variant, o.variants)
	if err != nil {
		return nil, err
	}
	if vs != nil && attacks != nil {
		return nil, invalidf("run", "--attack and variants do not run together yet: attack one variant's config at a time")
	}
	runs := variantRuns(suite, vs)
	a.modelFor = variantModels(runs, vs)
	// The doubles and the gateway listen before anything starts, and
	// their URLs are in the environment target.server and the hooks see.
	if o.backendHost != "" {
		a.environ = append(a.environ, envBackendHost+"="+o.backendHost)
	}
	be, err := a.startBackend(withAttacks(allVariants(runs), attacks), o.gateway, o.dryRun)
	if err != nil {
		return nil, err // with its exit code
	}
	a.environ = append(a.environ, be.environ()...)
	defer be.stop() // when the run did not get to stop it
	// So does the OTLP receiver, its URL in ANANKE_OTLP_ENDPOINT.
	rcv, err := a.startReceiver(suite.Config, o.dryRun)
	if err != nil {
		return nil, err // with its exit code
	}
	a.environ = append(a.environ, rcv.environ()...)
	defer rcv.stop() // when the run did not get to stop it
	tracestate, err := a.traceState(suite.Config)
	if err != nil {
		return nil, err
	}
	out, err := a.exportTarget(suite.Config, rcv)
	if err != nil {
		return nil, err
	}

	if diags := spec.CheckEnv(suite, a.lookupEnv); len(diags) > 0 {
		for _, d := range diags {
			fmt.Fprintln(a.Err, d)
		}
		if !o.dryRun {
			return nil, invalidf("", "%s found; nothing was run", plural.Count(len(diags), "problem"))
		}
		a.warn("", fmt.Errorf("%s found; a real run would stop here", plural.Count(len(diags), "problem")))
	}
	policy := func(t *spec.Test) stability.Policy {
		return stability.Resolve(t.Stability, o.stability(), suite.Config.Stability)
	}
	if o.dryRun {
		err := dryrun.Write(a.Out, suite, dryrun.Options{Policy: policy, Parallel: o.parallel, Selected: sel.describe, Of: sel.of,
			Previous: o.previous, Attacks: attacks})
		if err != nil {
			return nil, errorf("", "write the plan: %v", err)
		}
		return nil, nil
	}
	if loaded != nil {
		loaded(suite)
	}
	lm, err := a.newModel(suite.Config, o.noCache)
	if err != nil {
		return nil, withCode(ExitInvalid, "", err)
	}
	if lm.client != nil {
		defer lm.client.CloseIdleConnections()
	}
	tape, recorded, err := a.tape(o, withAttacks(allVariants(runs), attacks))
	if err != nil {
		return nil, withCode(ExitInvalid, "", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if a.onSignal != nil {
		defer a.onSignal(cancel)()
	}
	copts := console.Options{Color: a.colored(o.color), Verbose: o.verbose, Progress: a.OutIsTerminal, Total: len(suite.Tests), Confidence: suite.Config.ConfidenceLevel(),
		Transcript: o.message != ""}
	var serverLog io.Writer // target.server's output, shown with -v
	if o.verbose {
		serverLog = newServerLog(a.Err, suite, a.lookupEnv)
		if be != nil {
			fmt.Fprintln(a.Err, be.describe())
		}
		if rcv != nil {
			fmt.Fprintln(a.Err, rcv.describe())
		}
	}
	live := console.NewLive(a.Out, copts)
	// Raw events go to a private spool as they arrive and into the report
	// directory, masked, when it is written; the spool goes after.
	spool, err := os.MkdirTemp("", "ananke-spool-")
	if err != nil {
		spool = "" // kept in memory instead
	} else {
		defer os.RemoveAll(spool)
	}
	prices := cost.NewTable(suite.Config.Pricing)
	snaps := a.snapshotStore(o)
	declareSnapshots(snaps, suite.Config, every, suite.Tests)
	root, _ := a.getwd()
	// One engine run per variant, one after the other (their agents may
	// share a port); without variants, the one run of the suite.
	var parts []*report.Report
	var results *engine.Outcome
	for _, run := range runs {
		if run.name != "" {
			fmt.Fprintln(a.Out, variantHeader(run, vs))
		}
		results = engine.Run(ctx, engine.Options{
			Suite: run.suite, Parallel: o.parallel, TestTimeout: o.timeout.Duration, Env: a.environ, LookupEnv: a.lookupEnv,
			Now: a.now, Observer: live, ServerLog: serverLog, Stability: o.stability(), FailFast: o.failFast,
			Model: lm.completer(), Prompts: lm.prompts, SpoolDir: spool, Tape: tape, Import: source.Load,
			Protocols: registry.Lookup, Prices: prices, Backend: be.boardOrNil(), Spans: rcv.storeOrNil(), TraceState: tracestate,
			Followup: followup(attacks), FollowupObserver: attackObserver{plan: attacks, live: live}, Snapshots: snapshotsFor(snaps, run.name),
			JudgeGate: a.judgeGate(run.suite.Config),
		})
		meta := report.Meta{Version: Version(), Config: run.suite.Config, Parallel: o.parallel, Root: root, Shard: sel.shard, FailOnFlaky: o.failOnFlaky, FailOnInconclusive: o.failOnInconclusive,
			Secrets: slices.Concat(lm.secrets, be.secretsOrNil(), out.secretsOrNil()), Prices: prices}
		parts = append(parts, report.Build(results, meta))
	}
	// Stopped before the reports: the gateway's recordings are saved,
	// and a late request is an orphan the report shows.
	stopErr := errors.Join(be.stop(), rcv.stop())
	live.Close()
	snapCounts, snapErr := flushSnapshots(snaps) // even when the run failed or was cancelled
	r, err := a.compared(parts, runs, vs)
	if err != nil {
		return nil, errors.Join(err, snapErr)
	}
	r.Snapshots = snapCounts
	r.Warnings = append(r.Warnings, rcv.warnings(r)...)
	if attacks != nil {
		r.SetAttacks(attacks.Report(results.Followup), followupSecrets(results)...)
	}
	o.history.apply(a, r)
	err = a.finish(r, o.reportDir, copts)
	a.send(ctx, out, r, suite.Config)
	if rerr := recorded(r); rerr != nil {
		err = errors.Join(err, withCode(ExitError, "", rerr))
	}
	if stopErr != nil {
		err = errors.Join(err, withCode(ExitError, "", stopErr))
	}
	return r, errors.Join(err, snapErr)
}

// finish prints the report's failure trees and summary and writes the
// report directory. Its error carries the run's verdict and a report
// directory that could not be written (an output lost: a pass becomes
// exit 2).
func (a *app) finish(r *report.Report, reportDir string, copts console.Options) error {
	if err := console.Write(a.Out, r, copts); err != nil {
		a.warn("", fmt.Errorf("write console output: %w", err))
	}
	if err := reportdir.Write(reportDir, r); err != nil {
		return errors.Join(verdict(r), withCode(ExitError, "", err))
	}
	fmt.Fprintf(a.Out, "Report: %s · %s (ananke show %s)\n", filepath.Join(reportDir, reportdir.SummaryFile),
		filepath.Join(reportDir, reportdir.HTMLFile), reportDir)
	return verdict(r)
}

// verdict is the run's status as the process ends with it: nil for a
// pass, exit 1 for a failure, exit 2 for an error. It says nothing: the
// console output said it.
func verdict(r *report.Report) error {
	switch r.Status {
	case status.Fail:
		return exitWith(ExitFail)
	case status.Error:
		return exitWith(ExitError)
	}
	return nil
}
