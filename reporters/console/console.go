// Package console prints a run for humans: a live line per test as it
// finishes, then a tree per failed or errored test — the turn, the user's
// message, each failing assertion at its file:line:col with expected and
// observed values and the calls involved — and a summary.
package console

import (
	"fmt"
	"io"

	"github.com/ananke/action/reporters/internal/format"

	"github.com/ananke/action/internal/engine"
)

// Options shape the output.
type Options struct {
	// Color enables ANSI colours; the CLI sets it only on a terminal and
	// never with NO_COLOR.
	Color bool
	// Verbose also lists every assertion of every test and the protocol
	// warnings.
	Verbose bool
}

// Live prints one line per test as it finishes. It reads only the test's
// name, status and duration, which hold no secrets.
type Live struct {
	w    io.Writer
	opts Options
}

var _ engine.Observer = (*Live)(nil)

// NewLive returns an observer printing to w.
func NewLive(w io.Writer, opts Options) *Live { return &Live{w: w, opts: opts} }

// TestFinished prints the test's line.
func (l *Live) TestFinished(r *engine.TestResult) {
	st := string(r.Status)
	line := fmt.Sprintf("%s %s (%s)", l.opts.paint(st, symbol(st)), clean(r.Test.Name.Value), format.Duration(r.End.Sub(r.Start).Milliseconds()))
	if r.Status == engine.Skipped {
		// The reason is the test file's own text, never the agent's.
		line += " skipped: " + clean(r.Reason)
	}
	fmt.Fprintln(l.w, line)
}

func symbol(status string) string {
	switch status {
	case "pass":
		return "✓"
	case "fail":
		return "✗"
	case "error":
		return "!"
	}
	return "-"
}

// ANSI colours per status.
var colors = map[string]string{"pass": "32", "fail": "31", "error": "33", "skipped": "2", "dim": "2", "bold": "1"}

func (o Options) paint(status, s string) string {
	if !o.Color {
		return s
	}
	return "\x1b[" + colors[status] + "m" + s + "\x1b[0m"
}
