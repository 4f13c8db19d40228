package cli

import (
	"strings"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/snapshot"
	"github.com/ananke/action/internal/spec"
)

// The run's snapshots (docs/snapshots.md): a snapshot.Store in the mode
// the command line and the environment ask for, given to the engine, and
// flushed once the run is over — whatever its outcome — before the
// report is printed and written.

// snapshotStore makes the run's store: -u updates; otherwise CI=true (or
// 1) is a CI run, which writes nothing and fails a missing snapshot.
func (a *app) snapshotStore(o runOptions) *snapshot.Store {
	switch {
	case o.updateSnapshots:
		return snapshot.NewStore(snapshot.Update)
	case a.inCI():
		return snapshot.NewStore(snapshot.CI)
	}
	return snapshot.NewStore(snapshot.Compare)
}

// inCI reports whether the environment says the run is a CI job, as CI
// services do: CI=true.
func (a *app) inCI() bool {
	v, _ := a.lookupEnv("CI")
	v = strings.ToLower(strings.TrimSpace(v))
	return v == "true" || v == "1"
}

// declareSnapshots tells the store which entries the suite's test files
// declare — each test's snapshot assertions — and whether the run
// selected every test of each file. every is the suite before selection,
// ran its tests after.
func declareSnapshots(st *snapshot.Store, cfg *spec.Config, every, ran []*spec.Test) {
	selected := map[*spec.Test]bool{}
	for _, t := range ran {
		selected[t] = true
	}
	keys := map[string][]snapshot.Key{}
	whole := map[string]bool{}
	var files []string
	for _, t := range every {
		if t.Path == "" {
			continue // a message sent with -i: no file
		}
		if _, seen := whole[t.Path]; !seen {
			files = append(files, t.Path)
			whole[t.Path] = true
		}
		whole[t.Path] = whole[t.Path] && selected[t]
		for _, id := range snapshotIDs(cfg, t) {
			keys[t.Path] = append(keys[t.Path], snapshot.Key{Test: t.ID, Assertion: id})
		}
	}
	for _, f := range files {
		st.Declare(f, keys[f], whole[f])
	}
}

// snapshotsFor is what the engine run of a variant compares snapshots
// with: the store, each test read under its own id, not its variant's.
// The assertions are the same under every variant, so is their snapshot
// (the first variant's, when -u writes one).
func snapshotsFor(st *snapshot.Store, variant string) engine.Snapshots {
	if variant == "" {
		return st
	}
	return variantSnapshots{store: st, suffix: report.VariantID("", variant)}
}

type variantSnapshots struct {
	store  *snapshot.Store
	suffix string
}

func (v variantSnapshots) Check(c snapshot.Check) snapshot.Outcome {
	c.Key.Test = strings.TrimSuffix(c.Key.Test, v.suffix)
	return v.store.Check(c)
}

// snapshotIDs are the ids of test t's snapshot assertions: its scripted
// turns' and the whole test's.
func snapshotIDs(cfg *spec.Config, t *spec.Test) []string {
	var ids []string
	add := func(cs []assertion.Check) {
		for _, c := range cs {
			if c.Kind == assertion.KindSnapshot {
				ids = append(ids, c.ID)
			}
		}
	}
	if t.Source == nil {
		for i := range t.Turns {
			add(spec.TurnChecks(cfg, t, i))
		}
	}
	add(spec.TestChecks(cfg, t))
	return ids
}

// flushSnapshots writes what the run changed and says what it did, for
// the report (nil when it did nothing). A file not written is an output
// lost: exit 2 unless the run failed.
func flushSnapshots(st *snapshot.Store) (*report.Snapshots, error) {
	n, err := st.Flush()
	if err != nil {
		err = withCode(ExitError, "", err)
	}
	if !n.Any() {
		return nil, err
	}
	return &report.Snapshots{Written: n.Written, Updated: n.Updated, Failed: n.Failed, Obsolete: n.Obsolete, Removed: n.Removed}, err
}
