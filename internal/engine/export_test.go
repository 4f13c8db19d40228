package engine

import (
	"context"

	"github.com/ananke/action/internal/spec"
)

// Schedule runs the suite's tests through the scheduler, making each
// attempt with attempt instead of playing it, so a test can choose what
// each attempt gives and in which order attempts finish.
func Schedule(opts Options, attempt func(ctx context.Context, t *spec.Test, run, retry int) *Attempt) []*TestResult {
	opts.Parallel = max(opts.Parallel, 1)
	s := newScheduler(&engine{opts: opts})
	s.attempt = attempt
	out := make([]*TestResult, len(opts.Suite.Tests))
	s.run(context.Background(), out)
	return out
}
