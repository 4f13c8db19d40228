package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/console"
	"github.com/ananke/action/reporters/reportdir"
)

// runMerge is `ananke merge`: the report directories of a suite's shards
// (or of separate runs) become one, as if one run had run every test.
func runMerge(_ context.Context, a *app, args []string) error {
	fs := a.flags("merge", "DIR...")
	out := fs.String("report-dir", "ananke-report", "write the merged report into `dir`")
	alias(fs, "o", "report-dir")
	summary := fs.String("summary", "", "also write a markdown summary to `file` (e.g. $GITHUB_STEP_SUMMARY)")
	verbose := fs.Bool("verbose", false, "print every test as a tree, not only failures")
	alias(fs, "v", "verbose")
	var color colorMode
	addColorFlag(fs, &color)
	if err := a.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return invalidf("merge", "name the report directories to merge")
	}
	r, err := a.merge(*out, fs.Args())
	if err != nil {
		return err
	}
	err = a.finish(r, *out, console.Options{Color: a.colored(color), Verbose: *verbose})
	if *summary != "" {
		err = errors.Join(err, writeSummary(r, *summary, *out))
	}
	return err
}

// merge reads and merges the directories; out must not be one of them,
// since writing it would replace files still to be read. Its error exits
// 3.
func (a *app) merge(out string, dirs []string) (*report.Report, error) {
	var parts []*report.Report
	for _, d := range dirs {
		if sameDir(d, out) {
			return nil, invalidf("merge", "--report-dir %s is also an input; write the merged report elsewhere", out)
		}
		r, err := reportdir.Read(d)
		if err != nil {
			return nil, withCode(ExitInvalid, "merge", err)
		}
		parts = append(parts, r)
	}
	m, err := report.Merge(parts)
	if err != nil {
		return nil, withCode(ExitInvalid, "merge", err)
	}
	compareAgain(m, parts)
	fmt.Fprintf(a.Out, "Merged %s from %s into %s\n", plural.Count(len(m.Tests), "test"), plural.Count(len(dirs), "report"), filepath.Clean(out))
	return m, nil
}
