package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/sethvargo/go-githubactions"

	"github.com/ananke/action/internal/spec"
)

// actionInputs are the inputs of action.yml (design §8).
type actionInputs struct {
	config, token, reportDir, checkName, artifactName string
	tests                                             []string
	comment                                           string // true | false | on-failure
	annotations, upload                               bool
	parallel                                          int
	failOn                                            string // error | fail | never
}

// runAction is `ananke action`: `ananke run` configured from the action's
// inputs, followed by the GitHub publishers. Publishing problems are
// reported and never change the verdict; the exit code follows fail-on.
func runAction(ctx context.Context, a *app, args []string) int {
	fs := a.flags("action", "")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	gha := githubactions.New(githubactions.WithGetenv(a.getenv), githubactions.WithWriter(a.Out))
	in, err := readInputs(gha)
	if err != nil {
		gha.Errorf("%v", err)
		return ExitInvalid
	}
	o := runOptions{config: in.config, parallel: in.parallel, reportDir: in.reportDir}
	if o.paths, err = expandTests(in.tests); err != nil {
		gha.Errorf("%v", err)
		return ExitInvalid
	}
	// Mask what the run will read from the environment before anything is
	// printed; header values and the rest follow once the report is built.
	res := a.pipeline(ctx, o, func(s *spec.Suite) {
		for _, v := range envSecrets(s, a.lookupEnv) {
			gha.AddMask(v)
		}
	})
	if res.report == nil {
		return res.exit
	}
	for _, v := range res.report.MaskValues() {
		gha.AddMask(v)
	}
	p := &publisher{app: a, gha: gha, in: in, rep: res.report}
	p.publish(ctx)
	return failOn(in.failOn, res.exit)
}

// failOn turns the run's exit code into the action's: "error" (default)
// fails the job on failed or errored tests, "fail" only on failed tests,
// "never" never; invalid files always fail it.
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
	for _, line := range strings.Split(gha.GetInput("tests"), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			in.tests = append(in.tests, line)
		}
	}
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
	if !oneOf(in.failOn, "error", "fail", "never") {
		return in, fmt.Errorf("input fail-on: want error, fail or never, got %q", in.failOn)
	}
	return in, nil
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

// envSecrets returns the values of every ${ENV.*} the suite references.
func envSecrets(s *spec.Suite, lookup func(string) (string, bool)) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range spec.EnvRefs(s) {
		if v, ok := lookup(r); ok && v != "" && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
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
