// Package report is the one model every output reads: built once, after
// the run, from the engine's results, with every secret already masked.
// Reporters render it and never decide a verdict: statuses and totals are
// set here, from the engine's outcome, and nowhere else.
//
// The JSON form of Report is summary.json (schema "ananke.report/v1").
package report
