// Package status is the one outcome type of the project: a test's, an
// attempt's and an assertion's, as the engine, the assertions, the
// stability policy and every report name it, with the symbol and the colour
// the reports show it in (docs/reports.md).
package status

// Status is an outcome.
type Status string

// Outcomes. A test and an assertion share Pass, Fail and Error; Warn is an
// assertion's alone, and a skipped test and an unevaluated assertion keep
// the two spellings summary.json has always had (Skipped, Skip).
const (
	// Pass: every check held.
	Pass Status = "pass"
	// Fail: a check failed (for a test run several times, its pass rate
	// is below min_pass_rate).
	Fail Status = "fail"
	// Warn: a failing assertion of warning severity, reported everywhere;
	// it never fails the test.
	Warn Status = "warn"
	// Error: the outcome could not be judged: a hook, the transport or
	// Ananke failed, or a judge's model never answered.
	Error Status = "error"
	// Skipped: a test that did not run (skip:, a filter, --fail-fast).
	Skipped Status = "skipped"
	// Skip: an assertion that was not evaluated, e.g. because the test
	// stopped at an earlier turn.
	Skip Status = "skip"
)

// InconclusiveMark marks a verdict its runs did not settle: a test whose
// adaptive runs reached their maximum keeps its pass or fail, and reports
// print this beside it. Inconclusive is a flag on a status, not a status.
const InconclusiveMark = "?"

// Symbol is the mark the console and the markdown reports print for s.
func (s Status) Symbol() string {
	switch s {
	case Pass:
		return "✓"
	case Fail:
		return "✗"
	case Error:
		return "!"
	case Warn:
		return "⚠"
	}
	return "-"
}

// Color is s's ANSI colour code: green for a pass, red for a failure, the
// warning colour for what needs a look without failing by itself (an
// error, a warning), dim for what did not run.
func (s Status) Color() string {
	switch s {
	case Pass:
		return "32"
	case Fail:
		return "31"
	case Error, Warn:
		return "33"
	case Skipped, Skip:
		return "2"
	}
	return ""
}

// Failed reports whether s fails what holds it: a failure or an error.
func (s Status) Failed() bool { return s == Fail || s == Error }
