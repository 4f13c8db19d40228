// Package diff says what changed between two runs of a suite: the base (a
// run of the main branch, the previous run) and the head (this run). Tests
// are matched by id; Compare sorts each that changed into categories, and
// WriteText and Markdown render them for a terminal and for GitHub.
//
// The categories, for a test in both runs unless said otherwise (failing
// means failed or errored):
//
//   - NewFailures: failing in the head, passed or skipped in the base — or
//     not in the base at all: a new test that fails is a new failure (its
//     base status is empty, shown as "new", and it says "new test"), and it
//     is counted in Added as well.
//   - Fixed: failing in the base, passes in the head.
//   - StillFailing: failing in both; an entry notes a change between fail
//     and error, and failing assertions (or an errored test's reason) that
//     differ.
//   - NewlyFlaky: flaky in the head (some attempts passed, some did not),
//     not flaky in the base or not in it; NoLongerFlaky: flaky in the base,
//     in the head and not flaky there.
//   - NowSkipped: skipped in the head, not in the base; NoLongerSkipped:
//     skipped in the base, passes in the head (a skipped test that now
//     fails is a new failure).
//   - Added: in the head only; Removed: in the base only.
//   - Slower, Faster: a test that ran in both (skipped in neither) whose
//     duration changed by at least a second and by a factor of at least
//     1.5 either way; the biggest changes first.
//
// Rates (rate.go) compares the pass rates of the tests run more than once
// in either run, by a one-sided Fisher exact test at a significance level
// (CompareAt; DefaultSignificance for Compare):
//
//   - Regressed: the head passes significantly fewer of its runs, or one
//     of its assertions fails in a significantly larger share of its
//     attempts (those assertions are listed under it);
//   - WithinNoise: the head passes fewer, but not significantly.
//
// Tests run once in both runs are judged by their status alone. Their
// gate is --fail-on-regression.
//
// Cost (cost.go) compares the agent's usage per attempt of each test
// that ran in both: in USD when both runs priced it, else in tokens; a
// test whose usage one run does not know is listed as not compared,
// never as a change. Change.CostOver is the gate of
// --fail-on-cost-increase.
//
// Flakiness, pass rates, duration and cost are apart from status: a test
// that newly fails and is newly flaky (or regressed) is in both lists. Entries keep the head's order
// (removed tests the base's); durations are ordered by change.
package diff
