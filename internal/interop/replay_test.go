//go:build unix

package interop

import (
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// replayMastra records the Mastra suites (passing and failing tests) and
// replays them with no agent at the address: every test keeps its status
// and every assertion its verdict, in under a second.
func replayMastra(t *testing.T, bin, dir string, urls map[string]string) {
	tmp := t.TempDir()
	rec := filepath.Join(tmp, "rec")
	run := func(name string, env map[string]string, args ...string) (map[string]string, time.Duration) {
		reports := filepath.Join(tmp, name)
		argv := append([]string{"run", "--config", filepath.Join(dir, "mastra", "ananke.config.yaml"), "--report-dir", reports}, args...)
		argv = append(argv, filepath.Join(dir, "mastra", "pass"), filepath.Join(dir, "mastra", "fail"))
		cmd := exec.CommandContext(t.Context(), bin, argv...)
		cmd.Env = producerEnv(urls)
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		start := time.Now()
		out, err := cmd.CombinedOutput()
		took := time.Since(start)
		if code := cmd.ProcessState.ExitCode(); code != 1 {
			t.Fatalf("%s: exit %d (%v), want 1 (the failing suite fails)\n%s", name, code, err, out)
		}
		var sum struct {
			Tests []struct {
				ID, Status string
				Assertions []struct{ ID, Status string }
			}
		}
		b, _ := os.ReadFile(filepath.Join(reports, "summary.json"))
		if err := json.Unmarshal(b, &sum); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		verdicts := map[string]string{}
		for _, x := range sum.Tests {
			verdicts[x.ID] = x.Status
			for _, a := range x.Assertions {
				verdicts[x.ID+" "+a.ID] = a.Status
			}
		}
		return verdicts, took
	}
	recorded, _ := run("record", nil, "--record", rec)
	// No agent there: a refused connection would error every test.
	replayed, took := run("replay", map[string]string{"MASTRA_URL": "http://127.0.0.1:1"}, "--replay", rec)
	if !maps.Equal(recorded, replayed) {
		t.Errorf("replayed verdicts differ:\nrecorded %v\nreplayed %v", recorded, replayed)
	}
	if took > time.Second {
		t.Errorf("the replay took %v, want under a second", took)
	}
	t.Logf("%d verdicts recorded and replayed; the replay took %v", len(recorded), took.Round(time.Millisecond))
}
