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
	"github.com/ananke/action/internal/spec"
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
	fs.StringVar(&o.from, "from", "", "the `kind` of the argument: recording, report, transcript or nanoclaw (default: told by what it holds)")
	fs.Var(&o.tests, "test", "bless the test with this `id` (repeatable; default: every test)")
	fs.StringVar(&o.out, "out", "blessed", "write the test files into `dir`")
	alias(fs, "o", "out")
	fs.StringVar(&o.config, "config", "", "a recording's project config `file` (default: ananke.config.yaml beside its first test file or in a parent); for a report or transcript, the config whose snapshots: rules its snapshot is taken under (default: found from --out)")
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
	var (
		convs  []*bless.Conversation
		cfg    *spec.Config
		failed []error
	)
	if from == bless.FromRecording {
		convs, cfg, failed, err = a.blessRecording(ctx, o, path)
	} else {
		convs, err = a.blessRead(ctx, o, path, from)
	}
	if err != nil {
		return err
	}
	if len(convs) == 0 && len(failed) == 0 {
		return invalidf("bless", "%s holds no test to bless", path)
	}
	rules := a.blessSnapshotRules(o, cfg)
	for _, c := range convs {
		c.SnapshotRules = rules
	}
	err = a.blessWrite(o, convs, skip)
	if cfg != nil && err == nil && !o.dryRun && len(convs) > 0 {
		a.blessHint(cfg, path, o.out)
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

// blessHint says how to check the tests blessed from a recording against
// it: with its config (named when it would not be found from the output
// directory), the blessed directory named; and, when the directory lies
// where a run of the whole suite looks for tests, that such a run finds
// them beside the originals, with the same ids.
func (a *app) blessHint(cfg *spec.Config, rec, out string) {
	config := ""
	if found := spec.FindConfig(out); found == "" || !sameFile(found, cfg.Path) {
		config = " --config " + cfg.Path
	}
	fmt.Fprintf(a.Out, "Check them against the recording: ananke run%s --replay %s %s\n", config, rec, out)
	if len(cfg.Tests) == 0 && within(out, cfg.Dir) {
		fmt.Fprintf(a.Out, "Note: %s lies in the suite's directory and its tests keep the recorded tests' ids, so a run without paths finds both and stops on the duplicates: name the paths, or move the blessed files over the originals once reviewed.\n", out)
	}
}

// within reports whether path lies in dir.
func within(path, dir string) bool {
	p, err1 := filepath.Abs(path)
	d, err2 := filepath.Abs(dir)
	rel, err := filepath.Rel(d, p)
	return err1 == nil && err2 == nil && err == nil && filepath.IsLocal(rel)
}

func sameFile(a, b string) bool {
	x, err1 := os.Stat(a)
	y, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(x, y)
}

// blessRead reads the conversations of a report or transcripts.
func (a *app) blessRead(ctx context.Context, o blessOptions, path string, from bless.From) (convs []*bless.Conversation, err error) {
	switch from {
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
		return nil, invalidf("bless", "%v", err)
	}
	if from != bless.FromReport && len(o.tests) > 0 {
		return nil, invalidf("bless", "--test picks tests of a recording or a report; %s is a %s", path, from)
	}
	return convs, nil
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
		c.Out = f.path
		if !o.noInfer {
			all, notes := bless.Infer(c)
			for _, n := range notes {
				a.warn("bless", fmt.Errorf("note: %s: %s", c.Label(), n))
			}
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
			if snap, ok := f.snapshotFile(); ok {
				if _, err := os.Stat(snap); err == nil {
					exist = append(exist, snap)
				}
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
	snaps := newBlessSnapshots()
	for _, f := range files {
		out, err := bless.Render(f.conv, f.checks, f.path)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", f.conv.Label(), err))
			continue
		}
		if o.dryRun {
			fmt.Fprintf(a.Out, "==> %s <==\n%s\n", f.path, out.Data)
			a.printSnapshots(f.path, out)
			continue
		}
		if err := writeFileAll(f.path, out.Data); err != nil {
			errs = append(errs, err)
			continue
		}
		fmt.Fprintf(a.Out, "Wrote %s: %s (%d inferred)\n", f.path, plural.Count(len(f.checks), "check"), f.inferred)
		if err := snaps.put(f.path, out, o.force); err != nil {
			errs = append(errs, err)
		}
	}
	if !o.dryRun {
		if err := a.flushBlessSnapshots(snaps); err != nil {
			errs = append(errs, err)
		}
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
