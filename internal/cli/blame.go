package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/sethvargo/go-githubactions"

	"github.com/ananke/action/internal/github"
	"github.com/ananke/action/internal/history"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/textsafe"
)

// baseHistory is the base branch's history a run's report is read against
// (docs/history.md#blame-in-the-pull-request): each failing test's verdict
// (history.Attach), then the quarantine advice it supports
// (history.Advise), before the report is printed and written.
type baseHistory struct {
	h    *history.History
	base string // the base branch's name, as the verdicts say it
	// alpha is the significance at which a known-flaky test that fails
	// more often here counts as new.
	alpha float64
	// gather, when set, is h being gathered from the artifacts of the
	// base branch's runs beside the tests (actionhistory.go): apply waits
	// for it.
	gather *historyGather
}

// apply reads r against the history; nothing for a nil b, or a history
// gathered empty.
func (b *baseHistory) apply(a *app, r *report.Report) {
	if b == nil {
		return
	}
	if b.gather != nil {
		b.h = b.gather.wait(func(s string) { fmt.Fprintln(a.Out, s) })
	}
	if b.h == nil || len(b.h.Runs) == 0 {
		return
	}
	history.Attach(r, b.h, b.base, b.alpha)
	if _, err := history.Advise(r, b.h, b.base, history.DefaultThresholds); err != nil {
		a.warn("", fmt.Errorf("quarantine advice from the history: %w", err))
	}
}

// stop ends gathering the history, if it still runs, and waits for it.
func (b *baseHistory) stop() {
	if b != nil {
		b.gather.stop()
	}
}

// actionHistory reads the history-file input for the report to be read
// against (readBaseHistory). Without it, the history is gathered from the
// artifacts of the base branch's runs (history: auto; actionhistory.go);
// nil when there is none to read. A history that cannot be read, or holds
// no run, is a warning: the run goes on without one, and fail-on new then
// counts every failure.
func (a *app) actionHistory(ctx context.Context, gha *githubactions.Action, in actionInputs) *baseHistory {
	if in.historyFile == "" {
		return a.gatherHistory(ctx, gha, in)
	}
	b, err := a.readBaseHistory(in.historyFile, in.significance.level())
	if err != nil {
		gha.Warningf("input history-file: %v", err)
	}
	return b
}

// readBaseHistory reads path — a history file, or a directory of
// downloaded reports, one a subdirectory — as the base branch's history,
// a known-flaky test counting as new at significance alpha, and says so
// in the log. A history that cannot be read, or holds no run, is an error
// saying the run goes on without one.
func (a *app) readBaseHistory(path string, alpha float64) (*baseHistory, error) {
	h, err := readHistory(path)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%w: the failures are not read against the base branch's history", err)
	case len(h.Runs) == 0:
		return nil, fmt.Errorf("%s holds no run: the failures are not read against the base branch's history", path)
	}
	b := &baseHistory{h: h, base: a.baseBranch(), alpha: alpha}
	fmt.Fprintf(a.Out, "History: %s of %s from %s\n", plural.Count(len(h.Runs), "run"), b.base, path)
	return b, nil
}

// baseBranch names the branch a history is of: a pull request's base
// (GITHUB_BASE_REF, or the event's), or else the branch that runs (a push
// to it, GITHUB_REF_NAME), or "the base branch".
func (a *app) baseBranch() string {
	if ref := a.getenv("GITHUB_BASE_REF"); ref != "" {
		return ref
	}
	if gctx, err := github.ContextFrom(a.getenv, nil); err == nil && gctx.BaseRef != "" {
		return gctx.BaseRef
	}
	if ref := a.getenv("GITHUB_REF_NAME"); ref != "" {
		return ref
	}
	return "the base branch"
}

// failOnNew is fail-on new over code, r's exit code: the step fails as
// with fail-on error, but a failure the base branch's history explains —
// a test known flaky there, or already failing there — fails nothing.
// Every failing test is listed on w with its verdict and whether it fails
// the step, never silently passed over; quarantined tests count for
// nothing, as always. Without a history every failure counts, and w is
// told so.
func failOnNew(w io.Writer, r *report.Report, code int) int {
	if r.History == nil {
		fmt.Fprintln(w, "fail-on new: no history of the base branch was read, so every failure counts, as with fail-on error")
		return code
	}
	var fresh, old []string
	for i := range r.Tests {
		t := &r.Tests[i]
		if !t.Status.Failed() || t.Quarantined != nil {
			continue
		}
		line := textsafe.Visible(t.Name, false) + ": " + verdictWords(r.History, t.History)
		if t.CountsAsNew() {
			fresh = append(fresh, "  fails the step: "+line)
		} else {
			old = append(old, "  not failing the step: "+line)
		}
	}
	if len(fresh)+len(old) > 0 {
		fmt.Fprintf(w, "fail-on new: %d of %s counted as new against the last %s on %s:\n",
			len(fresh), plural.Count(len(fresh)+len(old), "failing test"), plural.Count(r.History.Runs, "run"), r.History.Base)
		for _, l := range append(fresh, old...) {
			fmt.Fprintln(w, l)
		}
	}
	if code != statusCode(r.Status) {
		// Not the tests' verdict (invalid files, a report not written):
		// nothing the history explains.
		return code
	}
	return statusCode(r.StatusExcusing(func(t *report.Test) bool { return !t.CountsAsNew() }))
}

// verdictWords is a failing test's verdict for the log: its history's
// words, and for a known-flaky test that counts as new, why.
func verdictWords(h *report.History, th *report.TestHistory) string {
	if th == nil || th.Says == "" {
		return "new failure (no history of it)"
	}
	s := th.Says
	if th.Blame == string(history.KnownFlaky) && th.New && th.P != nil {
		s += "; fails more often here (p = " + strconv.FormatFloat(*th.P, 'g', 2, 64) + " at significance " + strconv.FormatFloat(h.Alpha, 'g', -1, 64) + "): counts as new"
	}
	return textsafe.Visible(s, false)
}

// statusCode is the exit code of a run's status.
func statusCode(st status.Status) int {
	switch st {
	case status.Fail:
		return ExitFail
	case status.Error:
		return ExitError
	}
	return ExitPass
}
