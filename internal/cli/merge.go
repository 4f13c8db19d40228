package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/console"
	"github.com/ananke/action/reporters/markdown"
	"github.com/ananke/action/reporters/reportdir"
)

// runMerge is `ananke merge`: the report directories of a suite's shards
// (or of separate runs) become one, as if one run had run every test.
func runMerge(_ context.Context, a *app, args []string) int {
	fs := a.flags("merge", "DIR...")
	out := fs.String("report-dir", "ananke-report", "write the merged report into `dir`")
	alias(fs, "o", "report-dir")
	summary := fs.String("summary", "", "also write a markdown summary to `file` (e.g. $GITHUB_STEP_SUMMARY)")
	verbose := fs.Bool("verbose", false, "print every test as a tree, not only failures")
	alias(fs, "v", "verbose")
	var color colorMode
	addColorFlag(fs, &color)
	if code, ok := a.parse(fs, args); !ok {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(a.Err, "ananke merge: name the report directories to merge")
		return ExitInvalid
	}
	r, code := a.merge(*out, fs.Args())
	if r == nil {
		return code
	}
	res := a.finish(r, *out, console.Options{Color: a.colored(color), Verbose: *verbose})
	if *summary != "" {
		md := markdown.Render(r, markdown.Options{Budget: summaryBudget, Artifact: "the report directory (" + *out + ")"})
		if err := os.WriteFile(*summary, []byte(md), 0o644); err != nil {
			fmt.Fprintf(a.Err, "ananke: write summary: %v\n", err)
			res.fail()
		}
	}
	return res.exit
}

// merge reads and merges the directories; out must not be one of them,
// since writing it would replace files still to be read. It prints what
// went wrong and returns nil with exit 3.
func (a *app) merge(out string, dirs []string) (*report.Report, int) {
	var parts []*report.Report
	for _, d := range dirs {
		if sameDir(d, out) {
			fmt.Fprintf(a.Err, "ananke merge: --report-dir %s is also an input; write the merged report elsewhere\n", out)
			return nil, ExitInvalid
		}
		r, err := reportdir.Read(d)
		if err != nil {
			fmt.Fprintf(a.Err, "ananke merge: %v\n", err)
			return nil, ExitInvalid
		}
		parts = append(parts, r)
	}
	m, err := report.Merge(parts)
	if err != nil {
		fmt.Fprintf(a.Err, "ananke %v\n", err)
		return nil, ExitInvalid
	}
	fmt.Fprintf(a.Out, "Merged %s from %s into %s\n", plural(len(m.Tests), "test"), plural(len(dirs), "report"), filepath.Clean(out))
	return m, ExitPass
}
