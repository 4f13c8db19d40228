// Package spec loads and validates Ananke's two file kinds, the project
// config (ananke.config.yaml) and test files (*.ananke.yaml), and datasets
// (*.ananke.jsonl): the file model, its loading and its diagnostics.
//
// Files are decoded through yaml.Node (internal/decode) so that every value
// keeps the file:line:col it came from. Loading never stops at the first
// problem: every problem in every file is collected into diag.Diagnostics
// and reported at once. Regular expressions are compiled and ${...}
// references parsed at load time (internal/vars); references are resolved
// later, against the variables of one test run, so positions stay exact.
//
// Assert blocks are read by the assertion kinds themselves
// (internal/assertion); spec says which blocks apply to each scope of a
// test (TurnChecks, TestChecks, CheckpointChecks).
package spec
