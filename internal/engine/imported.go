package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// RuleSource is the rule of the warnings a test's source gives: what its
// reader noticed in the recorded run.
const RuleSource = "source"

// runImported evaluates a test with a source: its trace is read from the
// recorded run the source names, then checked as a test's trace is. No
// agent is contacted.
func (e *engine) runImported(ctx context.Context, t *spec.Test, run, retry int) *Attempt {
	r := &Attempt{Run: run, Retry: retry, Start: e.opts.Now(), Results: []assertion.Result{}, Warnings: []Warning{}, Trace: &trace.Trace{Turns: []trace.Turn{}}}
	defer func() { r.End = e.opts.Now() }()
	if e.opts.Import == nil {
		r.Status, r.Reason, r.ReasonPos = status.Error, "this run cannot read test sources", t.Source.Pos
		return r
	}
	tr, err := e.opts.Import(ctx, t.Source)
	if err != nil {
		r.Status, r.Reason, r.ReasonPos = status.Error, fmt.Sprintf("source: %v", err), t.Source.Pos
		return r
	}
	r.Trace = tr
	e.priceTrace(tr) // before any check: budgets see costs
	for _, n := range tr.Notices {
		// What the reader went past (a line it could not read) or must
		// say (a subagent's transcript read alone): never a verdict.
		r.Warnings = append(r.Warnings, Warning{Turn: n.Turn, Rule: RuleSource, Message: n.Message})
	}
	vs := e.newVars()
	checks, err := assertion.BindChecks(spec.TestChecks(e.opts.Suite.Config, t), vs)
	if err != nil {
		r.Status, r.Reason = status.Error, err.Error()
		var re *vars.ResolveError
		if errors.As(err, &re) {
			r.Reason, r.ReasonPos = re.Msg, re.Pos
		}
		return r
	}
	r.Secrets = vs.Secrets()
	det, judges := splitKind(checks, assertion.KindJudge)
	det, scripts := splitKind(det, assertion.KindScript)
	det, snaps := splitKind(det, assertion.KindSnapshot)
	scope := tr.TestScope()
	r.Results = append(r.Results, assertion.Evaluate(det, scope)...)
	e.snapshots(t, snaps, scope, r)
	e.scripts(ctx, t, scripts, scope, r)
	e.judgeUnlessFailed(ctx, judges, scope, r)
	r.Status = verdict(r.Results)
	if r.Status == status.Error {
		e.checkError(r)
	}
	return r
}
