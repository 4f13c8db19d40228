package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecordReplay records the quickstart suite against the example agent,
// replays it with no agent (its server command broken), and checks the
// verdicts and the recorded timing come back; then a changed message
// makes its test an error that shows the difference.
func TestRecordReplay(t *testing.T) {
	dir := copySuite(t, "quickstart")
	rec := filepath.Join(dir, "rec")
	r := run(t, dir, nil, "run", "--record", rec, "--report-dir", filepath.Join(dir, "out1"))
	if r.code != ExitPass || !strings.Contains(r.out, "Recording: "+rec) {
		t.Fatalf("record: exit %d\n%s\n%s", r.code, r.out, r.errOut)
	}
	// No agent: a server command that cannot start would fail the run.
	cfg := filepath.Join(dir, "ananke.config.yaml")
	b, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, []byte(strings.Replace(string(b), "command: [", "command: [\"/nonexistent/agent\", ", 1)), 0o644)
	r = run(t, dir, nil, "run", "--replay", rec, "--report-dir", filepath.Join(dir, "out2"))
	if r.code != ExitPass {
		t.Fatalf("replay: exit %d\n%s\n%s", r.code, r.out, r.errOut)
	}
	recorded, replayed := durations(t, filepath.Join(dir, "out1")), durations(t, filepath.Join(dir, "out2"))
	for id, d := range recorded {
		for i := range d {
			if diff := replayed[id][i] - d[i]; diff < -2 || diff > 2 {
				t.Errorf("%s turn %d took %d ms replayed, %d ms recorded", id, i, replayed[id][i], d[i])
			}
		}
	}
	weather := filepath.Join(dir, "weather.ananke.yaml")
	b, _ = os.ReadFile(weather)
	os.WriteFile(weather, []byte(strings.Replace(string(b), "weather in Paris?", "weather in Lyon?", 1)), 0o644)
	r = run(t, dir, nil, "run", "--replay", rec, "--report-dir", filepath.Join(dir, "out3"))
	if r.code != ExitError {
		t.Fatalf("changed message: exit %d, want %d\n%s", r.code, ExitError, r.out)
	}
	for _, want := range []string{`replay: request 1 differs from the recording: messages[0].content: recorded "What's the weather in Paris?", sent "What's the weather in Lyon?"`,
		"Tests: 6 total, 5 passed, 0 failed, 1 errored"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.out)
		}
	}
	if !strings.Contains(r.errOut, "weather.ananke.yaml changed since it was recorded") {
		t.Errorf("stderr lacks the changed-file note:\n%s", r.errOut)
	}
	r = run(t, dir, nil, "run", "--replay", filepath.Join(dir, "nothing"), "--report-dir", filepath.Join(dir, "out4"))
	if r.code != ExitInvalid || !strings.Contains(r.errOut, "is not a recording") {
		t.Errorf("missing recording: exit %d\n%s", r.code, r.errOut)
	}
}

// durations reads each test's turn durations from a report directory.
func durations(t *testing.T, dir string) map[string][]int64 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Tests []struct {
			ID    string
			Turns []struct {
				DurationMs int64 `json:"duration_ms"`
			}
		}
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	out := map[string][]int64{}
	for _, x := range s.Tests {
		for _, turn := range x.Turns {
			out[x.ID] = append(out[x.ID], turn.DurationMs)
		}
	}
	if len(out) == 0 {
		t.Fatal("no test ran")
	}
	return out
}
