package nanoclaw

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/cost"
)

// TestUsage: NanoClaw's own stores say nothing of tokens; its runs' usage
// is its Claude Code transcript's, per turn, and a task's run keeps its
// turn's. The scheduled run's six API messages, in eleven lines, used
// 129633 input tokens (123264 of them cache reads, 6334 cache writes) and
// 1819 output tokens (internal/source/claude's TestUsageOfRecordedTranscripts
// adds them up by hand).
func TestUsage(t *testing.T) {
	dir := filepath.Join(recordings, "scheduler-digest-timeout-recovery", "fail")
	tr, err := Read(Options{Root: dir, Display: "recording", Group: "family", Task: "task-digest-retry"})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Turns) != 1 || tr.Turns[0].Usage == nil {
		t.Fatalf("%d turns, the first's usage %v; want one turn with usage", len(tr.Turns), tr.Turns[0].Usage)
	}
	u := tr.Turns[0].Usage
	want := map[cost.Field]int64{cost.Input: 129633, cost.Output: 1819, cost.Total: 131452, cost.CachedInput: 123264, cost.CacheWrite: 6334}
	tokens := u.Tokens()
	for f, n := range want {
		if got, ok := tokens.Get(f); !ok || got != n {
			t.Errorf("%s: %d (known %v); want %d", f, got, ok, n)
		}
	}
	if u.Reported != 6 || len(u.Models) != 1 || u.Models[0].Model != "claude-sonnet-4-6" || u.Models[0].Provider != "anthropic" {
		t.Errorf("usage %+v; want six messages of anthropic/claude-sonnet-4-6", u)
	}
	if !slices.Contains(tr.Caps(), capability.Usage) {
		t.Errorf("capabilities %v; want %s", tr.Caps(), capability.Usage)
	}
}
