//go:build unix

package interop

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/interop/peer"
)

// blessTests are the Mastra tests TestBlessMastra records and blesses,
// relative to testdata/interop/mastra: every passing test, and failing
// ones whose run was right but whose assertions were not (blessed, they
// assert what the agent did, and pass).
var blessTests = []string{"pass", "fail/wrong-city.ananke.yaml", "fail/wrong-order.ananke.yaml", "fail/forbidden.ananke.yaml",
	"fail/forgot-name.ananke.yaml", "fail/declined-refund.ananke.yaml"}

// TestBlessMastra records the Mastra suite against the real agent,
// blesses the recording, and checks the blessed tests: they validate,
// pass against the recording with no agent at the address — as a CI run,
// in which a snapshot not stored fails: bless wrote each — and fail
// against a recording of a changed agent — the hasty Mastra
// (MASTRA_BEHAVIOUR=hasty), which answers a one-city weather question
// without calling get_weather: exactly the weather test fails, on the
// get_weather its blessing requires.
func TestBlessMastra(t *testing.T) {
	dir := peer.Dir()
	node := peer.Node(t, filepath.Join("@ag-ui", "mastra"))
	bin := buildAnanke(t)
	work := t.TempDir()
	cfg := filepath.Join(dir, "mastra", "ananke.config.yaml")
	var paths []string
	for _, p := range blessTests {
		paths = append(paths, filepath.Join(dir, "mastra", filepath.FromSlash(p)))
	}
	ananke := func(t *testing.T, url string, wantExit int, args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(t.Context(), runTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "NO_COLOR=1", "MASTRA_URL="+url, "CI=true")
		out, exit := combined(t, cmd)
		if exit != wantExit {
			t.Fatalf("ananke %s: exit %d, want %d\n%s", strings.Join(args, " "), exit, wantExit, out)
		}
		return out
	}

	careful := peer.MustStart(t, dir, nil, node, "mastra-server.mjs", "--port", "0")
	// The failing tests fail as written; what was recorded is right.
	ananke(t, careful.URL, 1, append([]string{"run", "--config", cfg, "--record", "rec", "--report-dir", "recorded", "--parallel", "4"}, paths...)...)
	out := ananke(t, careful.URL, 0, "bless", "rec", "-o", "blessed")
	if !strings.Contains(out, "Check them against the recording: ananke run --config "+cfg+" --replay rec blessed\n") {
		t.Errorf("bless does not say how to check its tests:\n%s", out)
	}
	weather := filepath.Join(work, "blessed", "pass", "weather.ananke.yaml")
	b, err := os.ReadFile(weather)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"id: pass/weather\n", "# inferred: the agent called get_weather in turn 0\n          - name: get_weather\n",
		"# inferred: the agent never called issue_refund in this test, though other tests of the recording called it\n",
		"written to __snapshots__/weather.ananke.snap.yaml\n  snapshot: true\n"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the blessed weather test lacks %q:\n%s", want, b)
		}
	}
	if snap, err := os.ReadFile(filepath.Join(work, "blessed", "pass", "__snapshots__", "weather.ananke.snap.yaml")); err != nil || !strings.Contains(string(snap), "  pass/weather:\n    test.snapshot:\n") {
		t.Errorf("the blessed weather test's snapshot (%v):\n%s", err, snap)
	}
	ananke(t, careful.URL, 0, "validate", "--config", cfg, "blessed")

	// No agent at the address: every exchange comes from the recording.
	const dead = "http://127.0.0.1:1"
	ananke(t, dead, 0, "run", "--config", cfg, "--replay", "rec", "--report-dir", "blessed-replayed", "blessed")
	passed := blessStatuses(t, filepath.Join(work, "blessed-replayed"))
	if len(passed) != 14 {
		t.Errorf("%d blessed tests replayed, want 14: %v", len(passed), passed)
	}

	hasty := peer.MustStart(t, dir, []string{"MASTRA_BEHAVIOUR=hasty"}, node, "mastra-server.mjs", "--port", "0")
	ananke(t, hasty.URL, 1, append([]string{"run", "--config", cfg, "--record", "rec-hasty", "--report-dir", "recorded-hasty", "--parallel", "4"}, paths...)...)
	ananke(t, dead, 1, "run", "--config", cfg, "--replay", "rec-hasty", "--report-dir", "blessed-hasty", "blessed")
	got := blessStatuses(t, filepath.Join(work, "blessed-hasty"))
	for id, st := range got {
		want := "pass"
		if id == "pass/weather" {
			want = "fail turn[0].tools.require[0]"
		}
		if st != want {
			t.Errorf("%s against the hasty agent: %s, want %s", id, st, want)
		}
	}
	if len(got) != len(passed) {
		t.Errorf("%d tests replayed against the hasty agent, want %d", len(got), len(passed))
	}
}

// blessStatuses reads each test's status from a report's summary.json,
// with the ids of its failing assertions after a failed one's.
func blessStatuses(t *testing.T, reports string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(reports, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Tests []struct {
			ID, Status string
			Assertions []struct{ ID, Status string }
		}
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, x := range sum.Tests {
		st := x.Status
		var failed []string
		for _, a := range x.Assertions {
			if a.Status == "fail" {
				failed = append(failed, a.ID)
			}
		}
		slices.Sort(failed)
		if len(failed) > 0 {
			st += " " + strings.Join(failed, " ")
		}
		out[x.ID] = st
	}
	return out
}
