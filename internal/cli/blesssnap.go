package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/ananke/action/internal/bless"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/snapshot"
	"github.com/ananke/action/internal/spec"
)

// The snapshots of blessed tests (docs/bless.md, docs/snapshots.md): a
// blessed test that keeps its snapshot check gets its entry in its own
// snapshot file, __snapshots__/<name>.snap.yaml beside it, written by a
// snapshot.Store in Update mode — so that the test passes against the run
// it came from under CI=true too, where a missing snapshot fails.

// blessSnapshotRules are the rules a blessed test's snapshot is taken
// under, as a run of it will take it: the recording's suite config's
// snapshots: section; for a report or a transcript, that of --config, else
// of the config a run finds from the output directory (none: the
// defaults).
func (a *app) blessSnapshotRules(o blessOptions, cfg *spec.Config) snapshot.Rules {
	if cfg != nil {
		return cfg.Snapshots
	}
	path := o.config
	if path == "" {
		path = spec.FindConfig(o.out)
	}
	if path == "" {
		return snapshot.Rules{}
	}
	var diags diag.Diagnostics
	c := spec.LoadConfig(path, &diags)
	if len(diags) > 0 {
		a.warn("bless", fmt.Errorf("note: %s has problems (ananke validate lists them): snapshots are taken under the default rules", path))
		return snapshot.Rules{}
	}
	return c.Snapshots
}

// snapshotFile is where a blessed file's snapshot entries go, and whether
// it would write any (its snapshot check is kept).
func (f *blessed) snapshotFile() (string, bool) {
	for _, c := range f.checks {
		if c.Kind == bless.Snapshot {
			return snapshot.Path(f.path), true
		}
	}
	return snapshot.Path(f.path), false
}

// blessSnapshots writes the blessed files' snapshot entries (put in st)
// and says what it wrote. Under --force, a blessed file's old snapshot
// file goes with the file it was written for: replaced, or removed when
// the new test takes no snapshot.
type blessSnapshots struct {
	st *snapshot.Store
	// written says what each entry put is; removed are the old files
	// removed.
	written []string
	removed []string
}

func newBlessSnapshots() *blessSnapshots {
	return &blessSnapshots{st: snapshot.NewStore(snapshot.Update)}
}

// put stores out's entries for the test file written at path; force
// replaces what its snapshot file held.
func (b *blessSnapshots) put(path string, out *bless.Output, force bool) error {
	p := snapshot.Path(path)
	if force {
		switch err := os.Remove(p); {
		case err == nil:
			if len(out.Snapshots) == 0 {
				b.removed = append(b.removed, p)
			}
		case !errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("replace %s: %w", p, err)
		}
	}
	for k, s := range out.Snapshots {
		b.st.Put(path, k, s)
		b.written = append(b.written, fmt.Sprintf("%s: the snapshot of %s (%s)", p, k.Test, s.Summary()))
	}
	return nil
}

// flush writes the snapshot files and says so.
func (a *app) flushBlessSnapshots(b *blessSnapshots) error {
	if _, err := b.st.Flush(); err != nil {
		return err
	}
	for _, w := range b.written {
		fmt.Fprintf(a.Out, "Wrote %s\n", w)
	}
	for _, p := range b.removed {
		fmt.Fprintf(a.Out, "Removed %s: the blessed test takes no snapshot now\n", p)
	}
	return nil
}

// printSnapshots prints, for --dry-run, the snapshot file a blessed file
// would get.
func (a *app) printSnapshots(path string, out *bless.Output) {
	if len(out.Snapshots) == 0 {
		return
	}
	f := snapshot.File{Entries: out.Snapshots}
	fmt.Fprintf(a.Out, "==> %s <==\n%s\n", snapshot.Path(path), f.Marshal())
}
