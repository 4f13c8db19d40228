// Package markdown renders a run as GitHub-flavoured markdown: a heading
// with the verdict, a totals table, each failed before_all or after_all
// hook at its config line with its stderr (a failed hook errors a run
// whose tests passed), a table of tests (failed and errored first, then
// flaky ones; with their runs when some test ran more than once; a test
// from a dataset at its own line) and a <details> block per failed or
// errored test with each failing assertion, its YAML line, expected and
// observed values and its evidence, the checks that could not be made
// (!), the files the user's messages carried, the kinds of failure in its
// summary line, then its failing warnings (⚠).
// A flaky test that passed gets a closed block with its attempts and the
// assertions that failed in some of them; a test that passed with failing
// warnings gets a closed block listing them, as failures are listed.
// Warnings never change a verdict: the heading only counts the tests that
// have them. In a run whose agent reported usage, the totals and the table
// of tests have a Cost column (usage.go). A run with attack runs has an
// Attacks section under the totals, and a gate that failed or errored it
// leads the heading (attacks.go).
//
// The same text is the sticky PR comment, the check run's summary, the job
// summary and the file written by `ananke run --summary`, so it is rendered
// once, here, and each publisher only chooses Options: the size budget of
// its surface, a link base for file positions, a hidden marker.
//
// Everything the agent, a hook or a test file wrote is untrusted: it is
// escaped so that it cannot open links, images, tables or HTML, cannot
// close a code fence or a <details> block, and cannot mention anyone or
// reference an issue on GitHub (see escape.go).
package markdown
