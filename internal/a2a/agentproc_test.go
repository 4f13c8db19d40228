//go:build unix

package a2a

import (
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ananke/action/internal/interop/peer"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// The tests below run against a real A2A agent written with @a2a-js/sdk:
// testdata/interop/a2a-agent.mjs.

// agent is a running a2a-agent.mjs.
type agent struct {
	url string
	cmd *exec.Cmd
}

// startAgent starts a2a-agent.mjs and returns it; it is killed when the
// test ends. Node and testdata/interop/node_modules are required.
func startAgent(t *testing.T, env ...string) *agent {
	t.Helper()
	node := peer.Node(t, filepath.Join("@a2a-js", "sdk"))
	p := peer.MustStart(t, peer.Dir(), env, node, "a2a-agent.mjs", "--port", "0")
	return &agent{url: p.URL, cmd: p.Cmd}
}

// conversation plays texts as the turns of one session and returns the
// trace and the session's source. Without a clock in o, the session's and
// the turns' is one that moves clockStep at each reading.
func conversation(t *testing.T, o Options, texts ...string) (*trace.Trace, trace.Source, []error) {
	t.Helper()
	if o.Now == nil {
		o.Now = stepClock(clockStep)
	}
	s, err := Dial(t.Context(), o)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	defer s.Close()
	rec := trace.NewRecorder()
	var errs []error
	for i, text := range texts {
		rec.StartTurn(i, target.TurnUser, text, o.Now())
		errs = append(errs, s.Turn(t.Context(), target.Turn{Index: i, Type: target.TurnUser, Text: text}, rec))
		rec.EndTurn(o.Now(), nil)
	}
	return rec.Trace(), s.Source(), errs
}

// clockStep is how far conversation's clock moves at each reading: the
// agent's pause between events, though the times recorded never depend on
// how long the machine took.
const clockStep = 40 * time.Millisecond

// stepClock returns a clock that moves step at each reading.
func stepClock(step time.Duration) func() time.Time {
	var mu sync.Mutex
	at := time.UnixMilli(1_700_000_000_000)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		at = at.Add(step)
		return at
	}
}
