package engine

import (
	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/snapshot"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/trace"
)

// Snapshots compares snapshot assertions with the snapshots stored beside
// their test files (docs/snapshots.md): the run's snapshot.Store, which
// the CLI makes in the mode the run asks for and flushes once the run is
// over. The engine reads and writes no snapshot file itself.
type Snapshots interface {
	Check(c snapshot.Check) snapshot.Outcome
}

// snapshots compares the snapshot checks of a scope of test t's attempt
// r, each under the config's rules extended by its own. Without
// Options.Snapshots each is an error: never a pass.
func (e *engine) snapshots(t *spec.Test, checks []assertion.Check, s trace.Scope, r *Attempt) {
	checks, gated := assertion.Gate(checks, s)
	r.Results = append(r.Results, gated...)
	if e.opts.Snapshots == nil {
		r.Results = append(r.Results, assertion.Evaluate(checks, s)...)
		return
	}
	for _, c := range checks {
		rules := e.opts.Suite.Config.Snapshots.Extend(c.Snapshot().Rules)
		out := e.opts.Snapshots.Check(snapshot.Check{TestFile: t.Path, Key: snapshot.Key{Test: t.ID, Assertion: c.ID},
			Run: r.Run, Retry: r.Retry, Attack: t.Attack != nil, Rules: rules, Scope: s})
		res := assertion.New(c, s.Name)
		res.Status, res.Message, res.Observed = out.Status, out.Message, out.Observed
		res.Expected = assertion.ExpectSnapshot(rules)
		if out.Expected != "" {
			res.Expected += " (" + out.Expected + ")"
		}
		for _, d := range out.Diff {
			res.Evidence = append(res.Evidence, assertion.Evidence{Note: d})
		}
		res.Finish()
		r.Results = append(r.Results, res)
	}
}
