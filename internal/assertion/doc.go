// Package assertion evaluates merged assertion checks (Check) over a
// trace scope (one turn, or the whole test). Evaluation is pure: the same
// checks over the same scope give the same results, with a one-line message,
// the expected and observed values, and the evidence a human needs to act on
// a failure.
package assertion
