package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/sethvargo/go-githubactions"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/reporters/console"
	"github.com/ananke/action/reporters/reportdir"
)

// actionInputs are the inputs of action.yml (README.md, "Use in GitHub Actions").
type actionInputs struct {
	config, token, reportDir, checkName, artifactName string
	tests                                             []string
	comment                                           string // true | false | on-failure
	annotations, upload                               bool
	parallel                                          int
	failOn                                            string // error | fail | never | new
	// publish false leaves the check run, comment and job summary to a
	// later job (a shard whose merge job publishes).
	publish bool
	// merge lists report directories (globs) to merge instead of running.
	merge []string
	// compare is auto, off or a base report directory (compare.go).
	compare string
	// costLimit is fail-on-cost-increase: the step fails when a test's
	// cost per attempt rose more than this percentage over the compared
	// base report (costgate.go).
	costLimit increaseFlag
	// failOnRegression is fail-on-regression: the step fails when a test
	// run more than once regressed significantly, at significance, over
	// the compared base report (regressiongate.go).
	failOnRegression bool
	significance     significanceFlag
	// historyFile is a history file, or a directory of downloaded reports,
	// of the base branch, which the report is read against (blame.go).
	historyFile string
	// history is auto (true) or off: without a historyFile, the run is
	// read against the recent runs of its base branch from their
	// artifacts, at most historyRuns of them, downloading at most
	// historyMaxBytes (actionhistory.go).
	history         bool
	historyRuns     int
	historyMaxBytes int64
	// run holds the run flags the inputs set: runs, selection, shard.
	run runOptions
}

// runAction is `ananke action`: `ananke run` configured from the action's
// inputs, followed by the GitHub publishers. Publishing problems are
// reported and never change the verdict; the exit code follows fail-on.
func runAction(ctx context.Context, a *app, args []string) error {
	fs := a.flags("action", "")
	if err := a.parse(fs, args); err != nil {
		return err
	}
	gha := githubactions.New(githubactions.WithGetenv(a.getenv), githubactions.WithWriter(a.Out))
	in, err := readInputs(gha)
	if err != nil {
		// An input's problem is a GitHub error annotation (a workflow
		// command on stdout), shown where the workflow's author looks.
		gha.Errorf("%v", err)
		return exitWith(ExitInvalid)
	}
	// A history file is read now; one gathered from the artifacts of
	// the base branch's runs is gathered beside the tests, and read before
	// the report is written.
	hist := a.actionHistory(ctx, gha, in)
	defer hist.stop()
	var r *report.Report
	if len(in.merge) > 0 {
		r, err = a.actionMerge(in, hist)
	} else {
		o := in.run
		o.config, o.parallel, o.reportDir, o.history = in.config, in.parallel, in.reportDir, hist
		if o.paths, err = expandTests(in.tests); err != nil {
			gha.Errorf("%v", err)
			return exitWith(ExitInvalid)
		}
		if o.dryRun {
			o.previous = a.actionPrevious(ctx, gha, in)
		}
		// Mask what the run will read from the environment before anything
		// is printed; header values and the rest follow once the report is
		// built.
		r, err = a.pipeline(ctx, o, func(s *spec.Suite) {
			for _, v := range spec.EnvSecrets(s, a.lookupEnv) {
				gha.AddMask(v)
			}
		})
	}
	if r == nil {
		return err
	}
	for _, v := range r.MaskValues() {
		gha.AddMask(v)
	}
	p := &publisher{app: a, gha: gha, in: in, rep: r, hist: hist}
	p.publish(ctx)
	code := codeOf(err)
	if in.failOn == "new" {
		code = failOnNew(a.Out, r, code)
	}
	// The regression and cost gates fail the step apart from fail-on,
	// which judges the tests: their verdicts, the check run and the
	// outputs stay.
	return errors.Join(withCode(failOn(in.failOn, code), "", err), p.regressionGate(), p.costGate())
}

// actionMerge merges the report directories the merge input names (shard
// artifacts a job downloaded) into report-dir, read against hist.
func (a *app) actionMerge(in actionInputs, hist *baseHistory) (*report.Report, error) {
	dirs, err := expandDirs(in.merge)
	if err != nil {
		return nil, withCode(ExitInvalid, "", err)
	}
	r, err := a.merge(in.reportDir, dirs)
	if err != nil {
		return nil, err
	}
	hist.apply(a, r)
	return r, a.finish(r, in.reportDir, console.Options{Color: a.colored("")})
}

// failOn turns the run's exit code into the action's: "error" (default)
// fails the job on failed or errored tests, "fail" only on failed tests,
// "never" never; invalid files always fail it. "new" is "error" over the
// code failOnNew made, with the failures the history explains excused.
func failOn(mode string, exit int) int {
	switch {
	case exit == ExitInvalid:
		return exit
	case mode == "never":
		return ExitPass
	case mode == "fail" && exit == ExitError:
		return ExitPass
	}
	return exit
}

func readInputs(gha *githubactions.Action) (actionInputs, error) {
	in := actionInputs{
		config:       gha.GetInput("config"),
		token:        gha.GetInput("github-token"),
		reportDir:    orDefault(gha.GetInput("report-dir"), "ananke-report"),
		checkName:    orDefault(gha.GetInput("check-name"), "ananke"),
		artifactName: orDefault(gha.GetInput("artifact-name"), "ananke-report"),
		comment:      orDefault(gha.GetInput("comment"), "true"),
		failOn:       orDefault(gha.GetInput("fail-on"), "error"),
		parallel:     1,
	}
	in.tests = lines(gha.GetInput("tests"))
	var err error
	if in.annotations, err = boolInput(gha, "annotations", true); err != nil {
		return in, err
	}
	if in.upload, err = boolInput(gha, "upload-artifact", true); err != nil {
		return in, err
	}
	if s := gha.GetInput("parallel"); s != "" {
		if in.parallel, err = strconv.Atoi(s); err != nil || in.parallel < 1 {
			return in, fmt.Errorf("input parallel: want a number of at least 1, got %q", s)
		}
	}
	if !oneOf(in.comment, "true", "false", "on-failure") {
		return in, fmt.Errorf("input comment: want true, false or on-failure, got %q", in.comment)
	}
	if !oneOf(in.failOn, "error", "fail", "never", "new") {
		return in, fmt.Errorf("input fail-on: want error, fail, never or new, got %q", in.failOn)
	}
	in.historyFile = gha.GetInput("history-file")
	if in.publish, err = boolInput(gha, "publish", true); err != nil {
		return in, err
	}
	in.merge = lines(gha.GetInput("merge"))
	in.compare = readCompare(gha.GetInput("compare"))
	if s := gha.GetInput("fail-on-cost-increase"); s != "" {
		if err := in.costLimit.Set(s); err != nil {
			return in, fmt.Errorf("input fail-on-cost-increase: %v, got %q", err, s)
		}
	}
	if in.failOnRegression, err = boolInput(gha, "fail-on-regression", false); err != nil {
		return in, err
	}
	if s := gha.GetInput("significance"); s != "" {
		if err := in.significance.Set(s); err != nil {
			return in, fmt.Errorf("input significance: %v, got %q", err, s)
		}
	}
	if err := readHistoryInputs(gha, &in); err != nil {
		return in, err
	}
	return in, readRunInputs(gha, &in.run)
}

// readRunInputs reads the inputs that mirror `ananke run` flags.
func readRunInputs(gha *githubactions.Action, o *runOptions) error {
	o.retries = intFlag{lo: 0, hi: spec.MaxRetries}
	for name, f := range map[string]flag.Value{"runs": &o.runs, "retries": &o.retries, "min-pass-rate": &o.minPassRate, "shard": &o.shard} {
		if s := gha.GetInput(name); s != "" {
			if err := f.Set(s); err != nil {
				return fmt.Errorf("input %s: %v, got %q", name, err, s)
			}
		}
	}
	var err error
	for name, b := range map[string]*bool{"fail-on-flaky": &o.failOnFlaky, "fail-on-inconclusive": &o.failOnInconclusive, "fail-fast": &o.failFast, "dry-run": &o.dryRun} {
		if *b, err = boolInput(gha, name, false); err != nil {
			return err
		}
	}
	o.run = gha.GetInput("run")
	o.tags = lines(gha.GetInput("tags"))
	o.record, o.replay = gha.GetInput("record"), gha.GetInput("replay")
	o.endpoint = gha.GetInput("endpoint")
	o.gateway = gha.GetInput("gateway")
	o.backendHost = gha.GetInput("backend-host")
	if v := gha.GetInput("variants"); v != "" {
		if strings.TrimSpace(v) == "all" {
			o.variants = "all"
		} else {
			o.variant = lines(v)
		}
	}
	return readAttackInputs(gha, &o.attack)
}

// readAttackInputs reads the inputs of attack runs: attack,
// attack-sample and fail-on-attack-success (docs/attacks.md).
func readAttackInputs(gha *githubactions.Action, f *attackFlags) error {
	f.sample = intFlag{lo: 1, hi: math.MaxInt32}
	for name, v := range map[string]flag.Value{"attack": &f.on, "attack-sample": &f.sample, "fail-on-attack-success": &f.gate} {
		if s := gha.GetInput(name); s != "" {
			if err := v.Set(s); err != nil {
				return fmt.Errorf("input %s: %v, got %q", name, err, s)
			}
		}
	}
	return nil
}

// lines splits a multi-line input into its non-empty, trimmed lines.
func lines(s string) []string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, line)
		}
	}
	return out
}

func boolInput(gha *githubactions.Action, name string, def bool) (bool, error) {
	switch s := strings.ToLower(gha.GetInput(name)); s {
	case "":
		return def, nil
	case "true":
		return true, nil
	case "false":
		return false, nil
	default:
		return false, fmt.Errorf("input %s: want true or false, got %q", name, s)
	}
}

// expandTests turns the tests input's globs (relative to the workspace,
// with **) into test files.
func expandTests(globs []string) ([]string, error) {
	var paths []string
	for _, g := range globs {
		matches, err := doublestar.Glob(os.DirFS("."), filepath.ToSlash(g), doublestar.WithFilesOnly())
		if err != nil {
			return nil, fmt.Errorf("input tests: invalid glob %q: %w", g, err)
		}
		if len(matches) == 0 {
			return nil, fmt.Errorf("input tests: %q matches no files", g)
		}
		for _, m := range matches {
			paths = append(paths, filepath.FromSlash(m))
		}
	}
	return paths, nil
}

// expandDirs turns the merge input's globs (relative to the workspace,
// with **) into report directories: those holding a summary.json.
func expandDirs(globs []string) ([]string, error) {
	var dirs []string
	for _, g := range globs {
		matches, err := doublestar.Glob(os.DirFS("."), filepath.ToSlash(g))
		if err != nil {
			return nil, fmt.Errorf("input merge: invalid glob %q: %w", g, err)
		}
		n := len(dirs)
		for _, m := range matches {
			if _, err := os.Stat(filepath.Join(filepath.FromSlash(m), reportdir.SummaryFile)); err == nil {
				dirs = append(dirs, filepath.FromSlash(m))
			}
		}
		if len(dirs) == n {
			return nil, fmt.Errorf("input merge: %q matches no report directory (one holding %s)", g, reportdir.SummaryFile)
		}
	}
	return dirs, nil
}

func (a *app) getenv(name string) string {
	v, _ := a.lookupEnv(name)
	return v
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func oneOf(s string, options ...string) bool {
	for _, o := range options {
		if s == o {
			return true
		}
	}
	return false
}
