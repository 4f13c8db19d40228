// Package html writes the report as one self-contained page, index.html:
// the run's totals and failed suite hooks, a list of tests with filters by
// status and tag and a search, and for each test its assertions (failed
// first, with expected, observed and evidence), its runs when it ran more
// than once, and every turn of its shown attempt as a timeline — user
// message, tool calls with their arguments and results, assistant text,
// state, run errors — above the turn's raw events. Evidence links jump to
// the events they rest on; the address (#test=<id>&event=<seq>) opens a
// test, and an event, directly. In a run whose agent reported usage, the
// header has the run's total, the list a cost column that sorts it, and a
// test its usage per run, per model and per turn (usage.go). A report
// read against the base branch's recent runs has, per test, a mini trend in
// the list and sparklines of its results, durations and cost in its view,
// drawn in inline SVG, and a failed test's head says the history's verdict
// (history.go). A call Ananke's tool doubles answered is marked as the
// double's (one the test gave no answer, as such), and a turn lists the
// requests its model gateway saw; the header shows the requests no test
// took (backend.go). A run that attacked its tests has their totals and
// the gate's verdict in the header and an attacks view (#attacks): the
// runs per test and channel site, and each run, its payload, where it was
// planted and its evidence, the canary marked (attacks.go). A run against
// several variants has the pair verdicts in the header and a comparison
// view (#variants): each variant's totals, usage, latency and error, and a
// matrix of tests × variants, sortable and filtered to the tests that
// differ, each cell linking to the test under its variant (variants.go).
// A judge assertion shows its verdict on each criterion, which a reviewer
// labels agree or disagree with a note; the labels are kept in the
// browser under the run and downloaded as an ananke.labels/v1 file
// (internal/labels) for `ananke judge calibrate`.
//
// The page loads nothing: its style, script and data are inline, and its
// Content-Security-Policy lets the browser fetch nothing else, so it works
// from file:// and from an unzipped artifact. The data is built here from
// the report and its traces (not the report dumped whole) and is
// deterministic: the same report gives the same bytes. Raw events are read
// through each trace's Mask, as the trace files are, so a secret masked in
// the report is masked in the page.
//
// Size is bounded by EventCap, TextCap and EventsCap; what a cap leaves
// out stays in the test's trace file, which the page names beside the cut.
package html
