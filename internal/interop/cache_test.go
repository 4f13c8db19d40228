//go:build unix

package interop

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// modelCache runs the model-driven suite twice with a cache: the second
// run is served from it — zero requests reach the model, as aimock's own
// journal confirms — and reaches the same verdicts.
func modelCache(t *testing.T, bin, dir string, urls map[string]string) {
	cfg, err := os.ReadFile(filepath.Join(dir, "model-agent", "ananke.config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	cache := filepath.Join(tmp, "cache")
	cfgPath := filepath.Join(dir, "model-agent", "cached.ananke.config.yaml.tmp")
	// The config must sit beside its tests; written under a name discovery
	// skips, removed at the end.
	conf := strings.Replace(string(cfg), "cache: false", "cache: "+cache, 1)
	if err := os.WriteFile(cfgPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(cfgPath)
	var statuses [2]string
	var requests, hits [2]int
	for i := range 2 {
		before := journal(t, urls["aimock"])
		reports := filepath.Join(tmp, "run"+strconv.Itoa(i))
		cmd := exec.CommandContext(t.Context(), bin, "run", "--config", cfgPath, "--report-dir", reports, filepath.Join(dir, "model-agent", "pass"))
		cmd.Env = producerEnv(urls)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("run %d: %v\n%s", i+1, err, out)
		}
		if strings.Contains(string(out), aimockKey) {
			t.Errorf("run %d prints the model's api key", i+1)
		}
		var sum struct {
			Status string `json:"status"`
			Totals struct {
				Model struct {
					Requests  int `json:"requests"`
					CacheHits int `json:"cache_hits"`
				} `json:"model"`
			} `json:"totals"`
		}
		b, _ := os.ReadFile(filepath.Join(reports, "summary.json"))
		if err := json.Unmarshal(b, &sum); err != nil {
			t.Fatal(err)
		}
		statuses[i], requests[i], hits[i] = sum.Status, sum.Totals.Model.Requests, sum.Totals.Model.CacheHits
		if sent := journal(t, urls["aimock"]) - before; sent != requests[i] {
			t.Errorf("run %d: the model saw %d requests, the report says %d", i+1, sent, requests[i])
		}
	}
	if requests[0] == 0 || hits[0] != 0 || requests[1] != 0 || hits[1] != requests[0] || statuses != [2]string{"pass", "pass"} {
		t.Errorf("requests %v, cache hits %v, statuses %v; want the second run all from the cache", requests, hits, statuses)
	}
}

// journal counts the chat-completion requests aimock has received.
func journal(t *testing.T, aimock string) int {
	t.Helper()
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, aimock+"/__aimock/journal?path=/v1/chat/completions&limit=1", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	n, err := strconv.Atoi(res.Header.Get("X-Total-Count"))
	if err != nil {
		t.Fatalf("journal: %v", err)
	}
	return n
}
