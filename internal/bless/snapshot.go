package bless

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/snapshot"
	"github.com/ananke/action/internal/trace"
)

// SnapshotAssertion is the id a run gives a test's own snapshot
// assertion (snapshot: true in the test's assert block): with the
// blessed test's id, the key of its entry in the snapshot file.
const SnapshotAssertion = "test.snapshot"

// inferSnapshot: the whole test's trajectory, taken as a run takes it
// under the suite's rules (Conversation.SnapshotRules), is stored as the
// test's snapshot. Attempts whose trajectories differ give none (Infer).
func inferSnapshot(c *Conversation, s trace.Scope, turn int) []Check {
	snap := snapshot.Take(s, c.SnapshotRules)
	kept := "trajectory"
	switch c.SnapshotRules.TextMode() {
	case snapshot.TextStructure:
		kept = "trajectory and the structure of its replies"
	case snapshot.TextExact:
		kept = "trajectory and its replies' words"
	}
	return []Check{{Kind: Snapshot, Turn: turn, Section: []string{"snapshot"}, Value: boolean(true), Snap: &snap,
		Why: fmt.Sprintf("the agent's %s %s — %s over %s — written to %s",
			kept, in(turn), plural.Count(snap.Calls(), "tool call"), plural.Count(len(snap.Turns), "turn"), c.snapshotFile())}}
}

// snapshotFile is how a comment names the blessed file's snapshot file:
// relative to the blessed file, as a run's messages do.
func (c *Conversation) snapshotFile() string {
	out := c.Out
	if out == "" {
		out = c.OutName()
	}
	return path.Join(snapshot.Dir, filepath.Base(snapshot.Path(out)))
}

// sameSnapshots drops the snapshot check of checks when the attempts'
// trajectories differ (a run compares each attempt with the one stored
// snapshot), and says why.
func sameSnapshots(c *Conversation, per [][]Check, checks []Check) ([]Check, []string) {
	at := -1
	for i, ch := range checks {
		if ch.Kind == Snapshot {
			at = i
		}
	}
	if at < 0 {
		return checks, nil
	}
	first := checks[at].Snap
	for k, attempt := range per[1:] {
		for _, ch := range attempt {
			if ch.Kind != Snapshot {
				continue
			}
			if diff := snapshot.Diff(*first, *ch.Snap, c.SnapshotRules.Tol()); len(diff) > 0 {
				more := ""
				if len(diff) > 1 {
					more = fmt.Sprintf(" (and %s more)", plural.Count(len(diff)-1, "difference"))
				}
				note := fmt.Sprintf("no snapshot inferred: attempt %d's trajectory differs from attempt 1's (%s%s), and a run compares every attempt with the one snapshot",
					k+2, strings.TrimSpace(diff[0]), more)
				return slices.Delete(slices.Clone(checks), at, at+1), []string{note}
			}
		}
	}
	return checks, nil
}

// boolean is a boolean scalar.
func boolean(v bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: fmt.Sprint(v)}
}
