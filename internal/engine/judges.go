package engine

import (
	"context"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/judge"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// judge evaluates judge checks over a scope with the run's model, adding
// their results and the usage they took. Without a model (the loader
// requires one, so only a caller that gave none) each is an error.
func (e *engine) judge(ctx context.Context, checks []assertion.Check, s trace.Scope, r *Attempt) {
	for _, c := range checks {
		if e.opts.Model == nil {
			res := assertion.New(c, s.Name)
			res.Status, res.Message = status.Error, "no language model is configured for judges"
			res.Finish()
			r.Results = append(r.Results, res)
			continue
		}
		demoted := ""
		if e.opts.JudgeGate != nil && c.Severity == assertion.Critical {
			if demoted = e.opts.JudgeGate(c.Judge().Criteria, judge.ModelName(e.opts.Model), judge.PromptHash(e.opts.Prompts.Judge)); demoted != "" {
				c.Severity = assertion.Warning
			}
		}
		res, usage := judge.Evaluate(ctx, e.opts.Model, e.opts.Prompts.Judge, c, s)
		if demoted != "" {
			res.Message += " (reported as a warning: " + demoted + ")"
			if res.Judge != nil {
				res.Judge.Demoted = demoted
			}
		}
		r.Usage.Add(usage)
		r.Results = append(r.Results, res)
	}
}

// judgeUnlessFailed runs the judges of a scope when nothing failed so far;
// otherwise it records them as not evaluated: a judge can only add a
// failure, so asking it would cost a model call and change nothing.
func (e *engine) judgeUnlessFailed(ctx context.Context, checks []assertion.Check, s trace.Scope, r *Attempt) {
	checks, gated := assertion.Gate(checks, s)
	r.Results = append(r.Results, gated...)
	if len(checks) == 0 {
		return
	}
	if assertion.Failed(r.Results) {
		r.Results = append(r.Results, assertion.Skipped(checks, s.Name, "not evaluated: a deterministic check failed, and a judge only adds failures")...)
		return
	}
	e.judge(ctx, checks, s, r)
}
