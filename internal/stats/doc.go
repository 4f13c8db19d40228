// Package stats is the statistics behind verdicts over repeated runs
// (docs/statistics.md): a confidence interval for a pass rate (Wilson's
// score interval), pass^k, Wald's sequential probability ratio test for
// stopping runs once a verdict is settled and the adaptive-runs rule
// around it (Sequential: min and max runs, the stop reasons), and
// Fisher's exact test — one-sided for telling a regression from noise,
// two-sided for telling two variants apart — with the level it is judged
// at (Significant), and Cohen's kappa with its large-sample interval for
// how well a judge agrees with people (docs/judges.md). It is pure: no
// clock, no randomness, no I/O.
package stats
