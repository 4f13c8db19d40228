package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/ananke/action/reporters/diff"
	"github.com/ananke/action/reporters/markdown"
	"github.com/ananke/action/reporters/reportdir"
)

// runDiff is `ananke diff`: what changed between two report directories —
// new failures, regressed pass rates, fixed tests, flaky ones, added and
// removed tests, notable duration changes — read from their summary.json
// files.
//
// It exits 0 once the change is printed, whatever changed: the runs were
// judged when they ran. With --fail-on-new it exits 1 when a test newly
// fails, so a job can gate on regressions alone; with
// --fail-on-regression, when a test run more than once regressed
// significantly (regressiongate.go); with --fail-on-cost-increase PCT,
// when a test's cost per attempt rose more than PCT percent
// (costgate.go). A test quarantined in HEAD_DIR fails none of these
// gates: each lists it instead (spared.go). Directories that cannot be
// read exit 3, as invalid input does.
func runDiff(_ context.Context, a *app, args []string) error {
	fs := a.flags("diff", "BASE_DIR HEAD_DIR")
	format := fs.String("format", "text", "print as `text` or markdown")
	label := fs.String("base-label", "", "describe the base as `label`, e.g. \"main (run 41)\" (markdown with --format markdown; default: BASE_DIR)")
	linkBase := fs.String("link-base", "", "with --format markdown, link tests to their lines at `URL` + file + \"#L\" + line")
	failOnNew := fs.Bool("fail-on-new", false, "exit 1 when a test fails in HEAD_DIR that passed, was skipped or did not exist in BASE_DIR")
	failOnRegression := fs.Bool("fail-on-regression", false, "exit 1 when a test run more than once passes significantly less often than in BASE_DIR, or one of its assertions fails significantly more often")
	var significance significanceFlag
	fs.Var(&significance, "significance", "judge lower pass rates at significance level `ALPHA`, between 0 and 1: a p-value at most ALPHA is a regression, above it within noise")
	var costLimit increaseFlag
	fs.Var(&costLimit, "fail-on-cost-increase", "exit 1 when a test's cost (or tokens, unpriced) per attempt rose more than `PCT` percent")
	if err := a.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return invalidf("diff", "name two report directories: BASE_DIR HEAD_DIR")
	}
	if *format != "text" && *format != "markdown" {
		return invalidf("diff", "--format %q: want text or markdown", *format)
	}
	base, err := reportdir.ReadSummary(fs.Arg(0))
	if err != nil {
		return invalidf("diff", "base: %w", err)
	}
	head, err := reportdir.ReadSummary(fs.Arg(1))
	if err != nil {
		return invalidf("diff", "head: %w", err)
	}
	c := diff.CompareAt(base, head, significance.level())
	if err := writeDiff(a.Out, c, *format, *label, *linkBase, fs.Arg(0), costLimit.limit()); err != nil {
		return withCode(ExitError, "diff", err)
	}
	sp := sparedBy(a.Out, head)
	gate := errors.Join(regressionGate("diff", c, *failOnRegression, sp), costGate("diff", c, costLimit.limit(), sp))
	if *failOnNew && newFailures(c, sp) > 0 {
		return errors.Join(exitWith(ExitFail), gate)
	}
	return gate
}

// newFailures counts the new failures that fail --fail-on-new: those of
// tests not quarantined in the head report, which sp lists instead.
func newFailures(c *diff.Change, sp *spared) int {
	n := 0
	for _, e := range c.NewFailures {
		if !sp.spares("fail-on-new", e.ID, e.Name, e.Transition()) {
			n++
		}
	}
	return n
}

// writeDiff prints the change in format; the base is named by label, or
// by its directory. costLimit marks the cost changes over it.
func writeDiff(w io.Writer, c *diff.Change, format, label, linkBase, baseDir string, costLimit *float64) error {
	if format == "text" {
		if label == "" {
			label = baseDir
		}
		return diff.WriteText(w, c, diff.TextOptions{Base: label, CostGate: costLimit})
	}
	if label == "" {
		label = markdown.Code(baseDir, false)
	}
	if _, err := io.WriteString(w, diff.Markdown(c, diff.MarkdownOptions{Base: label, LinkBase: linkBase, CostGate: costLimit})); err != nil {
		return fmt.Errorf("write change: %w", err)
	}
	return nil
}
