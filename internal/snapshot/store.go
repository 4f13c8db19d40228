package snapshot

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sync"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// Mode is what a run does with snapshots (docs/snapshots.md).
type Mode int

const (
	// Compare compares each check with its stored snapshot; a missing one
	// is written and the check passes ("written").
	Compare Mode = iota
	// Update (ananke run -u) writes the missing snapshots and rewrites
	// those that changed; the checks pass ("updated"), and obsolete
	// entries are removed.
	Update
	// CI (CI=true, without -u) writes nothing: a missing snapshot fails,
	// saying to run `ananke run -u` locally and commit the file.
	CI
)

// Check is one snapshot assertion to compare: where its entry is, which
// attempt made it, the rules, and the scope it snapshots.
type Check struct {
	// TestFile is the file that declares the test (spec.Test.Path).
	TestFile string
	Key      Key
	// Run and Retry are the attempt's (the first attempt of a test is
	// the one an update writes).
	Run, Retry int
	// Attack: the attempt is an attack run's, a copy of the test with an
	// attack planted (spec.Test.Attack); it is not compared, and writes
	// nothing.
	Attack bool
	Rules  Rules
	Scope  trace.Scope
}

// Outcome is a check's result: its status (pass, fail, error or skip),
// its message, what is stored ("__snapshots__/x.snap.yaml: 1 turn, 2
// calls") and what was observed, and the differences, one line each
// (Diff).
type Outcome struct {
	Status             status.Status
	Message            string
	Expected, Observed string
	Diff               []string
}

// Counts are what a run did with snapshots: the entries written and
// updated, the assertions that failed, and the obsolete entries counted
// (Compare, CI) or removed (Update).
type Counts struct {
	Written, Updated, Failed, Obsolete, Removed int
}

// Any reports whether anything happened worth saying.
func (c Counts) Any() bool { return c != Counts{} }

// Store holds a run's snapshot files: read when a check first needs one,
// written by Flush. It is safe for concurrent use.
type Store struct {
	mode   Mode
	mu     sync.Mutex
	files  map[string]*snapFile
	failed map[string]map[Key]bool // by snapshot file
}

// NewStore makes the store of a run in mode.
func NewStore(mode Mode) *Store {
	return &Store{mode: mode, files: map[string]*snapFile{}, failed: map[string]map[Key]bool{}}
}

// Mode is the store's mode.
func (s *Store) Mode() Mode { return s.mode }

// snapFile is one snapshot file: what it holds, what the run would write
// into it, and what its test files declare.
type snapFile struct {
	loaded  bool
	err     error
	stored  map[Key]Snapshot
	pending map[Key]candidate
	// declared are the entries the test files of the run declare; whole
	// says every test of each of those files ran (Declare).
	declared  map[Key]bool
	declarers int
	whole     bool
}

// candidate is what an attempt would write into an entry.
type candidate struct {
	run, retry int
	// put: the entry was put (Put), and wins over any attempt.
	put  bool
	snap Snapshot
	// same: it equals the stored entry (under the check's rules).
	same bool
}

// before reports whether c is preferred to d: a put, else the lower
// attempt.
func (c candidate) before(d candidate) bool {
	if c.put != d.put {
		return c.put
	}
	if c.run != d.run {
		return c.run < d.run
	}
	return c.retry < d.retry
}

// display is how messages name a snapshot file: relative to its test file.
func display(p string) string { return path.Join(Dir, filepath.Base(p)) }

// entry returns the snapshot file at p, unread. Called with s.mu held.
func (s *Store) entry(p string) *snapFile {
	f := s.files[p]
	if f == nil {
		f = &snapFile{pending: map[Key]candidate{}, declared: map[Key]bool{}}
		s.files[p] = f
	}
	return f
}

// file returns the snapshot file at p, read on first use. Called with
// s.mu held.
func (s *Store) file(p string) *snapFile {
	f := s.entry(p)
	if !f.loaded {
		f.loaded = true
		f.stored = map[Key]Snapshot{}
		data, err := os.ReadFile(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			f.err = err
		default:
			sf, err := Read(data)
			if err != nil {
				f.err = fmt.Errorf("%s: %w", display(p), err)
				break
			}
			f.stored = sf.Entries
		}
	}
	return f
}

// offer records what an attempt would write into an entry; the preferred
// candidate (candidate.before) is kept.
func (f *snapFile) offer(k Key, c candidate) {
	if old, ok := f.pending[k]; !ok || c.before(old) {
		f.pending[k] = c
	}
}

func (s *Store) fail(p string, k Key) {
	if s.failed[p] == nil {
		s.failed[p] = map[Key]bool{}
	}
	s.failed[p][k] = true
}

// Check compares a scope with its stored snapshot, as the store's mode
// says.
func (s *Store) Check(c Check) Outcome {
	if c.Attack {
		return Outcome{Status: status.Skip, Message: "not compared: an attack run's trajectory is not its test's"}
	}
	got := Take(c.Scope, c.Rules)
	p := Path(c.TestFile)
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.file(p)
	if f.err != nil {
		return Outcome{Status: status.Error, Message: "cannot read the snapshot: " + f.err.Error()}
	}
	at := candidate{run: c.Run, retry: c.Retry, snap: got}
	want, ok := f.stored[c.Key]
	if !ok {
		if s.mode == CI {
			s.fail(p, c.Key)
			return Outcome{Status: status.Fail, Expected: display(p) + ": none stored", Observed: got.Summary(),
				Message: fmt.Sprintf("no snapshot is stored for this assertion in %s, and a CI run never writes one: run `ananke run -u` locally and commit %s",
					display(p), display(p))}
		}
		f.offer(c.Key, at)
		return Outcome{Status: status.Pass, Expected: display(p) + ": none stored", Observed: got.Summary(),
			Message: fmt.Sprintf("no snapshot was stored: written to %s (%s)", display(p), got.Summary())}
	}
	tol := c.Rules.Tol()
	diff := Diff(Normalize(want, c.Rules), got, tol)
	expected := display(p) + ": " + want.Summary()
	if len(diff) == 0 {
		at.same = true
		if s.mode == Update {
			f.offer(c.Key, at)
		}
		return Outcome{Status: status.Pass, Expected: expected, Observed: got.Summary(),
			Message: fmt.Sprintf("matches its snapshot in %s (%s)", display(p), got.Summary())}
	}
	observed := fmt.Sprintf("%s; %s", got.Summary(), plural.Count(len(diff), "difference"))
	if s.mode == Update {
		f.offer(c.Key, at)
		return Outcome{Status: status.Pass, Expected: expected, Observed: observed, Diff: diff,
			Message: fmt.Sprintf("differed from its snapshot: updated in %s (%s)", display(p), plural.Count(len(diff), "difference"))}
	}
	s.fail(p, c.Key)
	more := ""
	if len(diff) > 1 {
		more = fmt.Sprintf(" (and %s more)", plural.Count(len(diff)-1, "difference"))
	}
	return Outcome{Status: status.Fail, Expected: expected, Observed: observed, Diff: diff,
		Message: fmt.Sprintf("differs from its snapshot in %s: %s%s; if the change is right, accept it with `ananke run -u`", display(p), diff[0], more)}
}

// Put puts one entry, the snapshot of an assertion of a test of testFile,
// whatever the store's mode: Flush writes it over what the file holds
// and what any attempt of the run would write. ananke bless puts the
// snapshots of the tests it writes this way.
func (s *Store) Put(testFile string, k Key, snap Snapshot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.file(Path(testFile)).offer(k, candidate{put: true, snap: snap})
}

// Declare says which snapshot entries testFile's tests declare (their
// snapshot assertions', under every variant of the suite), and whether
// every test of the file ran (whole). Once every test file that shares a
// snapshot file ran whole, its entries no test declares are obsolete:
// counted, and removed in Update mode.
func (s *Store) Declare(testFile string, keys []Key, whole bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.entry(Path(testFile))
	f.whole = (f.declarers == 0 || f.whole) && whole
	f.declarers++
	for _, k := range keys {
		f.declared[k] = true
	}
}

// Flush writes every snapshot file whose entries changed, each
// atomically (a temporary file renamed over it), and returns what the
// run did. A file it could not read is never written. Call it once the
// run is over, whatever its outcome.
func (s *Store) Flush() (Counts, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var n Counts
	var errs []error
	for _, p := range slices.Sorted(maps.Keys(s.files)) {
		n.Failed += len(s.failed[p])
		f := s.file(p)
		if f.err != nil {
			continue
		}
		next, changed := f.next(s.mode, &n)
		if !changed {
			continue
		}
		if err := write(p, next); err != nil {
			errs = append(errs, fmt.Errorf("write %s: %w", p, err))
		}
	}
	return n, errors.Join(errs...)
}

// next is the file's entries once the run's are in, and whether they
// changed; it counts what changed in n.
func (f *snapFile) next(mode Mode, n *Counts) (map[Key]Snapshot, bool) {
	next := make(map[Key]Snapshot, len(f.stored)+len(f.pending))
	for k, v := range f.stored {
		next[k] = v
	}
	changed := false
	for k, c := range f.pending {
		if c.same {
			continue
		}
		if _, had := f.stored[k]; had {
			if Equal(f.stored[k], c.snap, 0) {
				continue
			}
			n.Updated++
		} else {
			n.Written++
		}
		next[k], changed = c.snap, true
	}
	if f.declarers > 0 && f.whole {
		for k := range f.stored {
			if f.declared[k] {
				continue
			}
			if _, ok := f.pending[k]; ok {
				continue
			}
			if mode == Update {
				delete(next, k)
				n.Removed++
				changed = true
			} else {
				n.Obsolete++
			}
		}
	}
	return next, changed
}

// write writes a snapshot file atomically; with no entries left, it
// removes the file (and its directory, when that is empty).
func write(p string, entries map[Key]Snapshot) error {
	if len(entries) == 0 {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		os.Remove(filepath.Dir(p)) // only when empty
		return nil
	}
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*.snap.yaml")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a failure; gone once renamed
	f := &File{Entries: entries}
	if _, err := tmp.Write(f.Marshal()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), p)
}
