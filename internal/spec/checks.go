package spec

import (
	"strconv"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/diag"
)

// The assert blocks of a suite, by level: which apply to each scope of a
// test. How the levels merge is the assertion package's (TurnChecks).

// resolveExtends expands every assert block of the suite — the config's
// named blocks, the target's, each test's, turn's and checkpoint's — into
// its parts, and reports unknown names, cycles and clashes at their
// positions.
func resolveExtends(cfg *Config, tests []*Test, diags *diag.Diagnostics) {
	r := assertion.NewResolver(cfg.Assertions, diags)
	seen := map[*assertion.Block]bool{}
	for _, tg := range cfg.targets() {
		if !seen[tg.Assert] {
			seen[tg.Assert] = true
			r.Resolve(tg.Assert)
		}
	}
	for _, t := range tests {
		r.Resolve(t.Assert)
		for _, turn := range t.Turns {
			r.Resolve(turn.Assert)
		}
		for _, c := range t.Checkpoints {
			r.Resolve(c.Assert)
		}
	}
}

// TurnChecks returns what is checked right after turn i of test t
// (docs/files.md, "Where each assertion is checked"). A turn beyond the
// scripted ones (a simulated turn of a dynamic test) has no block of its
// own: the target's and the test's apply.
func TurnChecks(cfg *Config, t *Test, i int) []assertion.Check {
	lv := assertion.Levels{Target: cfg.Target.Assert, Test: t.Assert}
	if i < len(t.Turns) {
		lv.Turn = t.Turns[i].Assert
	}
	return assertion.TurnChecks(i, lv, missingError(cfg, t))
}

// TestChecks returns what is checked once all turns of test t are done.
// A test with a source asserts on a run of another runtime: the target's
// assertions, which are about the target, do not apply to it.
func TestChecks(cfg *Config, t *Test) []assertion.Check {
	lv := assertion.Levels{Target: cfg.Target.Assert, Test: t.Assert}
	if t.Source != nil {
		lv.Target = nil
	}
	return assertion.TestChecks(lv, missingError(cfg, t))
}

// CheckpointChecks returns what checkpoint c of test t checks over turn i,
// as if declared on that turn.
func CheckpointChecks(cfg *Config, t *Test, c *Checkpoint, i int) []assertion.Check {
	return assertion.CheckpointChecks("turn["+strconv.Itoa(i)+"].checkpoints."+c.ID.Value, c.Assert, missingError(cfg, t))
}

// missingError reports whether test t's policy for missing capabilities
// is an error.
func missingError(cfg *Config, t *Test) bool {
	if t.OnMissingCapability != "" {
		return t.OnMissingCapability == MissingError
	}
	return cfg.OnMissingCapability == MissingError
}
