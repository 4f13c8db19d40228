package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/snapshot"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/reporters/reportdir"
)

// TestSnapshotsQuickstart runs the quickstart's snapshots through their
// life: -u writes them (the committed ones, byte for byte); a changed
// trajectory fails with its diff on the console and in summary.json, and
// writes nothing; under CI=true a missing snapshot fails, saying what to
// do, and writes nothing; -u under CI=true writes it; an entry no test
// declares is obsolete, and -u removes it.
func TestSnapshotsQuickstart(t *testing.T) {
	dir := copySuite(t, "quickstart")
	snaps := filepath.Join(dir, "__snapshots__")
	weather := filepath.Join(snaps, "weather.ananke.snap.yaml")
	if err := os.RemoveAll(snaps); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	local, ci := map[string]string{"CI": "false"}, map[string]string{"CI": "true"}
	runOK := func(env map[string]string, args ...string) result {
		t.Helper()
		r := run(t, dir, env, append([]string{"run", "-o", out}, args...)...)
		if r.code != ExitPass {
			t.Fatalf("%v: exit %d\nstdout:\n%s\nstderr:\n%s", args, r.code, r.out, r.errOut)
		}
		return r
	}

	// -u writes every snapshot: the ones committed beside the example.
	r := runOK(local, "-u")
	if !strings.Contains(r.out, "Snapshots: 2 written\n") {
		t.Errorf("stdout lacks the snapshot line:\n%s", r.out)
	}
	for _, name := range []string{"weather.ananke.snap.yaml", "shopping.ananke.snap.yaml"} {
		got, err := os.ReadFile(filepath.Join(snaps, name))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(repoRoot(), "examples", "quickstart", "__snapshots__", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the committed one: run the README's quickstart with -u and commit it\n%s", name, got)
		}
	}
	if r := runOK(ci); strings.Contains(r.out, "Snapshots:") {
		t.Errorf("a run that matches every snapshot speaks of them:\n%s", r.out)
	}

	// A stored argument that is not what the agent sends fails, with the
	// diff; nothing is written.
	stored, _ := os.ReadFile(weather)
	edited := bytes.Replace(stored, []byte("city: Paris"), []byte("city: London"), 1)
	if bytes.Equal(edited, stored) {
		t.Fatalf("the weather snapshot has no city: Paris:\n%s", stored)
	}
	writeFile(t, weather, string(edited))
	r = run(t, dir, local, "run", "-o", out)
	diff := `turn[0] call 1 get_weather: arguments.city: stored "London", got "Paris"`
	if r.code != ExitFail || !strings.Contains(r.out, "differs from its snapshot in __snapshots__/weather.ananke.snap.yaml: "+diff) ||
		!strings.Contains(r.out, "Snapshots: 1 failed\n") {
		t.Errorf("a changed argument: exit %d\n%s", r.code, r.out)
	}
	sum, err := reportdir.ReadSummary(out)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Snapshots == nil || *sum.Snapshots != (report.Snapshots{Failed: 1}) {
		t.Errorf("summary.json snapshots %+v", sum.Snapshots)
	}
	if a := assertionOf(t, sum, "weather", "turn[0].snapshot"); a.Status != "fail" || len(a.Evidence) != 1 || a.Evidence[0].Note != diff {
		t.Errorf("summary.json's assertion: %s %q %+v", a.Status, a.Message, a.Evidence)
	}
	if now, _ := os.ReadFile(weather); !bytes.Equal(now, edited) {
		t.Error("a failed comparison wrote the snapshot")
	}

	// Under CI, a missing snapshot fails and nothing is written.
	if err := os.Remove(weather); err != nil {
		t.Fatal(err)
	}
	r = run(t, dir, ci, "run", "-o", out)
	if r.code != ExitFail || !strings.Contains(r.out, "no snapshot is stored for this assertion in __snapshots__/weather.ananke.snap.yaml, and a CI run never writes one: run `ananke run -u` locally and commit __snapshots__/weather.ananke.snap.yaml") {
		t.Errorf("CI, missing: exit %d\n%s", r.code, r.out)
	}
	if _, err := os.Stat(weather); err == nil {
		t.Error("a CI run wrote a snapshot")
	}

	// -u under CI writes it; an entry of a test that is gone is obsolete
	// until -u removes it.
	r = runOK(ci, "-u")
	if !strings.Contains(r.out, "Snapshots: 1 written\n") {
		t.Errorf("-u under CI:\n%s", r.out)
	}
	shopping := filepath.Join(snaps, "shopping.ananke.snap.yaml")
	b, _ := os.ReadFile(shopping)
	writeFile(t, shopping, string(b)+"  gone:\n    test.snapshot:\n      turns: []\n")
	if r := runOK(local); !strings.Contains(r.out, "Snapshots: 1 obsolete (run with -u to remove)\n") {
		t.Errorf("an obsolete entry:\n%s", r.out)
	}
	if r := runOK(local, "--run", "weather", "-u"); strings.Contains(r.out, "Snapshots:") {
		t.Errorf("a run that left out the file's test counted its obsolete entries:\n%s", r.out)
	}
	if r := runOK(local, "--update-snapshots"); !strings.Contains(r.out, "Snapshots: 1 obsolete removed\n") {
		t.Errorf("-u with an obsolete entry:\n%s", r.out)
	}
	if now, _ := os.ReadFile(shopping); !bytes.Equal(now, b) {
		t.Errorf("the obsolete entry was not removed:\n%s", now)
	}
}

// assertionOf is a test's assertion in a report.
func assertionOf(t *testing.T, r *report.Report, test, id string) report.Assertion {
	t.Helper()
	for _, tt := range r.Tests {
		if tt.ID != test {
			continue
		}
		for _, a := range tt.Assertions {
			if a.ID == id {
				return a
			}
		}
	}
	t.Fatalf("no assertion %s of %s", id, test)
	return report.Assertion{}
}

// TestSnapshotsForVariants: a variant's run of a test is compared with the
// test's own entry, not one of its variant's.
func TestSnapshotsForVariants(t *testing.T) {
	file := filepath.Join(t.TempDir(), "weather.ananke.yaml")
	st := snapshot.NewStore(snapshot.Compare)
	scope := (&trace.Trace{Turns: []trace.Turn{{ToolCalls: []trace.ToolCall{{Name: "get_weather", Args: `{"city":"Paris"}`}}}}}).TestScope()
	for _, v := range []string{"plain", "tagged"} {
		out := snapshotsFor(st, v).Check(snapshot.Check{TestFile: file, Key: snapshot.Key{Test: report.VariantID("weather", v), Assertion: "test.snapshot"}, Scope: scope})
		if out.Status != status.Pass {
			t.Fatalf("%s: %+v", v, out)
		}
	}
	if n, err := st.Flush(); err != nil || n != (snapshot.Counts{Written: 1}) {
		t.Fatalf("%+v, %v", n, err)
	}
	b, err := os.ReadFile(snapshot.Path(file))
	if err != nil {
		t.Fatal(err)
	}
	f, err := snapshot.Read(b)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := f.Entries[snapshot.Key{Test: "weather", Assertion: "test.snapshot"}]; !ok || len(f.Entries) != 1 {
		t.Errorf("entries %v", f.Entries)
	}
	if snapshotsFor(st, "") != engine.Snapshots(st) {
		t.Error("without variants, the engine is not given the store itself")
	}
}
