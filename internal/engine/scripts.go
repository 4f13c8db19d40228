package engine

import (
	"context"
	"path/filepath"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/scriptcheck"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/trace"
)

// scripts runs the script checks of a scope, each in the directory of the
// file that declares it, with the scope's transcript on stdin. Unlike
// judges they always run: a script is the user's own deterministic check.
func (e *engine) scripts(ctx context.Context, t *spec.Test, checks []assertion.Check, s trace.Scope, r *Attempt) {
	checks, gated := assertion.Gate(checks, s)
	r.Results = append(r.Results, gated...)
	if len(checks) == 0 {
		return
	}
	transcript := scriptcheck.Transcript(scriptcheck.TestInfo{ID: t.ID, Name: t.Name.Value}, s)
	for _, c := range checks {
		r.Results = append(r.Results, scriptcheck.Evaluate(ctx, c, scriptcheck.Input{
			Dir: filepath.Dir(c.Pos.File), Env: e.opts.Env, Transcript: transcript, Scope: s.Name,
		}))
	}
}
