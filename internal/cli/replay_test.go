package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestRecordReplay records the quickstart suite against the example agent,
// replays it with no agent (its server command broken), and checks the
// verdicts come back and every time the reports give — turn, run, tool
// call and attempt durations, each event's time — is the recorded one
// exactly, though the replay reads a busy machine's clock; then a changed
// message makes its test an error that shows the difference. The
// recording reads steadyClock, so that its live run meets the suite's
// timing limits however busy the machine.
func TestRecordReplay(t *testing.T) {
	dir := copySuite(t, "quickstart")
	rec := filepath.Join(dir, "rec")
	r := runClock(context.Background(), t, dir, nil, steadyClock(), "run", "--record", rec, "--report-dir", filepath.Join(dir, "out1"))
	if r.code != ExitPass || !strings.Contains(r.out, "Recording: "+rec) {
		t.Fatalf("record: exit %d\n%s\n%s", r.code, r.out, r.errOut)
	}
	// No agent: a server command that cannot start would fail the run.
	cfg := filepath.Join(dir, "ananke.config.yaml")
	b, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, []byte(strings.Replace(string(b), "command: [", "command: [\"/nonexistent/agent\", ", 1)), 0o644)
	r = runClock(context.Background(), t, dir, nil, busyClock(7*time.Millisecond), "run", "--replay", rec, "--report-dir", filepath.Join(dir, "out2"))
	if r.code != ExitPass {
		t.Fatalf("replay: exit %d\n%s\n%s", r.code, r.out, r.errOut)
	}
	recorded, replayed := reportNumbers(t, filepath.Join(dir, "out1")), reportNumbers(t, filepath.Join(dir, "out2"))
	for _, k := range slices.Sorted(maps.Keys(recorded)) {
		if v, ok := replayed[k]; !ok || v != recorded[k] {
			t.Errorf("%s: recorded %v, replayed %v", k, recorded[k], v)
		}
	}
	for k := range replayed {
		if _, ok := recorded[k]; !ok {
			t.Errorf("%s: replayed %v, not in the recorded run's report", k, replayed[k])
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

// busyClock is a busy machine's clock: each reading comes step later than
// the one before it would.
func busyClock(step time.Duration) func() time.Time {
	var n atomic.Int64
	return func() time.Time { return time.Now().Add(time.Duration(n.Add(1)) * step) }
}

// reportNumbers reads every number of a report directory's summary.json
// and trace files, by path, but the wall-clock durations of the suite, its
// hooks and each test: the times of each test's attempt, its turns, runs,
// tool calls and events, its counts. A trace's Unix-ms stamps are taken
// from its test's start.
func reportNumbers(t *testing.T, dir string) map[string]float64 {
	t.Helper()
	var sum map[string]any
	readJSON(t, filepath.Join(dir, "summary.json"), &sum)
	out := map[string]float64{}
	numbers(sum, "summary", 0, out)
	delete(out, "summary.duration_ms")
	for k := range out {
		if strings.HasPrefix(k, "summary.hooks[") {
			delete(out, k)
		}
	}
	tests, _ := sum["tests"].([]any)
	if len(tests) == 0 {
		t.Fatal("no test ran")
	}
	for i, x := range tests {
		test := x.(map[string]any)
		delete(out, fmt.Sprintf("summary.tests[%d].duration_ms", i))
		var tr map[string]any
		readNumbers(t, filepath.Join(dir, filepath.FromSlash(test["trace_file"].(string))), &tr)
		start, _ := tr["test_start_ts"].(json.Number).Float64()
		numbers(tr, test["id"].(string)+".trace", start, out)
	}
	return out
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// readNumbers reads a JSON file keeping its numbers as written
// (json.Number): a Unix-ns stamp has more digits than a float64 holds.
func readNumbers(t *testing.T, path string, v any) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// numbers collects the numbers in v by path; those past 1e12 are Unix-ms
// stamps, taken from base, and those past 1e15 Unix-ns stamps (a request
// span's), made Unix-ms (the millisecond they fall in) and taken from
// base.
func numbers(v any, path string, base float64, out map[string]float64) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			numbers(x, path+"."+k, base, out)
		}
	case []any:
		for i, x := range v {
			numbers(x, fmt.Sprintf("%s[%d]", path, i), base, out)
		}
	case json.Number:
		if ns, err := v.Int64(); err == nil && ns > 1e15 {
			out[path] = float64(ns/1e6) - base
			return
		}
		f, _ := v.Float64()
		numbers(f, path, base, out)
	case float64:
		if v > 1e12 {
			v -= base
		}
		out[path] = v
	}
}
