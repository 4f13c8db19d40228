package spec

import (
	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
)

// The config's snapshots: section (docs/snapshots.md): the suite's rules
// for snapshot assertions — what is kept of the replies, the ignored
// argument paths, the replacements and the tolerance — which each
// snapshot assertion extends (snapshot.Rules.Extend).

// snapshots reads the config's snapshots: section into c.Snapshots.
func (l *loader) snapshots(f map[string]decode.Pair, c *Config) {
	if p, ok := f["snapshots"]; ok {
		c.Snapshots, _ = assertion.ReadSnapshotRules(l.Decoder, p.Val, "snapshots")
	}
}

func snapshotsSchema() decode.Obj {
	return assertion.SnapshotRulesSchema("The suite's rules for snapshot assertions, which each one extends: what is kept of the replies, argument paths ignored, replacements, the tolerance of numbers (docs/snapshots.md).")
}

// checkSnapshots reports snapshot assertions in checkpoints: a
// checkpoint's turn is known only once the run reaches it, so its
// snapshot would have no stable entry.
func checkSnapshots(tests []*Test, diags *diag.Diagnostics) {
	for _, t := range tests {
		for _, c := range t.Checkpoints {
			for _, it := range c.Assert.All(assertion.KindSnapshot) {
				diags.Add(it.Pos, "checkpoint %q: a snapshot cannot be taken in a checkpoint, whose turn is not known before the run; write snapshot: in the test's assert", c.ID.Value)
			}
		}
	}
}
