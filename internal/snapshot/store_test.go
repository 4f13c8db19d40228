package snapshot

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// weather is a test file's path in a fresh directory, and its snapshot
// file's.
func weather(t *testing.T) (testFile, snapFile string) {
	dir := t.TempDir()
	testFile = filepath.Join(dir, "weather.ananke.yaml")
	return testFile, filepath.Join(dir, "__snapshots__", "weather.ananke.snap.yaml")
}

func paris(city string) trace.Scope {
	return scope(turn(0, "Sunny.", call("get_weather", `{"city":"`+city+`"}`)))
}

var key = Key{Test: "weather", Assertion: "turn[0].snapshot"}

func check(file string, sc trace.Scope, run, retry int) Check {
	return Check{TestFile: file, Key: key, Run: run, Retry: retry, Scope: sc}
}

// store writes a snapshot file holding entries, made of scopes by key.
func store(t *testing.T, path string, entries map[Key]trace.Scope) {
	t.Helper()
	f := &File{Entries: map[Key]Snapshot{}}
	for k, sc := range entries {
		f.Entries[k] = Take(sc, Rules{})
	}
	if err := write(path, f.Entries); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) *File {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func cityOf(t *testing.T, f *File, k Key) string {
	t.Helper()
	s, ok := f.Entries[k]
	if !ok || len(s.Turns) != 1 || len(s.Turns[0].Calls) != 1 {
		t.Fatalf("entry %v: %+v", k, s)
	}
	return s.Turns[0].Calls[0].Args.(map[string]any)["city"].(string)
}

func flush(t *testing.T, s *Store) Counts {
	t.Helper()
	n, err := s.Flush()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestStoreModes: what each mode does with a missing, a matching and a
// changed snapshot, and what it writes.
func TestStoreModes(t *testing.T) {
	for _, tc := range []struct {
		name    string
		mode    Mode
		stored  string // "" none
		got     string
		status  status.Status
		message string
		counts  Counts
		after   string // the stored city after Flush ("" no file)
	}{
		{"compare, missing", Compare, "", "Paris", status.Pass, "no snapshot was stored: written to __snapshots__/weather.ananke.snap.yaml (1 turn, 1 call)", Counts{Written: 1}, "Paris"},
		{"compare, matching", Compare, "Paris", "Paris", status.Pass, "matches its snapshot in __snapshots__/weather.ananke.snap.yaml (1 turn, 1 call)", Counts{}, "Paris"},
		{"compare, changed", Compare, "Paris", "London", status.Fail,
			`differs from its snapshot in __snapshots__/weather.ananke.snap.yaml: turn[0] call 1 get_weather: arguments.city: stored "Paris", got "London"; if the change is right, accept it with ` + "`ananke run -u`",
			Counts{Failed: 1}, "Paris"},
		{"update, missing", Update, "", "Paris", status.Pass, "no snapshot was stored: written to __snapshots__/weather.ananke.snap.yaml (1 turn, 1 call)", Counts{Written: 1}, "Paris"},
		{"update, matching", Update, "Paris", "Paris", status.Pass, "matches its snapshot", Counts{}, "Paris"},
		{"update, changed", Update, "Paris", "London", status.Pass, "differed from its snapshot: updated in __snapshots__/weather.ananke.snap.yaml (1 difference)", Counts{Updated: 1}, "London"},
		{"ci, missing", CI, "", "Paris", status.Fail,
			"no snapshot is stored for this assertion in __snapshots__/weather.ananke.snap.yaml, and a CI run never writes one: run `ananke run -u` locally and commit __snapshots__/weather.ananke.snap.yaml",
			Counts{Failed: 1}, ""},
		{"ci, matching", CI, "Paris", "Paris", status.Pass, "matches its snapshot", Counts{}, "Paris"},
		{"ci, changed", CI, "Paris", "London", status.Fail, `arguments.city: stored "Paris", got "London"`, Counts{Failed: 1}, "Paris"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file, snap := weather(t)
			if tc.stored != "" {
				store(t, snap, map[Key]trace.Scope{key: paris(tc.stored)})
			}
			before, _ := os.ReadFile(snap)
			s := NewStore(tc.mode)
			out := s.Check(check(file, paris(tc.got), 0, 0))
			if out.Status != tc.status || !strings.Contains(out.Message, tc.message) {
				t.Errorf("outcome %s %q; want %s %q", out.Status, out.Message, tc.status, tc.message)
			}
			if changed := tc.stored != "" && tc.stored != tc.got; changed != (len(out.Diff) == 1) {
				t.Errorf("diff %q", out.Diff)
			}
			if n := flush(t, s); n != tc.counts {
				t.Errorf("counts %+v, want %+v", n, tc.counts)
			}
			if tc.after == "" {
				if _, err := os.Stat(filepath.Dir(snap)); err == nil {
					t.Error("a snapshot directory was made")
				}
				return
			}
			if got := cityOf(t, read(t, snap), key); got != tc.after {
				t.Errorf("stored %q, want %q", got, tc.after)
			}
			if after, _ := os.ReadFile(snap); tc.counts.Written+tc.counts.Updated == 0 && string(after) != string(before) {
				t.Error("a file with nothing new was written")
			}
			entries, _ := os.ReadDir(filepath.Dir(snap))
			if len(entries) != 1 {
				t.Errorf("the snapshot directory holds %d files (a temporary file left?)", len(entries))
			}
		})
	}
}

// TestStoreAttack: an attack run's copy of a test is never compared and
// writes nothing.
func TestStoreAttack(t *testing.T) {
	file, snap := weather(t)
	s := NewStore(Update)
	c := check(file, paris("Paris"), 0, 0)
	c.Attack = true
	if out := s.Check(c); out.Status != status.Skip {
		t.Errorf("outcome %+v", out)
	}
	if n := flush(t, s); n.Any() {
		t.Errorf("counts %+v", n)
	}
	if _, err := os.Stat(snap); err == nil {
		t.Error("an attack run wrote a snapshot")
	}
}

// TestStoreFirstAttempt: of several attempts, the first (lowest run, then
// retry) is written, whatever order they finish in; a put wins over
// them all.
func TestStoreFirstAttempt(t *testing.T) {
	for _, mode := range []Mode{Compare, Update} {
		file, snap := weather(t)
		if mode == Update {
			store(t, snap, map[Key]trace.Scope{key: paris("Oslo")})
		}
		s := NewStore(mode)
		for _, a := range []struct {
			run, retry int
			city       string
		}{{2, 0, "Rome"}, {1, 1, "Lima"}, {1, 0, "Paris"}, {3, 0, "Bern"}} {
			if out := s.Check(check(file, paris(a.city), a.run, a.retry)); out.Status != status.Pass {
				t.Fatalf("mode %d: %+v", mode, out)
			}
		}
		flush(t, s)
		if got := cityOf(t, read(t, snap), key); got != "Paris" {
			t.Errorf("mode %d: stored %s, want the first attempt's Paris", mode, got)
		}
	}
	file, snap := weather(t)
	s := NewStore(Compare)
	s.Check(check(file, paris("Rome"), 0, 0))
	s.Put(file, key, Take(paris("Quito"), Rules{}))
	if n := flush(t, s); n != (Counts{Written: 1}) {
		t.Errorf("counts %+v", n)
	}
	if got := cityOf(t, read(t, snap), key); got != "Quito" {
		t.Errorf("stored %s, want the put Quito", got)
	}
}

// TestStoreMatchingFirstAttempt: under -u, when the first attempt matches
// the stored snapshot, a later one that differs changes nothing.
func TestStoreMatchingFirstAttempt(t *testing.T) {
	file, snap := weather(t)
	store(t, snap, map[Key]trace.Scope{key: paris("Paris")})
	s := NewStore(Update)
	s.Check(check(file, paris("Lima"), 1, 0))
	s.Check(check(file, paris("Paris"), 0, 0))
	if n := flush(t, s); n.Any() {
		t.Errorf("counts %+v", n)
	}
	if got := cityOf(t, read(t, snap), key); got != "Paris" {
		t.Errorf("stored %s", got)
	}
}

// TestStoreObsolete: once every test of the files that share a snapshot
// file ran, the entries none of them declares are obsolete: counted, and
// removed under -u; the file goes when nothing is left.
func TestStoreObsolete(t *testing.T) {
	gone := Key{Test: "weather", Assertion: "turn[1].snapshot"}
	other := Key{Test: "removed-test", Assertion: "test.snapshot"}
	for _, tc := range []struct {
		name     string
		mode     Mode
		declare  []Key
		whole    []bool // one Declare per entry
		counts   Counts
		left     int // entries left; -1 no file
		checkKey bool
	}{
		{"compare counts them", Compare, []Key{key}, []bool{true}, Counts{Obsolete: 2}, 3, true},
		{"ci counts them", CI, []Key{key}, []bool{true}, Counts{Obsolete: 2}, 3, true},
		{"update removes them", Update, []Key{key}, []bool{true}, Counts{Removed: 2}, 1, true},
		{"a test that did not run", Update, []Key{key}, []bool{false}, Counts{}, 3, true},
		{"a file sharing the snapshot file ran in part", Update, []Key{key}, []bool{true, false}, Counts{}, 3, true},
		{"declared and seen", Compare, []Key{key, gone, other}, []bool{true}, Counts{}, 3, true},
		{"nothing declared any more", Update, nil, []bool{true}, Counts{Removed: 3}, -1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file, snap := weather(t)
			store(t, snap, map[Key]trace.Scope{key: paris("Paris"), gone: paris("Rome"), other: paris("Oslo")})
			s := NewStore(tc.mode)
			for _, whole := range tc.whole {
				s.Declare(file, tc.declare, whole)
			}
			if tc.checkKey {
				s.Check(check(file, paris("Paris"), 0, 0))
			}
			if n := flush(t, s); n != tc.counts {
				t.Errorf("counts %+v, want %+v", n, tc.counts)
			}
			if tc.left < 0 {
				if _, err := os.Stat(filepath.Dir(snap)); err == nil {
					t.Error("the emptied snapshot file (or its directory) is still there")
				}
				return
			}
			if got := len(read(t, snap).Entries); got != tc.left {
				t.Errorf("%d entries left, want %d", got, tc.left)
			}
		})
	}
}

// TestStoreUnreadable: a snapshot file that does not read is an error
// for its checks, and is never written over, even under -u.
func TestStoreUnreadable(t *testing.T) {
	file, snap := weather(t)
	if err := os.MkdirAll(filepath.Dir(snap), 0o755); err != nil {
		t.Fatal(err)
	}
	bad := "version: 1\nsnapshots:\n  weather: [\n"
	if err := os.WriteFile(snap, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	s := NewStore(Update)
	out := s.Check(check(file, paris("Paris"), 0, 0))
	if out.Status != status.Error || !strings.Contains(out.Message, "cannot read the snapshot: __snapshots__/weather.ananke.snap.yaml: ") {
		t.Errorf("outcome %+v", out)
	}
	s.Put(file, key, Take(paris("Paris"), Rules{}))
	s.Declare(file, nil, true)
	flush(t, s)
	if got, _ := os.ReadFile(snap); string(got) != bad {
		t.Errorf("the unreadable file was written over:\n%s", got)
	}
}

// TestStoreConcurrent: checks of many tests at once, in one file, all
// land in it (run with -race).
func TestStoreConcurrent(t *testing.T) {
	file, snap := weather(t)
	s := NewStore(Compare)
	const n = 40
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			c := check(file, paris(fmt.Sprint("city", i)), 0, 0)
			c.Key = Key{Test: fmt.Sprint("t", i), Assertion: "test.snapshot"}
			if out := s.Check(c); out.Status != status.Pass {
				t.Errorf("%d: %+v", i, out)
			}
		})
	}
	wg.Wait()
	if c := flush(t, s); c.Written != n {
		t.Errorf("counts %+v", c)
	}
	if got := len(read(t, snap).Entries); got != n {
		t.Errorf("%d entries, want %d", got, n)
	}
}

// TestPath: the snapshot file of a test file.
func TestPath(t *testing.T) {
	for in, want := range map[string]string{
		"weather.ananke.yaml":          "__snapshots__/weather.ananke.snap.yaml",
		"tests/shop/refund.ananke.yml": "tests/shop/__snapshots__/refund.ananke.snap.yaml",
		"/abs/cases.ananke.jsonl":      "/abs/__snapshots__/cases.ananke.snap.yaml",
	} {
		if got := filepath.ToSlash(Path(filepath.FromSlash(in))); got != want {
			t.Errorf("Path(%s) = %s, want %s", in, got, want)
		}
	}
}
