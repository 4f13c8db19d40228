package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/ananke/action/internal/calibrate"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/reporters/console"
	"github.com/ananke/action/reporters/reportdir"
)

// `ananke judge calibrate`: the config's judge measured against human
// labels, and the calibration the gate reads (docs/judges.md).

// judgeCommands are the commands of `ananke judge` (shell completion and
// the help read them).
var judgeCommands []command

func init() { // not an initializer: the commands' help reads the table
	judgeCommands = []command{
		{"calibrate", "measure the config's judge against human labels over a report's traces, and write the calibration the gate reads", runJudgeCalibrate},
	}
}

func runJudge(ctx context.Context, a *app, args []string) error {
	return a.runSub(ctx, "judge", judgeCommands, judgeUsage, args)
}

func judgeUsage(w io.Writer) {
	fmt.Fprintln(w, "Usage: ananke judge calibrate [--report DIR] [--write FILE | --dry-run] LABELS...")
	fmt.Fprintln(w, "\nCommands:\n  calibrate measure the config's judge against human labels (docs/judges.md) and write the calibration the gate reads")
	fmt.Fprintln(w, "\nRun 'ananke judge calibrate -h' for its flags.")
}

func runJudgeCalibrate(ctx context.Context, a *app, args []string) error {
	const scope = "judge calibrate"
	fl := a.flags(scope, "LABELS...")
	config := fl.String("config", "", "project config `file` whose model judges and whose judges: section says where the calibration goes (default: ananke.config.yaml here or in a parent)")
	alias(fl, "c", "config")
	var reports listFlag
	fl.Var(&reports, "report", "the report `dir` the labels were made on (repeatable: each labels file is read on the report of its run; default ananke-report)")
	write := fl.String("write", "", "write the calibration into `file` (default: the config's judges.calibration, else "+spec.DefaultCalibrationFile+" beside the config)")
	dryRun := fl.Bool("dry-run", false, "measure and print, but write no calibration")
	noCache := fl.Bool("no-cache", false, "send every language-model request, ignoring model.cache")
	if err := a.parse(fl, args); err != nil {
		return err
	}
	if fl.NArg() == 0 {
		return invalidf(scope, "name the labels files (downloaded from a report's index.html: docs/judges.md)")
	}
	if *dryRun && *write != "" {
		return invalidf(scope, "--dry-run writes nothing: give --write or --dry-run, not both")
	}
	if len(reports) == 0 {
		reports = listFlag{"ananke-report"}
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
	in := calibrate.Input{Judge: j, Level: cfg.ConfidenceLevel() / 100}
	for _, name := range fl.Args() {
		f, err := readLabels(name)
		if err != nil {
			return withCode(ExitInvalid, scope, err)
		}
		in.Labels = append(in.Labels, calibrate.LabelsFile{Name: name, File: f})
	}
	for _, dir := range reports {
		r, err := reportdir.ReadSummary(dir)
		if err != nil {
			return withCode(ExitInvalid, scope, err)
		}
		in.Sources = append(in.Sources, calibrate.Source{Dir: dir, Report: r, OpenTrace: traceOpener(dir)})
	}
	res, err := calibrate.Run(ctx, in)
	if err != nil {
		return withCode(ExitInvalid, scope, err)
	}
	printCalibration(a.Out, res, fl.Args(), reports)
	fmt.Fprintln(a.Out, "\n"+console.ModelLine(res.Usage))
	if len(res.Criteria) == 0 {
		if res.Asked > 0 {
			return errorf(scope, "the judge gave no verdict on any labelled assertion; nothing was calibrated")
		}
		return invalidf(scope, "no label could be compared with the judge (above: why); nothing was calibrated")
	}
	path := *write
	if path == "" {
		path = cfg.CalibrationFile()
	}
	file := &calibrate.File{}
	if !*dryRun {
		if file, err = readCalibration(path); errors.Is(err, fs.ErrNotExist) {
			file = &calibrate.File{}
		} else if err != nil {
			return withCode(ExitInvalid, scope, fmt.Errorf("%s: %w; fix or remove it", path, err))
		}
	}
	file.Set(res.Model, res.PromptHash, res.Calibrations(a.now(), fl.Args(), in.Level)...)
	if *dryRun {
		fmt.Fprintf(a.Out, "\nNothing written (--dry-run).\n")
	} else {
		if err := writeCalibration(path, file); err != nil {
			return errorf(scope, "write the calibration: %v", err)
		}
		fmt.Fprintf(a.Out, "\nWrote %s: the calibration of %s for judge %s with prompt %s.\n", path, plural.Count(len(res.Criteria), "criterion"), res.Model, res.PromptHash)
	}
	printGates(a.Out, cfg, file, res)
	return nil
}

// printCalibration prints the agreement table, the disagreements, the
// labels not compared and the other judges the labels were made on.
func printCalibration(w io.Writer, res *calibrate.Result, files, reports []string) {
	fmt.Fprintf(w, "Judge %s with prompt %s against %s from %s, on %s:\n\n", res.Model, res.PromptHash,
		plural.Count(res.Overall.N, "label"), strings.Join(files, ", "), strings.Join(reports, ", "))
	width := len("all criteria")
	for _, c := range res.Criteria {
		width = max(width, len(c.Criterion))
	}
	fmt.Fprintf(w, "  %-*s  %6s  %-16s  %s\n", width, "criterion", "labels", "accuracy", "kappa")
	row := func(name string, ag calibrate.Agreement) {
		acc := calibrate.Percent(ag.Accuracy) + " [" + strings.TrimSuffix(calibrate.Percent(ag.AccuracyCI.Lo), "%") + "–" + calibrate.Percent(ag.AccuracyCI.Hi) + "]"
		kappa := "undefined (one answer to every label)"
		if ag.Kappa.Defined {
			kappa = fmt.Sprintf("%s [%s, %s]", calibrate.Number(ag.Kappa.Value), calibrate.Number(ag.KappaCI.Lo), calibrate.Number(ag.KappaCI.Hi))
		}
		fmt.Fprintf(w, "  %-*s  %6d  %-16s  %s\n", width, name, ag.N, acc, kappa)
	}
	var dis []string
	for _, c := range res.Criteria {
		row(c.Criterion, c.Agreement)
		for _, d := range c.Disagreements {
			l := d.Label
			line := fmt.Sprintf("  %q · %s · %s: the judge says %s, the label %s", c.Criterion, where(l.Test, l.Attempt), l.Assertion, d.Verdict, metWord(l.Met()))
			if l.Note != "" {
				line += fmt.Sprintf(" — note: %q", l.Note)
			}
			dis = append(dis, line)
		}
	}
	if len(res.Criteria) > 1 {
		row("all criteria", res.Overall)
	}
	if len(dis) > 0 {
		fmt.Fprintf(w, "\nDisagreements (%d):\n%s\n", len(dis), strings.Join(dis, "\n"))
	}
	if len(res.Skipped) > 0 {
		fmt.Fprintf(w, "\nNot compared (%d):\n", len(res.Skipped))
		for _, s := range res.Skipped {
			fmt.Fprintf(w, "  %s: %s · %s · %q: %s\n", s.File, where(s.Label.Test, s.Label.Attempt), s.Label.Assertion, s.Label.Criterion, s.Reason)
		}
	}
	if len(res.Others) > 0 {
		var parts []string
		for _, o := range res.Others {
			parts = append(parts, fmt.Sprintf("%s on judge %s with prompt %s", plural.Count(o.Labels, "label"), o.Model, o.PromptHash))
		}
		fmt.Fprintf(w, "\nLabels made on other judges' verdicts are compared all the same (a label says what the person found): %s.\n", strings.Join(parts, "; "))
	}
}

func where(test string, attempt int) string {
	if attempt > 0 {
		return fmt.Sprintf("%s (attempt %d)", test, attempt)
	}
	return test
}

func metWord(met bool) string {
	if met {
		return "met"
	}
	return "not met"
}

// printGates says, for each calibrated criterion, whether its judge now
// gates under the config's judges.gate.
func printGates(w io.Writer, cfg *spec.Config, file *calibrate.File, res *calibrate.Result) {
	if cfg.Judges == nil || cfg.Judges.Gate == nil {
		fmt.Fprintln(w, "No judges.gate in the config: critical judges fail the build whatever their calibration (docs/judges.md).")
		return
	}
	g := gateOf(cfg.Judges.Gate)
	g.File = file
	t := g.Thresholds
	what := "kappa ≥ " + calibrate.Number(t.MinKappa)
	if t.MinAccuracy > 0 {
		what += ", accuracy ≥ " + calibrate.Percent(t.MinAccuracy)
	}
	fmt.Fprintf(w, "Under judges.gate (%s, at least %s):\n", what, plural.Count(t.MinLabels, "label"))
	for _, c := range res.Criteria {
		if reason := g.Reason([]string{c.Criterion}, res.Model, res.PromptHash); reason != "" {
			fmt.Fprintf(w, "  ✗ %q: its judge's verdicts are warnings: %s\n", c.Criterion, reason)
		} else {
			fmt.Fprintf(w, "  ✓ %q: its judge gates\n", c.Criterion)
		}
	}
}
