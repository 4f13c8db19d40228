package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ananke/action/internal/calibrate"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/labels"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/rejudge"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/tracefile"
	"github.com/ananke/action/reporters/reportdir"
)

// What judge calibrate, rejudge and run's gate read and write: the
// config alone, the current judge, labels and calibration files, and a
// report directory's traces.

// judgeGate is the engine's JudgeGate from the config's judges.gate and
// its calibration file; nil without judges.gate (judges gate as their
// severity says). A calibration file that is missing or unreadable
// makes every critical judge a warning, with why: it never stops a run.
func (a *app) judgeGate(cfg *spec.Config) func(criteria []string, model, promptHash string) string {
	if cfg.Judges == nil || cfg.Judges.Gate == nil {
		return nil
	}
	g := gateOf(cfg.Judges.Gate)
	path := cfg.CalibrationFile()
	f, err := readCalibration(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		g.Missing = path + " does not exist"
	case err != nil:
		g.Missing = fmt.Sprintf("%s: %v", path, err)
		a.warn("", fmt.Errorf("judges.calibration %s: %w; every critical judge is reported as a warning", path, err))
	default:
		g.File = f
	}
	return g.Reason
}

func gateOf(gc *spec.JudgeGate) *calibrate.Gate {
	return &calibrate.Gate{Thresholds: calibrate.Thresholds{MinKappa: gc.MinKappa, MinAccuracy: gc.MinAccuracy / 100, MinLabels: gc.MinLabels}}
}

// currentJudge is the config's judge: its model and judge prompt, with
// the model (its secrets; its idle connections to close).
func (a *app) currentJudge(scope string, cfg *spec.Config, noCache bool) (rejudge.Judge, *languageModel, error) {
	if cfg.Model == nil {
		return rejudge.Judge{}, nil, invalidf(scope, "%s has no model: section: judges are asked with the config's model (docs/models.md)", cfg.Path)
	}
	lm, err := a.newModel(cfg, noCache)
	if err != nil {
		return rejudge.Judge{}, nil, withCode(ExitInvalid, scope, err)
	}
	return rejudge.Judge{Model: lm.client, Prompt: lm.prompts.Judge}, lm, nil
}

// loadConfig loads the config alone (no test file is read), printing its
// problems as validate does.
func (a *app) loadConfig(scope, flagVal string) (*spec.Config, error) {
	path, _, err := a.findConfig(flagVal, nil)
	if err != nil {
		return nil, withCode(ExitInvalid, scope, err)
	}
	var diags diag.Diagnostics
	cfg := spec.LoadConfig(path, &diags)
	if len(diags) > 0 {
		for _, d := range diags.Sorted() {
			fmt.Fprintln(a.Out, d)
		}
		return nil, invalidf(scope, "%s found in %s", plural.Count(len(diags), "problem"), path)
	}
	return cfg, nil
}

func readLabels(name string) (*labels.File, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	l, err := labels.Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return l, nil
}

func readCalibration(path string) (*calibrate.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return calibrate.Read(f)
}

// writeCalibration writes the file under a temporary name and renames
// it, so that a run never reads half of it.
func writeCalibration(path string, f *calibrate.File) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return reportdir.WriteFile(path, func(w io.Writer) error { return calibrate.Write(w, f) })
}

// traceOpener reads the trace files of report directory dir; a name that
// leaves the directory is refused.
func traceOpener(dir string) func(name string) (*trace.Trace, error) {
	return func(name string) (*trace.Trace, error) {
		rel := filepath.FromSlash(name)
		if name == "" || !filepath.IsLocal(rel) {
			return nil, fmt.Errorf("trace file %q is not inside %s", name, dir)
		}
		f, err := os.Open(filepath.Join(dir, rel))
		if err != nil {
			return nil, err
		}
		defer f.Close()
		tr, err := tracefile.Read(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return tr, nil
	}
}
