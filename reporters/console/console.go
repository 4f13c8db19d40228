// Package console prints a run for humans: a live line per test as it
// finishes (with a progress line on a terminal), then a tree per failed,
// errored or flaky test, or one with failing warnings — the turn, the
// user's message, each failing assertion (✗) and failing warning (⚠) at
// its file:line:col with expected and observed values and the calls
// involved, the kinds of failure, the attempts of a test run several times
// — and a summary. With -v every test is printed as a tree of its turns.
// When the agent reported usage, the lines, trees and summary say what it
// used (usage.go). Attack runs get a line each as they finish and an
// Attacks section after the summary (attacks.go).
package console

import "github.com/ananke/action/internal/status"

// Options shape the output.
type Options struct {
	// Color enables ANSI colours; the CLI sets it only on a terminal and
	// never with NO_COLOR.
	Color bool
	// Verbose prints every test as a tree of its turns, tool calls and
	// assertions, with the protocol warnings.
	Verbose bool
	// Progress keeps a "[3/10 done, 5 running]" line at the bottom of the
	// live output. It rewrites the line with \r and an erase sequence, so
	// the CLI sets it only on a terminal; logs in CI stay a plain line per
	// test.
	Progress bool
	// Total is the number of tests in the run, for the progress line
	// (0: unknown, and the line shows no total).
	Total int
	// Transcript prints each test's conversation in full — messages,
	// attachments, tool calls, whole replies — above its tree (ananke run
	// -i).
	Transcript bool
	// Confidence is the level, in percent, of the pass rates' intervals on
	// the line per finished test (0: spec.DefaultConfidence); the report's
	// own intervals carry theirs.
	Confidence float64
}

// styles are the console's own colours, beside each status's
// (status.Status.Color): flaky shares the warning colour of errors, as it
// needs a look without failing by itself.
var styles = map[string]string{"flaky": "33", "dim": "2", "bold": "1"}

// paint colours s in style: one of styles, or a status's colour.
func (o Options) paint(style, s string) string {
	if !o.Color {
		return s
	}
	code, ok := styles[style]
	if !ok {
		code = status.Status(style).Color()
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

// mark is st's symbol in its colour.
func (o Options) mark(st status.Status) string { return o.paint(string(st), st.Symbol()) }
