// Package spec loads and validates Ananke's two file kinds, the project
// config (ananke.config.yaml) and test files (*.ananke.yaml).
//
// Files are decoded through yaml.Node so that every value keeps the
// file:line:col it came from. Loading never stops at the first problem: every
// problem in every file is collected into Diagnostics and reported at once.
// Regular expressions are compiled and ${...} references parsed at load time;
// references are resolved later, against the variables of one test run (see
// Vars), so positions stay exact.
//
// The package also merges the assertion blocks of the three levels (target,
// test, turn) into the flat list of Checks evaluated for one scope.
package spec
