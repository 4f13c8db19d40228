// Package history is a test suite's record over the last runs of the base
// branch (docs/history.md): per run its identity, commit, time and the
// results of its tests; per test its pass/fail sequence, pass rate with
// its interval, flake rate, current failing streak and duration and cost
// trends (Facts); and, for a test that fails on a pull request, whether
// the base branch explains the failure (Blame). A history is built from
// report directories' summary.json files (ReadDir) or read from the
// compact history file, ananke.history/v1 (Parse), and a run is appended
// to it (Add) and the oldest dropped (Trim, Bound) so that one small file
// carries it from run to run. The package is pure but for the files it is
// asked to read and write: no clock, no environment.
package history
