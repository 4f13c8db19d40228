package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ananke/action/internal/bless"
	"github.com/ananke/action/internal/plural"
)

// blessOptions are the flags of `ananke bless`.
type blessOptions struct {
	from, out, config, skip string
	tests                   listFlag
	force, dryRun           bool
	yes, noInfer            bool
	// group, session and task pick a NanoClaw folder's session.
	group, session, task string
}

func runBless(ctx context.Context, a *app, args []string) error {
	var o blessOptions
	fs := a.flags("bless", "RECORDING|REPORT|TRANSCRIPT")
	fs.StringVar(&o.from, "from", "", "what the argument is: recording, report, transcript or nanoclaw (default: told by what it holds)")
	fs.Var(&o.tests, "test", "bless the test with this `id` (repeatable; default: every test)")
	fs.StringVar(&o.out, "out", "blessed", "write the test files into `dir`")
	alias(fs, "o", "out")
	fs.StringVar(&o.config, "config", "", "a recording's project config `file` (default: ananke.config.yaml beside its first test file or in a parent)")
	alias(fs, "c", "config")
	fs.BoolVar(&o.force, "force", false, "overwrite test files that exist")
	fs.BoolVar(&o.dryRun, "dry-run", false, "print the test files instead of writing them")
	fs.StringVar(&o.skip, "skip", "", "infer no check of these `kinds`, comma-separated: "+kindList())
	fs.BoolVar(&o.yes, "yes", false, "keep every inferred check without asking, on a terminal too")
	alias(fs, "y", "yes")
	fs.BoolVar(&o.noInfer, "no-infer", false, "infer nothing: the test files hold the turns alone")
	fs.StringVar(&o.group, "group", "", "nanoclaw: the `group` folder whose session to bless")
	fs.StringVar(&o.session, "session", "", "nanoclaw: the session `id` (default: the group's)")
	fs.StringVar(&o.task, "task", "", "nanoclaw: the scheduled task `id` whose run to bless")
	if err := a.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return invalidf("bless", "name one recording, report directory or transcript (e.g. ananke bless recordings/main)")
	}
	skip, err := bless.ParseKinds(o.skip)
	if err != nil {
		return invalidf("bless", "--skip: %v", err)
	}
	path := fs.Arg(0)
	from := bless.From(o.from)
	switch {
	case o.from == "":
		if from, err = bless.Detect(path); err != nil {
			return invalidf("bless", "%v", err)
		}
	case !slices.Contains(bless.Froms, from):
		return invalidf("bless", "--from %q: want recording, report, transcript or nanoclaw", o.from)
	}
	if (o.group != "" || o.session != "" || o.task != "") && from != bless.FromNanoClaw {
		return invalidf("bless", "--group, --session and --task pick a NanoClaw session; %s is a %s", path, from)
	}
	convs, failed, err := a.blessRead(ctx, o, path, from)
	if err != nil {
		return err
	}
	err = a.blessWrite(o, convs, skip)
	if from == bless.FromRecording && err == nil && !o.dryRun && len(convs) > 0 {
		fmt.Fprintf(a.Out, "Check them against the recording: ananke run%s --replay %s %s\n", configArg(o.config), path, o.out)
	}
	if len(failed) > 0 {
		err = errors.Join(err, withCode(ExitError, "bless", errors.Join(failed...)))
	}
	return err
}

func kindList() string {
	var s []string
	for _, k := range bless.Kinds() {
		s = append(s, string(k))
	}
	return strings.Join(s, ", ")
}

func configArg(config string) string {
	if config == "" {
		return ""
	}
	return " --config " + config
}

// blessRead reads the conversations path holds. failed are the tests
// that could not be read (a replay that errored), said at the end; err
// stops the command.
func (a *app) blessRead(ctx context.Context, o blessOptions, path string, from bless.From) (convs []*bless.Conversation, failed []error, err error) {
	switch from {
	case bless.FromRecording:
		return a.blessRecording(ctx, o, path)
	case bless.FromReport:
		convs, err = a.blessReport(o, path)
	case bless.FromTranscript:
		convs, err = bless.Transcripts(ctx, path)
	case bless.FromNanoClaw:
		var c *bless.Conversation
		if c, err = bless.NanoClaw(ctx, path, o.group, o.session, o.task); err == nil {
			convs = []*bless.Conversation{c}
		}
	}
	if err != nil {
		return nil, nil, invalidf("bless", "%v", err)
	}
	if from == bless.FromTranscript || from == bless.FromNanoClaw {
		if len(o.tests) > 0 {
			return nil, nil, invalidf("bless", "--test picks tests of a recording or a report; %s is a %s", path, from)
		}
	}
	return convs, nil, nil
}

// blessed is one test file to write.
type blessed struct {
	conv   *bless.Conversation
	path   string
	checks []bless.Check
	// inferred counts the checks inferred, before any was dropped.
	inferred int
}

// blessWrite infers each conversation's checks, lets the person choose
// on a terminal, and writes (or prints) the test files.
func (a *app) blessWrite(o blessOptions, convs []*bless.Conversation, skip []bless.Kind) error {
	var files []*blessed
	taken := map[string]bool{}
	for _, c := range convs {
		f := &blessed{conv: c, path: filepath.Join(o.out, c.OutName())}
		for n := 2; taken[f.path]; n++ {
			f.path = filepath.Join(o.out, strings.TrimSuffix(c.OutName(), ".ananke.yaml")+fmt.Sprintf("-%d.ananke.yaml", n))
		}
		taken[f.path] = true
		if !o.noInfer {
			all := bless.Infer(c)
			f.inferred = len(all)
			f.checks = bless.Keep(all, skip)
		}
		files = append(files, f)
	}
	if !o.force && !o.dryRun {
		var exist []string
		for _, f := range files {
			if _, err := os.Stat(f.path); err == nil {
				exist = append(exist, f.path)
			}
		}
		if len(exist) > 0 {
			verb := "exists"
			if len(exist) > 1 {
				verb = "exist"
			}
			return invalidf("bless", "%s already %s; nothing was written (--force overwrites, -o DIR writes elsewhere)", strings.Join(exist, ", "), verb)
		}
	}
	if a.InIsTerminal && a.OutIsTerminal && !o.yes && !o.noInfer {
		r := bless.NewReviewer(a.In, a.Out)
		for _, f := range files {
			f.checks = r.Review(f.path, f.checks)
		}
	}
	var errs []error
	for _, f := range files {
		b, err := bless.Render(f.conv, f.checks, f.path)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", f.conv.Label(), err))
			continue
		}
		if o.dryRun {
			fmt.Fprintf(a.Out, "==> %s <==\n%s\n", f.path, b)
			continue
		}
		if err := writeFileAll(f.path, b); err != nil {
			errs = append(errs, err)
			continue
		}
		fmt.Fprintf(a.Out, "Wrote %s: %s (%d inferred)\n", f.path, plural.Count(len(f.checks), "check"), f.inferred)
	}
	if len(errs) > 0 {
		return withCode(ExitError, "bless", errors.Join(errs...))
	}
	return nil
}

// writeFileAll writes b to path, making its directory.
func writeFileAll(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
