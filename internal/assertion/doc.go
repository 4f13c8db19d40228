// Package assertion holds Ananke's assertion kinds, one definition each
// (Defs, kinds.go): how a kind is written in an assert block and read, its
// payload's ${…} references and their binding, where its checks are made
// across the three levels, what it needs of a trace, what its failures are
// about, and how it is evaluated.
//
// The merged check plan lives here too: the blocks of the target, test and
// turn levels (with what they extend and include) become the flat list of
// Checks of one scope (TurnChecks, TestChecks), bound to a run's variables
// (BindChecks) and evaluated over a trace scope (Evaluate). Evaluation is
// pure: the same checks over the same scope give the same results, with a
// one-line message, the expected and observed values, and the evidence a
// human needs to act on a failure.
package assertion
