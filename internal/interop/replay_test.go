//go:build unix

package interop

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// replayMastra records the Mastra suites (passing and failing tests) and
// replays them with no agent at the address: every test keeps its status,
// every assertion its verdict, its usage, and every attempt and turn its
// recorded duration, exactly (the replay reads the recorded clock; how long the
// replay itself took is only logged).
func replayMastra(t *testing.T, bin, dir string, urls map[string]string) {
	replaySuite(t, bin, dir, urls, "mastra", "MASTRA_URL", 1, "pass", "fail")
}

// replayLangGraph does the same for the LangGraph suites, whose tests
// answer interrupts: the resumed runs replay as recorded, and the test
// that sends a message while one is pending errors again.
func replayLangGraph(t *testing.T, bin, dir string, urls map[string]string) {
	replaySuite(t, bin, dir, urls, "langgraph", "LANGGRAPH_URL", 1, "pass", "fail", "error")
}

// replaySuite records the tests of producer's folders (exiting with
// wantExit) and replays them with urlVar pointing nowhere.
func replaySuite(t *testing.T, bin, dir string, urls map[string]string, producer, urlVar string, wantExit int, folders ...string) {
	tmp := t.TempDir()
	rec := filepath.Join(tmp, "rec")
	run := func(name string, env map[string]string, args ...string) (verdicts, durations, usage map[string]string, took time.Duration) {
		reports := filepath.Join(tmp, name)
		argv := append([]string{"run", "--config", filepath.Join(dir, producer, "ananke.config.yaml"), "--report-dir", reports}, args...)
		for _, f := range folders {
			argv = append(argv, filepath.Join(dir, producer, f))
		}
		cmd := exec.CommandContext(t.Context(), bin, argv...)
		cmd.Env = producerEnv(urls)
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		start := time.Now()
		out, err := cmd.CombinedOutput()
		took = time.Since(start)
		if code := cmd.ProcessState.ExitCode(); code != wantExit {
			t.Fatalf("%s: exit %d (%v), want %d (the failing suite fails)\n%s", name, code, err, wantExit, out)
		}
		var sum struct {
			Tests []struct {
				ID, Status string
				Usage      json.RawMessage
				Assertions []struct{ ID, Status string }
				Attempts   []struct {
					DurationMs int64 `json:"duration_ms"`
				}
				Turns []struct {
					DurationMs int64 `json:"duration_ms"`
				}
			}
		}
		b, _ := os.ReadFile(filepath.Join(reports, "summary.json"))
		if err := json.Unmarshal(b, &sum); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		verdicts, durations, usage = map[string]string{}, map[string]string{}, map[string]string{}
		for _, x := range sum.Tests {
			verdicts[x.ID] = x.Status
			usage[x.ID] = string(x.Usage)
			for _, a := range x.Assertions {
				verdicts[x.ID+" "+a.ID] = a.Status
			}
			for i, a := range x.Attempts {
				durations[fmt.Sprintf("%s attempt %d", x.ID, i)] = fmt.Sprint(a.DurationMs, " ms")
			}
			for i, turn := range x.Turns {
				durations[fmt.Sprintf("%s turn %d", x.ID, i)] = fmt.Sprint(turn.DurationMs, " ms")
			}
		}
		return verdicts, durations, usage, took
	}
	recorded, recordedTimes, recordedUsage, _ := run("record", nil, "--record", rec)
	// No agent there: a refused connection would error every test.
	replayed, replayedTimes, replayedUsage, took := run("replay", map[string]string{urlVar: "http://127.0.0.1:1"}, "--replay", rec)
	if !maps.Equal(recorded, replayed) {
		t.Errorf("replayed verdicts differ:\nrecorded %v\nreplayed %v", recorded, replayed)
	}
	if !maps.Equal(recordedTimes, replayedTimes) {
		t.Errorf("replayed durations differ:\nrecorded %v\nreplayed %v", recordedTimes, replayedTimes)
	}
	// The replayed streams are the recorded ones, usage and all.
	if !maps.Equal(recordedUsage, replayedUsage) {
		t.Errorf("replayed usage differs:\nrecorded %v\nreplayed %v", recordedUsage, replayedUsage)
	}
	if !slices.ContainsFunc(slices.Collect(maps.Values(replayedUsage)), func(u string) bool { return u != "" }) {
		t.Errorf("no replayed test reported usage: %v", replayedUsage)
	}
	t.Logf("%d verdicts and %d durations recorded and replayed; the replay took %v", len(recorded), len(recordedTimes), took.Round(time.Millisecond))
}
