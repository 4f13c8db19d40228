package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ananke/action/internal/generate"
	"github.com/ananke/action/reporters/console"
)

// maxExamples bounds the suite's files shown to the model as examples.
const maxExamples = 3

// runGenerate is `ananke generate "what to test"`: the config's model
// writes test files, the loader validates them, and only valid ones are
// written (or printed with --dry-run). Exit 0 when every file asked for
// was written, 2 when the model failed or some drafts stayed invalid, 3 on
// bad flags or files.
func runGenerate(ctx context.Context, a *app, args []string) error {
	fs := a.flags("generate", `"what to test"`)
	configFlag := fs.String("config", "", "project config `file` (default: ananke.config.yaml here or in a parent)")
	alias(fs, "c", "config")
	count := new(3)
	fs.Var((*numberFlag)(count), "count", "how many test files to ask for (`N`, 1 to 20)")
	out := fs.String("out", "", "write the files into `dir` (default: the config's directory)")
	dryRun := fs.Bool("dry-run", false, "print the files instead of writing them")
	noCache := fs.Bool("no-cache", false, "send every model request, ignoring model.cache")
	if err := a.parse(fs, args); err != nil {
		return err
	}
	what := strings.TrimSpace(strings.Join(fs.Args(), " "))
	switch {
	case what == "":
		return invalidf("generate", `say what to test, e.g. ananke generate "refunds of damaged items"`)
	case *count < 1 || *count > 20:
		return invalidf("generate", "--count must be from 1 to 20, got %d", *count)
	}
	suite, err := a.load(*configFlag, nil)
	if err != nil {
		return err
	}
	if suite.Config.Model == nil {
		return invalidf("generate", "%s has no model: section (docs/models.md)", suite.Config.Path)
	}
	lm, err := a.newModel(suite.Config, *noCache)
	if err != nil {
		return withCode(ExitInvalid, "generate", err)
	}
	defer lm.client.CloseIdleConnections()
	o := generate.Options{What: what, Count: *count, ConfigPath: suite.Config.Path, Prompt: lm.generatePrompt}
	for _, t := range suite.Tests[:min(len(suite.Tests), maxExamples)] {
		if b, err := os.ReadFile(t.Path); err == nil {
			o.Examples = append(o.Examples, string(b))
		}
	}
	res, err := generate.Generate(ctx, lm.client, o)
	reported := a.reportGenerated(res, *out, suite.Config.Dir, *dryRun, *count)
	if err != nil {
		return errors.Join(reported, withCode(ExitError, "generate", err))
	}
	return reported
}

// reportGenerated writes (or prints) the valid files and says what the
// model cost. Its error (exit 2) names each file it could not write and
// each rejected one with its problems, or only says that fewer files than
// asked for were written.
func (a *app) reportGenerated(res *generate.Result, out, configDir string, dryRun bool, asked int) error {
	if out == "" {
		out = configDir
	}
	var errs []error
	written := 0
	for _, d := range res.Valid {
		path := filepath.Join(out, d.File)
		switch {
		case dryRun:
			fmt.Fprintf(a.Out, "# %s\n%s\n", path, strings.TrimRight(d.YAML, "\n"))
			written++
		default:
			if err := writeNew(path, d.YAML); err != nil {
				errs = append(errs, err)
				continue
			}
			fmt.Fprintf(a.Out, "wrote %s\n", path)
			written++
		}
	}
	for _, r := range res.Rejected {
		var msg strings.Builder
		fmt.Fprintf(&msg, "%s is invalid and was not written:", r.File)
		for _, p := range r.Problems {
			fmt.Fprintf(&msg, "\n  %s", p)
		}
		errs = append(errs, errors.New(msg.String()))
	}
	u := res.Usage
	if m := console.ModelLine(u); m != "" {
		fmt.Fprintln(a.Out, m)
	}
	code := ExitPass
	if written < asked || len(res.Rejected) > 0 {
		code = ExitError
	}
	if code == ExitPass && len(errs) == 0 {
		return nil
	}
	return withCode(code, "generate", errors.Join(errs...))
}

// writeNew writes a new file, creating its directory; an existing file is
// never overwritten.
func writeNew(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if os.IsExist(err) {
			return fmt.Errorf("%s exists; not overwritten", path)
		}
		return fmt.Errorf("write %s: %w", path, err)
	}
	_, werr := f.WriteString(content)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fmt.Errorf("write %s: %w", path, werr)
	}
	return nil
}
